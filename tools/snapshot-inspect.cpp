// snapshot-inspect: offline inspection, verification and diff of Mooncake snapshot stores
// (docs/cli/snapshot-inspect.md). Parses flags, calls lib/inspect, renders with lib/report.
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>

#include "inspect/object_listing.hpp"
#include "inspect/snapshot_diff.hpp"
#include "inspect/snapshot_select.hpp"
#include "inspect/snapshot_stats.hpp"
#include "inspect/verify.hpp"
#include "model/enums.hpp"
#include "report/inspect_diff_report.hpp"
#include "report/inspect_objects_report.hpp"
#include "report/inspect_summary_report.hpp"
#include "report/inspect_verify_report.hpp"
#include "tool_common.hpp"
#include "util/thread_pool.hpp"

namespace mq = moonquota;
using mq::util::Status;

namespace {

constexpr const char* k_tool = "snapshot-inspect";

struct Flags {
  mq::tools::CommonFlags common;
  mq::restore::StoreSelection selection;
  std::string restore_time = "now";
  std::size_t max_payload_bytes = std::size_t{1} << 30;
  // objects
  std::optional<std::string> tenant, key_prefix, replica_type, status, group;
  std::uint64_t min_size = 0;
  std::uint64_t limit = 0;
  // tenants, top
  std::size_t biggest = 3;
  std::string top_what = "objects";
  std::string top_by = "size";
  std::size_t top_n = 10;
  // verify
  std::size_t max_findings = 1000;
  std::string temp_dir;
  // diff
  std::string other_store;
  std::vector<std::string> ids;
};

// The report goes to stdout, or to --output through a temporary file renamed at the end, so a
// streamed report is never seen half-written and never held in memory.
class ReportOutput {
 public:
  explicit ReportOutput(const std::string& path) : m_path(path) {
    if (path.empty()) return;
    m_temp = path + ".partial-" + std::to_string(::getpid());
    m_file.open(m_temp, std::ios::binary | std::ios::trunc);
  }
  ~ReportOutput() {
    if (!m_path.empty() && !m_committed) std::remove(m_temp.c_str());
  }
  std::ostream& stream() { return m_path.empty() ? std::cout : m_file; }
  Status commit() {
    stream().flush();
    if (!stream()) return Status::io_error("cannot write the report" + (m_path.empty() ? "" : " to '" + m_path + "'"));
    if (m_path.empty()) return {};
    m_file.close();
    std::error_code ec;
    std::filesystem::rename(m_temp, m_path, ec);
    if (ec) return Status::io_error("cannot rename '" + m_temp + "' to '" + m_path + "': " + ec.message());
    m_committed = true;
    return {};
  }

