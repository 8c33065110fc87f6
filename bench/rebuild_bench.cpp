// moonquota-bench: forges an N-object store (or takes one) and measures, side by side and with
// the same thread count, the zstd-only floor (the metadata shards), every zstd frame a restore
// decompresses (the floor and the segments payload's), the naive msgpack::unpack object-tree
// decode (alone, and with the segments payload a restore decodes), and our quota-rebuild path: seconds, objects/s, MB/s
// of decompressed msgpack, and peak RSS. Each phase runs in its own freshly exec'd process so its peak RSS is its own.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "bench_phases.hpp"
#include "forge/large_store.hpp"
#include "phase_process.hpp"
#include "source/embedded_catalog.hpp"
#include "source/local_object_store.hpp"
#include "util/thread_pool.hpp"

namespace fs = std::filesystem;
namespace mq = moonquota;
using nlohmann::json;

namespace {

json to_json(const mq::bench::PhaseResult& r) {
  return {{"seconds", r.seconds},
          {"objects", r.objects},
          {"decompressed_bytes", r.decompressed_bytes},
          {"charged_bytes", r.charged_bytes},
          {"error", r.error}};
}

// Child mode: run one phase and print its result as JSON.
int run_phase(const std::string& phase, const std::string& store, unsigned threads) {
  mq::source::LocalObjectStore files;
  auto listing = mq::source::read_embedded_catalog(files, store, "mooncake_cluster");
  if (!listing.ok() || listing->listed.empty()) {
    std::cout << json{{"error", "no snapshot in " + store}}.dump() << "\n";
    return 3;
  }
  const std::string metadata = listing->root + listing->listed.front() + "/metadata";
  mq::bench::PhaseResult r;
  if (phase == "floor") r = mq::bench::run_floor(metadata, threads);
  if (phase == "naive") r = mq::bench::run_naive(metadata, threads);
  const std::string segments = listing->root + listing->listed.front() + "/segments";
  if (phase == "frames") r = mq::bench::run_frames(metadata, segments, threads);
  if (phase == "naive-restore") r = mq::bench::run_naive_restore(metadata, segments, threads);
  if (phase == "ours") r = mq::bench::run_ours(store, threads);
  std::cout << to_json(r).dump() << "\n";
  return r.error.empty() ? 0 : 3;
}

struct Measured {
  json result;
  long peak_rss_kib = 0;
  double cpu_seconds = 0;
  bool interrupted = false;
};

Measured spawn_phase(const std::string& phase, const std::string& store, unsigned threads) {
  const std::string t = std::to_string(threads);
  const mq::bench::ChildOutcome child = mq::bench::run_child([&] {
    execl("/proc/self/exe", "moonquota-bench", "--phase", phase.c_str(), "--store", store.c_str(), "--threads",
          t.c_str(), static_cast<char*>(nullptr));
    return 127;
  });
  Measured m;
  m.interrupted = child.interrupted;
  if (!child.error.empty()) {
    m.result = {{"error", child.error}};
    return m;
  }
  m.peak_rss_kib = child.usage.ru_maxrss;
  m.cpu_seconds = static_cast<double>(child.usage.ru_utime.tv_sec + child.usage.ru_stime.tv_sec) +
                  static_cast<double>(child.usage.ru_utime.tv_usec + child.usage.ru_stime.tv_usec) / 1e6;
  try {
    m.result = json::parse(child.out);
  } catch (const std::exception&) {
    m.result = {
        {"error", "phase '" + phase + "' printed no result (" + mq::bench::describe_status(child.status) + ")"}};
  }
  return m;
}

// A new directory for the forged store under `base` (created if missing): the benchmark removes
// only what it made, never a directory the user named.
mq::util::Result<std::string> make_store_dir(const fs::path& base) {
  std::error_code ec;
  fs::create_directories(base, ec);
  if (ec) return mq::util::Status::io_error("cannot create '" + base.string() + "': " + ec.message());
  std::string pattern = (base / "moonquota-bench-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) {
    return mq::util::Status::io_error("cannot create a directory under '" + base.string() +
                                      "': " + std::strerror(errno));
  }
  return pattern;
}

// Forges the store in a child (so that an interrupt stops it like a phase); an empty string when
// it succeeded, else why not.
std::string forge_store(const mq::forge::LargeStoreOptions& options, const std::string& dir, bool& interrupted) {
  const mq::bench::ChildOutcome child = mq::bench::run_child([&] {
    auto summary = mq::forge::write_large_store(options, dir);
    if (summary.ok()) return 0;
    std::cout << summary.status().message() << std::flush;
    return 3;
  });
  interrupted = child.interrupted;
  if (!child.error.empty()) return child.error;
  if (WIFEXITED(child.status) && WEXITSTATUS(child.status) == 0) return "";
  return child.out.empty() ? "the forge ended with " + mq::bench::describe_status(child.status) : child.out;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Benchmark the quota-rebuild metadata path against the zstd floor and msgpack::unpack"};
  app.name("moonquota-bench");
  std::uint64_t objects = 2000000;
  std::string store;
  std::string work_dir;
  std::string phase;
  unsigned threads = 0;
  std::uint32_t tenants = 16;
  bool keep = false;
  bool as_json = false;
  app.add_option("--objects", objects, "Objects in the forged store (default 2000000)");
  app.add_option("--store", store, "Use this store instead of forging one");
  app.add_option("--work-dir", work_dir, "Forge the store in a new directory under this one (default: the temp dir)");
  app.add_option("--threads", threads, "Threads for every phase (0, the default: all cores)")
      ->check(CLI::Range(0u, 256u));
  app.add_option("--tenants", tenants, "Tenants in the forged store (default 16)");
  app.add_flag("--keep", keep, "Keep the forged store");
  app.add_flag("--json", as_json, "Print the results as JSON");
  app.add_option("--phase", phase, "internal: run one phase")
      ->check(CLI::IsMember({"floor", "frames", "naive", "naive-restore", "ours"}))
      ->group("");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;  // --help; a usage error is exit 2, as in the tools
  }
  if (threads == 0) threads = mq::util::default_thread_count();
  if (!phase.empty()) return run_phase(phase, store, threads);

