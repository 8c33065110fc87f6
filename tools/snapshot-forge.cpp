// snapshot-forge: write genuine Mooncake snapshot stores from a readable JSON scenario, or a
// large synthetic store for load tests (docs/cli/snapshot-forge.md).
#include <CLI/CLI.hpp>

#include <filesystem>
#include <iostream>
#include <string>
#include <system_error>

#include "forge/large_store.hpp"
#include "forge/oplog_forge.hpp"
#include "source/etcd_gateway.hpp"
#include "util/file_reader.hpp"
#include "forge/scenario.hpp"
#include "forge/store_writer.hpp"
#include "util/thread_pool.hpp"

namespace {

namespace mq = moonquota;

constexpr int k_exit_ok = 0;
constexpr int k_exit_usage = 2;
constexpr int k_exit_bad_input = 3;
constexpr int k_exit_internal = 5;

int fail(const mq::util::Status& status) {
  std::cerr << "snapshot-forge: " << status.to_string() << "\n";
  switch (status.code()) {
    case mq::util::StatusCode::invalid_argument:
    case mq::util::StatusCode::corruption:
    case mq::util::StatusCode::unsupported:
    case mq::util::StatusCode::not_found:
    case mq::util::StatusCode::io_error:
      return k_exit_bad_input;
    case mq::util::StatusCode::unavailable:
      return 4;  // a service (etcd) could not be used
    default:
      return k_exit_internal;
  }
}

// Writes a forged OpLog as an export file and/or into etcd (every key under its root replaced).
int write_oplog(const mq::forge::ForgedOpLog& log, const std::string& export_path, const std::string& etcd) {
  if (!export_path.empty()) {
    if (auto s = mq::source::write_oplog_export_file(export_path, log.kvs); !s.ok()) return fail(s);
  }
  if (!etcd.empty()) {
    auto endpoint = mq::source::parse_host_port(etcd, "--oplog-etcd");
    if (!endpoint.ok()) return fail(endpoint.status());
    mq::source::EtcdGateway gateway(*endpoint);
    const std::string root = "/oplog/" + log.cluster_id + "/";
    if (auto s = gateway.delete_prefix(root); !s.ok()) return fail(s);
    for (const auto& kv : log.kvs) {
      if (auto s = gateway.put(kv.key, kv.value); !s.ok()) return fail(s);
    }
  }
  std::cerr << "snapshot-forge: wrote an OpLog of " << log.entries << " entries in " << log.kvs.size() << " keys"
            << (export_path.empty() ? "" : " to " + export_path) << (etcd.empty() ? "" : " and into etcd " + etcd)
            << "\n";
  return k_exit_ok;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Write Mooncake master snapshot stores from a JSON scenario, or a large synthetic store"};
  app.name("snapshot-forge");
  std::string scenario_path;
  std::string out_dir;
  bool force = false;
  mq::forge::LargeStoreOptions large;
  unsigned threads = 0;
  auto* scenario_opt = app.add_option("scenario", scenario_path, "Scenario JSON (docs/formats/forge-scenario.md)");
  app.add_option("--out", out_dir, "Output directory (the store's base directory)")->required();
  app.add_flag("--force", force, "Replace the snapshot store in a non-empty output directory");
  auto* large_opt = app.add_option("--large", large.objects, "Write a synthetic store of N objects instead");
  app.add_option("--seed", large.seed, "Seed of the synthetic store (default 1)")->needs(large_opt);
  app.add_option("--tenants", large.tenants, "Tenants of the synthetic store (default 8)")
      ->needs(large_opt)
      ->check(CLI::Range(1, 256));
  app.add_option("--clients", large.clients, "Clients (segment chains) of the synthetic store (default 4)")
      ->needs(large_opt)
      ->check(CLI::Range(1, 64));
  app.add_option("--threads", threads, "Worker threads (default: all cores)");
  std::string oplog_export;
  std::string oplog_etcd;
  mq::forge::SyntheticOpLogOptions oplog_large;
  app.add_option("--oplog-export", oplog_export,
                 "Write the scenario's OpLog tail as an export file (default <out>/oplog.jsonl)");
  app.add_option("--oplog-etcd", oplog_etcd, "Also write the OpLog keys into etcd HOST:PORT (replacing its root)");
  auto* oplog_large_opt =
      app.add_option("--oplog-large", oplog_large.entries, "Write a synthetic OpLog of N entries (no snapshot)");
  app.add_flag("--oplog-type-literal", oplog_large.type_literal, "Synthetic OpLog payloads in the type-literal form");
  app.add_option("--oplog-cluster-id", oplog_large.cluster_id, "Cluster id of the synthetic OpLog");
  oplog_large_opt->excludes(scenario_opt)->excludes(large_opt);
  scenario_opt->excludes(large_opt);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? k_exit_ok : k_exit_usage;
  }
  if (oplog_large_opt->count() > 0) {
    std::error_code mk;
    std::filesystem::create_directories(out_dir, mk);
    return write_oplog(mq::forge::synthesize_oplog(oplog_large),
                       oplog_export.empty() ? out_dir + "/oplog.jsonl" : oplog_export, oplog_etcd);
  }
  if (scenario_path.empty() && large_opt->count() == 0) {
    std::cerr << "snapshot-forge: give a SCENARIO.json or --large N\n" << app.help();
    return k_exit_usage;
  }
  std::error_code ec;
  if (!force && std::filesystem::is_directory(out_dir, ec) && !std::filesystem::is_empty(out_dir, ec)) {
    std::cerr << "snapshot-forge: output directory '" << out_dir << "' is not empty (use --force to replace it)\n";
    return k_exit_usage;
  }
  if (large_opt->count() > 0) {
    large.force = force;
    large.threads = threads == 0 ? mq::util::default_thread_count() : threads;
    auto summary = mq::forge::write_large_store(large, out_dir);
    if (!summary.ok()) return fail(summary.status());
    std::cerr << "snapshot-forge: wrote " << summary->objects << " objects, " << summary->replicas << " replicas, "
              << summary->segments << " segments, " << summary->non_empty_shards << " shards (metadata "
              << summary->metadata_bytes << " B, segments " << summary->segments_bytes << " B) to " << out_dir << "\n";
    return k_exit_ok;
  }
  auto scenario = mq::forge::load_scenario(scenario_path);
  if (!scenario.ok()) return fail(scenario.status());
  mq::forge::StoreWriteOptions options;
  options.force = force;
  if (auto status = mq::forge::write_store(*scenario, out_dir, options); !status.ok()) return fail(status);
  auto text = mq::util::read_small_file(scenario_path, 1ULL << 30);
  if (!text.ok()) return fail(text.status());
  auto oplog = mq::forge::parse_oplog_scenario(*text, scenario->cluster_id);
  if (!oplog.ok()) return fail(oplog.status());
  if (*oplog) return write_oplog(**oplog, oplog_export.empty() ? out_dir + "/oplog.jsonl" : oplog_export, oplog_etcd);
  return k_exit_ok;
}