 private:
  std::string m_path;
  std::string m_temp;
  std::ofstream m_file;
  bool m_committed = false;
};

// Progress on stderr, only on a terminal and not with -q, at most a few times a second.
std::function<void(std::uint64_t, std::uint64_t)> progress_printer(const Flags& flags) {
  if (flags.common.verbosity < 0 || ::isatty(STDERR_FILENO) == 0) return nullptr;
  auto last = std::make_shared<std::atomic<std::int64_t>>(0);
  return [last](std::uint64_t shards, std::uint64_t objects) {
    const auto now = std::chrono::duration_cast<std::chrono::milliseconds>(
                         std::chrono::steady_clock::now().time_since_epoch())
                         .count();
    std::int64_t prev = last->load();
    if (now - prev < 250 || !last->compare_exchange_strong(prev, now)) return;
    std::fprintf(stderr, "\r%s: %llu shards, %llu objects ", k_tool, static_cast<unsigned long long>(shards),
                 static_cast<unsigned long long>(objects));
  };
}

void end_progress(const Flags& flags) {
  if (flags.common.verbosity >= 0 && ::isatty(STDERR_FILENO) != 0) std::fprintf(stderr, "\r\033[K");
}

mq::report::OutputFormat output_format(const Flags& flags) {
  if (flags.common.format == "json") return mq::report::OutputFormat::json;
  if (flags.common.format == "ndjson") return mq::report::OutputFormat::ndjson;
  return mq::report::OutputFormat::text;
}

unsigned thread_count(const Flags& flags) {
  return flags.common.threads == 0 ? mq::util::default_thread_count() : flags.common.threads;
}

mq::util::Result<std::int64_t> parse_enum(const std::string& text, const char* flag,
                                          const mq::model::EnumTable& names) {
  if (auto value = names.parse(text)) return *value;
  try {
    std::size_t used = 0;
    const long long v = std::stoll(text, &used);
    if (used == text.size()) return static_cast<std::int64_t>(v);
  } catch (const std::exception&) {
  }
  return Status::invalid_argument(std::string(flag) + " '" + text + "' is not a known name or a number");
}

mq::util::Result<mq::inspect::ObjectFilter> object_filter(const Flags& f) {
  mq::inspect::ObjectFilter filter;
  filter.tenant_id = f.tenant;
  filter.key_prefix = f.key_prefix.value_or("");
  filter.min_size = f.min_size;
  filter.group_id = f.group;
  if (f.replica_type) {
    MQ_ASSIGN_OR_RETURN(std::int64_t t,
                        parse_enum(*f.replica_type, "--replica-type", mq::model::replica_type::k_table));
    filter.replica_type = static_cast<std::int8_t>(t);
  }
  if (f.status) {
    MQ_ASSIGN_OR_RETURN(std::int64_t s, parse_enum(*f.status, "--status", mq::model::replica_status::k_table));
    filter.status = static_cast<std::int16_t>(s);
  }
  return filter;
}

struct Prepared {
  mq::report::InspectContext context;
  mq::inspect::ScanOptions scan;
  mq::restore::RestoreOptions restore;
};

mq::util::Result<Prepared> prepare(const Flags& flags) {
  Prepared p;
  MQ_ASSIGN_OR_RETURN(p.context.restore_time_ms, mq::tools::parse_restore_time(flags.restore_time));
  MQ_ASSIGN_OR_RETURN(p.context.selected, mq::inspect::select_snapshot(flags.selection));
  p.scan.restore_time_ms = p.context.restore_time_ms;
  p.scan.max_payload_bytes = flags.max_payload_bytes;
  p.scan.progress = progress_printer(flags);
  p.restore.restore_time_ms = p.context.restore_time_ms;
  p.restore.threads = thread_count(flags);
  p.restore.max_payload_bytes = flags.max_payload_bytes;
  return p;
}

void decide_verdict(Prepared& p, const mq::inspect::ScannedSnapshot& snap) {
  p.context.verdict = mq::inspect::master_verdict(p.context.selected, snap.master_rejection.value_or(""), p.restore);
}

int finish(ReportOutput& output, int code) {
  if (auto s = output.commit(); !s.ok()) return mq::tools::fail(k_tool, s);
  return code;
}

int run_stats_command(const std::string& command, Flags& flags) {
  auto prepared = prepare(flags);
  if (!prepared.ok()) return mq::tools::fail(k_tool, prepared.status());
  Prepared& p = *prepared;
  const auto format = output_format(flags);
  const auto by = flags.top_by == "charge" ? mq::inspect::RankBy::charge : mq::inspect::RankBy::size;
  ReportOutput output(flags.common.output);
  if (command == "segments" || command == "tasks") {
    p.scan.decode_shards = false;
    auto snap = mq::inspect::scan_snapshot(p.context.selected.snapshot_dir, p.context.selected.snapshot_id, p.scan, {});
    if (!snap.ok()) return mq::tools::fail(k_tool, snap.status());
    decide_verdict(p, *snap);
    if (command == "segments") mq::report::render_segments(p.context, *snap, format, output.stream());
    if (command == "tasks") mq::report::render_tasks(p.context, *snap, format, output.stream());
    return finish(output, mq::tools::k_exit_ok);
  }
  mq::inspect::StatsOptions stats;
  stats.biggest_per_tenant = command == "tenants" ? flags.biggest : 0;
  stats.top_objects = command == "top" && flags.top_what == "objects" ? flags.top_n : 0;
  stats.rank_by = by;
  auto scan = mq::inspect::scan_stats(p.context.selected.snapshot_dir, p.context.selected.snapshot_id, p.scan, stats,
                                      thread_count(flags));
  end_progress(flags);
  if (!scan.ok()) return mq::tools::fail(k_tool, scan.status());
  decide_verdict(p, scan->snapshot);
  if (command == "summary") mq::report::render_summary(p.context, *scan, format, output.stream());
  if (command == "tenants") mq::report::render_tenants(p.context, *scan, format, output.stream());
  if (command == "top" && flags.top_what == "objects") {
    mq::report::render_top_objects(p.context, *scan, by, format, output.stream());
  }
  if (command == "top" && flags.top_what == "tenants") {
    mq::report::render_top_tenants(p.context, *scan, by, flags.top_n, format, output.stream());
  }
  return finish(output, mq::tools::k_exit_ok);
}

int run_listing_command(const std::string& command, Flags& flags) {
  auto prepared = prepare(flags);
  if (!prepared.ok()) return mq::tools::fail(k_tool, prepared.status());
  Prepared& p = *prepared;
  auto filter = command == "objects" ? object_filter(flags) : mq::util::Result<mq::inspect::ObjectFilter>(mq::inspect::ObjectFilter{});
  if (!filter.ok()) return mq::tools::fail(k_tool, filter.status());
  // The header (segments, tasks, discarded replicas) first: the verdict and `dump` need it.
  mq::inspect::ScanOptions header_options = p.scan;
  header_options.decode_shards = false;
  header_options.keep_allocator_blobs = command == "dump";
  const auto& sel = p.context.selected;
  auto header = mq::inspect::scan_snapshot(sel.snapshot_dir, sel.snapshot_id, header_options, {});
  if (!header.ok()) return mq::tools::fail(k_tool, header.status());
  decide_verdict(p, *header);
  const auto format = output_format(flags);
  ReportOutput output(flags.common.output);
  std::ostream& out = output.stream();
  p.scan.decode_tasks = false;
  mq::util::Result<mq::inspect::ListingResult> listing = Status::internal("not run");
  if (command == "dump") {
    mq::report::begin_dump(p.context, *header, format, out);
    bool first = true;
    listing = mq::inspect::list_objects(sel.snapshot_dir, sel.snapshot_id, p.scan, *filter, 0, thread_count(flags),
                                        [&](const mq::inspect::ListedObject& o) {
                                          mq::report::write_dump_object(o, format, first, out);
                                          first = false;
                                        });
    end_progress(flags);
    if (!listing.ok()) return mq::tools::fail(k_tool, listing.status());
    mq::report::end_dump(*listing, format, out);
  } else {
    mq::report::ObjectStreamWriter writer(format, out);
    writer.begin(p.context);
    listing = mq::inspect::list_objects(sel.snapshot_dir, sel.snapshot_id, p.scan, *filter, flags.limit,
                                        thread_count(flags),
                                        [&](const mq::inspect::ListedObject& o) { writer.write(o); });
    end_progress(flags);
    if (!listing.ok()) return mq::tools::fail(k_tool, listing.status());
    writer.end(p.context, *listing);
  }
  return finish(output, mq::tools::k_exit_ok);
}

int run_verify(Flags& flags) {
  auto prepared = prepare(flags);
  if (!prepared.ok()) return mq::tools::fail(k_tool, prepared.status());
  Prepared& p = *prepared;
  mq::inspect::VerifyOptions options;
  options.scan = p.scan;
  options.threads = thread_count(flags);
  options.findings_per_rule = flags.max_findings;
  options.temp_dir = flags.temp_dir;
  const auto& sel = p.context.selected;
  auto result = mq::inspect::verify_snapshot(sel.snapshot_dir, sel.snapshot_id, options, sel.catalog_findings);
  end_progress(flags);
  if (!result.ok()) return mq::tools::fail(k_tool, result.status());
  decide_verdict(p, result->snapshot);
  spdlog::info("verify: {} bytes of replica ids spilled to the temporary file", result->spilled_bytes);
  ReportOutput output(flags.common.output);
  mq::report::render_verify(p.context, *result, output_format(flags), output.stream());
  return finish(output, result->failed() ? mq::tools::k_exit_found : mq::tools::k_exit_ok);
}

int run_diff(Flags& flags) {
  auto when = mq::tools::parse_restore_time(flags.restore_time);
  if (!when.ok()) return mq::tools::fail(k_tool, when.status());
  if (flags.selection.store_dir.empty()) {
    return mq::tools::fail(k_tool, Status::invalid_argument("diff needs --store (and --other-store for two stores)"));
  }
  mq::restore::StoreSelection a = flags.selection;
  mq::restore::StoreSelection b = flags.selection;
  if (!flags.other_store.empty()) {
    b.store_dir = flags.other_store;
    b.catalog = "embedded";  // a Redis catalog describes store A only
    if (flags.ids.size() > 2) return mq::tools::fail(k_tool, Status::invalid_argument("diff takes at most two ids"));
    a.snapshot = flags.ids.empty() ? "latest" : flags.ids[0];
    b.snapshot = flags.ids.size() < 2 ? "latest" : flags.ids[1];
  } else {
    if (flags.ids.size() != 2) {
      return mq::tools::fail(k_tool, Status::invalid_argument("diff --store DIR needs two snapshot ids: ID_A ID_B"));
    }
    a.snapshot = flags.ids[0];
    b.snapshot = flags.ids[1];
  }
  auto side_a = mq::inspect::select_snapshot(a);
  if (!side_a.ok()) return mq::tools::fail(k_tool, side_a.status().with_context("snapshot A"));
  auto side_b = mq::inspect::select_snapshot(b);
  if (!side_b.ok()) return mq::tools::fail(k_tool, side_b.status().with_context("snapshot B"));
  mq::inspect::DiffOptions options;
  options.scan.restore_time_ms = *when;
  options.scan.max_payload_bytes = flags.max_payload_bytes;
  options.scan.progress = progress_printer(flags);
  options.threads = thread_count(flags);
  const mq::inspect::DiffSide da{side_a->snapshot_dir, side_a->snapshot_id};
  const mq::inspect::DiffSide db{side_b->snapshot_dir, side_b->snapshot_id};
  ReportOutput output(flags.common.output);
  mq::report::DiffWriter writer(output_format(flags), flags.limit, output.stream());
  writer.begin(da, db);
  auto result = mq::inspect::diff_snapshots(da, db, options, [&](const mq::inspect::ObjectChange& c) { writer.write(c); });
  end_progress(flags);
  if (!result.ok()) return mq::tools::fail(k_tool, result.status());
  writer.end(*result, *when);
  return finish(output, result->differs() ? mq::tools::k_exit_found : mq::tools::k_exit_ok);
}

void add_source_flags(CLI::App& app, Flags& f) {
  app.add_option("--store", f.selection.store_dir, "Snapshot object-store base directory");
  app.add_option("--cluster-id", f.selection.cluster_id, "Cluster id (default mooncake_cluster)");
  app.add_option("--snapshot", f.selection.snapshot, "Snapshot id or 'latest' (default: the master's first candidate)");
  app.add_option("--snapshot-dir", f.selection.snapshot_dir, "One snapshot directory instead of a store");
  app.add_option("--catalog", f.selection.catalog, "Snapshot catalog: embedded (default) | redis")
      ->check(CLI::IsMember({"embedded", "redis"}));
  app.add_option("--redis", f.selection.redis, "Redis HOST:PORT of the redis catalog");
  app.add_option("--restore-time", f.restore_time, "now | MS: the instant used for lease expiry (default now)");
  app.add_option("--max-payload-bytes", f.max_payload_bytes,
                 "Memory guard: largest decompressed payload or shard accepted (default 1 GiB)");
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Offline inspection, verification and diff of Mooncake master snapshot stores"};
  app.name(k_tool);
  app.require_subcommand(1, 1);
  app.fallthrough(true);
  Flags f;
  add_source_flags(app, f);
  mq::tools::add_common_flags(app, f.common, {"text", "json", "ndjson"});
  app.add_subcommand("summary", "Snapshot id, files, objects and replicas by type x status, tenants, segments, tasks");
  auto* tenants = app.add_subcommand("tenants", "Per tenant objects, bytes by replica type, charge, biggest objects");
  tenants->add_option("--biggest", f.biggest, "Biggest objects shown per tenant (default 3)");
  auto* objects = app.add_subcommand("objects", "List objects (NDJSON for piping)");
  objects->add_option("--tenant", f.tenant, "Only this tenant");
  objects->add_option("--key-prefix", f.key_prefix, "Only keys starting with this");
  objects->add_option("--replica-type", f.replica_type, "Some replica of this type (MEMORY, DISK, LOCAL_DISK, DFS, N)");
  objects->add_option("--status", f.status, "Some replica with this status (COMPLETE, PROCESSING, ..., N)");
  objects->add_option("--min-size", f.min_size, "Only objects of at least this size");
  objects->add_option("--group", f.group, "Only this group id (\"\" = ungrouped)");
  objects->add_option("--limit", f.limit, "Stop after N objects (default: all)");
  auto* top = app.add_subcommand("top", "The N largest objects or tenants (bounded memory)");
  top->add_option("what", f.top_what, "objects (default) | tenants")->check(CLI::IsMember({"objects", "tenants"}));
  top->add_option("--by", f.top_by, "size (default) | charge")->check(CLI::IsMember({"size", "charge"}));
  top->add_option("-n", f.top_n, "How many (default 10)");
  app.add_subcommand("segments", "Mounted segments: capacity, status, client, allocator totals");
  app.add_subcommand("tasks", "Tasks of the task manager");
  auto* verify = app.add_subcommand("verify", "Every master rule plus deeper consistency checks; exit 1 on errors");
  verify->add_option("--max-findings", f.max_findings, "Findings listed per rule (default 1000; counts are complete)");
  verify->add_option("--temp-dir", f.temp_dir,
                     "Directory for the unlinked file of spilled replica ids (default $TMPDIR, else /tmp)");
  auto* diff = app.add_subcommand("diff", "Compare two snapshots shard by shard; exit 1 when they differ");
  diff->add_option("ids", f.ids, "ID_A ID_B (one store) or [ID_A [ID_B]] with --other-store");
  diff->add_option("--other-store", f.other_store, "Store of snapshot B");
  diff->add_option("--limit", f.limit, "Changes kept in --format json / shown in text (default: all)");
  app.add_subcommand("dump", "The whole snapshot as lossless JSON or NDJSON");
  if (int rc = mq::tools::parse_command_line(app, argc, argv); rc >= 0) return rc;
  mq::tools::setup_logging(f.common);
  if (!f.selection.snapshot_dir.empty() && !f.selection.store_dir.empty()) {
    return mq::tools::fail(k_tool, Status::invalid_argument("--store and --snapshot-dir exclude each other"));
  }
  const std::string command = app.get_subcommands().front()->get_name();
  if (command == "verify") return run_verify(f);
  if (command == "diff") return run_diff(f);
  if (command == "objects" || command == "dump") return run_listing_command(command, f);
  return run_stats_command(command, f);
}