  mq::bench::catch_interrupts();

  std::string forged_dir;  // the directory this run made, removed at the end unless --keep
  auto remove_forged = [&] {
    std::error_code ec;
    if (!forged_dir.empty() && !keep) fs::remove_all(forged_dir, ec);
  };
  if (store.empty()) {
    auto dir = make_store_dir(work_dir.empty() ? fs::temp_directory_path() : fs::path(work_dir));
    if (!dir.ok()) {
      std::cerr << "moonquota-bench: " << dir.status().message() << "\n";
      return 3;
    }
    forged_dir = store = *dir;
    mq::forge::LargeStoreOptions options;
    options.objects = objects;
    options.tenants = tenants;
    options.threads = threads;
    std::cerr << "forging " << objects << " objects into " << store << " ...\n";
    bool interrupted = false;
    const std::string error = forge_store(options, store, interrupted);
    if (interrupted || !error.empty()) {
      std::error_code ec;
      fs::remove_all(forged_dir, ec);  // a half-forged store is never kept
      mq::bench::die_of_interrupt();
      std::cerr << "moonquota-bench: " << error << "\n";
      return 3;
    }
    if (keep) std::cerr << "the forged store is kept in " << store << "\n";
  }
  json report = {{"store", store}, {"threads", threads}, {"phases", json::array()}};
  struct PhaseSpec {
    const char* name;
    unsigned threads;
  };
  // The floor, every frame a restore decompresses, the naive decode alone and with the segments
  // payload, on one core (how the targets are stated) and on all cores; ours on all cores (the
  // tool's default) and on one.
  const std::vector<PhaseSpec> specs = {
      {"floor", 1}, {"floor", threads}, {"frames", 1},        {"frames", threads},
      {"naive", 1}, {"naive", threads}, {"naive-restore", 1}, {"naive-restore", threads},
      {"ours", 1},  {"ours", threads}};
  bool failed = false;
  for (const auto& spec : specs) {
    std::cerr << "phase " << spec.name << " (" << spec.threads << " threads) ...\n";
    Measured m = spawn_phase(spec.name, store, spec.threads);
    if (m.interrupted) {
      remove_forged();
      mq::bench::die_of_interrupt();
    }
    failed = failed || !m.result.value("error", std::string()).empty();
    m.result["phase"] = spec.name;
    m.result["threads"] = spec.threads;
    m.result["peak_rss_mib"] = static_cast<double>(m.peak_rss_kib) / 1024.0;
    m.result["cpu_seconds"] = m.cpu_seconds;
    report["phases"].push_back(m.result);
  }
  remove_forged();
  mq::bench::die_of_interrupt();  // one that came between two phases or after the last
  const int rc = failed ? 3 : 0;  // a phase that could not read the store: bad input

  if (as_json) {
    std::cout << report.dump(2) << "\n";
    return rc;
  }
  double objects_total = 0;
  double floor_1t = 0;
  for (const auto& r : report["phases"]) {
    if (r["phase"] == "ours") objects_total = std::max(objects_total, r.value("objects", 0.0));
    if (r["phase"] == "floor" && r["threads"] == 1) floor_1t = r.value("seconds", 0.0);
  }
  std::printf("store %s, %.0f objects\n", store.c_str(), objects_total);
  std::printf("%-13s %7s %9s %9s %12s %11s %13s %12s\n", "phase", "threads", "wall s", "cpu s", "objects/s",
              "MB/s (raw)", "peak RSS MiB", "x floor(1t)");
  for (const auto& r : report["phases"]) {
    const std::string name = r["phase"];
    if (!r.value("error", std::string()).empty()) {
      std::printf("%-13s error: %s\n", name.c_str(), r["error"].get<std::string>().c_str());
      continue;
    }
    double s = r.value("seconds", 0.0);
    double mb = r.value("decompressed_bytes", 0.0) / 1e6;
    std::printf("%-13s %7u %9.3f %9.3f %12.0f %11.1f %13.1f %12.2f\n", name.c_str(), r["threads"].get<unsigned>(), s,
                r.value("cpu_seconds", 0.0), objects_total / s, mb / s, r.value("peak_rss_mib", 0.0),
                floor_1t > 0 ? s / floor_1t : 0.0);
  }
  return rc;
}
