// snapshot-inspect: offline inspection, verification and diff of Mooncake snapshot stores
// (docs/cli/snapshot-inspect.md). Parses flags and runs one command of report/inspect_run.
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>

#include "report/inspect/inspect_run.hpp"
#include "s3_flags.hpp"
#include "tool_common.hpp"
#include "util/thread_pool.hpp"

namespace mq = moonquota;
using mq::util::Status;

namespace {

constexpr const char* k_tool = "snapshot-inspect";

struct Flags {
  mq::tools::CommonFlags common;
  mq::report::InspectRequest request;
  std::string restore_time = "now";
  mq::tools::S3Flags s3;
};

// Progress on stderr, only on a terminal and not with -q, at most a few times a second.
std::function<void(std::uint64_t, std::uint64_t)> progress_printer(const Flags& flags) {
  if (flags.common.verbosity < 0 || ::isatty(STDERR_FILENO) == 0) return nullptr;
  auto last = std::make_shared<std::atomic<std::int64_t>>(0);
  return [last](std::uint64_t shards, std::uint64_t objects) {
    const auto now =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
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

// The source options, kept to check which were given together.
struct SourceOptions {
  CLI::Option* cluster_id = nullptr;
  CLI::Option* snapshot = nullptr;
  CLI::Option* snapshot_dir = nullptr;
  CLI::Option* catalog = nullptr;
  CLI::Option* redis = nullptr;
};

SourceOptions add_source_flags(CLI::App& app, Flags& f) {
  SourceOptions o;
  app.add_option("--store", f.request.selection.store_dir, "Snapshot object-store base directory");
  o.cluster_id = app.add_option("--cluster-id", f.request.selection.cluster_id, "Cluster id");
  o.snapshot = app.add_option("--snapshot", f.request.selection.snapshot,
                              "Snapshot id or 'latest' (default: the master's first candidate)");
  o.snapshot_dir =
      app.add_option("--snapshot-dir", f.request.selection.snapshot_dir, "One snapshot directory instead of a store");
  o.catalog = app.add_option("--catalog", f.request.selection.catalog, "Snapshot catalog: embedded | redis")
                  ->check(CLI::IsMember({"embedded", "redis"}));
  o.redis = app.add_option("--redis", f.request.selection.redis, "Redis HOST:PORT of the redis catalog");
  app.add_option("--restore-time", f.restore_time, "now | MS: the instant used for lease expiry");
  app.add_option("--max-payload-bytes", f.request.max_payload_bytes,
                 "Memory guard: largest decompressed payload or shard accepted (default 1 GiB)");
  mq::tools::add_s3_flags(app, f.s3);
  return o;
}

// Source flags that would be ignored are usage errors (exit 2): --snapshot-dir is one snapshot
// directory, read without a store's cluster level, snapshot choice or catalog; --redis is read
// only by the redis catalog.
Status check_source_flags(const SourceOptions& o, const Flags& f) {
  if (o.snapshot_dir->count() > 0) {
    // survival --path promote reads the OpLog of --cluster-id beside the one directory.
    const bool oplog_cluster = f.request.path == "promote";
    const std::string ignored =
        mq::tools::first_given({oplog_cluster ? nullptr : o.cluster_id, o.snapshot, o.catalog, o.redis});
    if (!ignored.empty()) {
      return Status::invalid_argument(ignored +
                                      " does not apply to --snapshot-dir, which reads that one snapshot directory");
    }
  }
  if (o.redis->count() > 0 && f.request.selection.catalog != "redis") {
    return Status::invalid_argument("--redis is read only with --catalog redis (the catalog is embedded by default)");
  }
  return {};
}

// Builds the S3 settings and fills in the bucket of "s3://" locations.
mq::util::Result<mq::tools::S3Settings> resolve_s3(Flags& f) {
  MQ_ASSIGN_OR_RETURN(mq::tools::S3Settings settings, mq::tools::s3_settings_from_flags(f.s3));
  MQ_RETURN_IF_ERROR(mq::tools::resolve_store_location(f.request.selection.store_dir, settings));
  MQ_RETURN_IF_ERROR(mq::tools::resolve_store_location(f.request.selection.snapshot_dir, settings));
  MQ_RETURN_IF_ERROR(mq::tools::resolve_store_location(f.request.other_store, settings));
  return settings;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Offline inspection, verification and diff of Mooncake master snapshot stores"};
  mq::tools::setup_app(app, k_tool, "verify: an error finding; diff: the snapshots differ",
                       "snapshot-inspect summary --store snapshots/sample/store");
  app.require_subcommand(1, 1);
  app.fallthrough(true);
  Flags f;
  const SourceOptions source = add_source_flags(app, f);
  mq::tools::add_common_flags(app, f.common, {"text", "json", "ndjson", "html"});
  app.add_subcommand("summary", "Snapshot id, files, objects and replicas by type x status, tenants, segments, tasks");
  auto* tenants = app.add_subcommand("tenants", "Per tenant objects, bytes by replica type, charge, biggest objects");
  tenants->add_option("--biggest", f.request.biggest, "Biggest objects shown per tenant");
  auto* objects = app.add_subcommand("objects", "List objects (NDJSON for piping)");
  objects->add_option("--tenant", f.request.filter.tenant, "Only this tenant");
  objects->add_option("--key-prefix", f.request.filter.key_prefix, "Only keys starting with this");
  objects->add_option("--replica-type", f.request.filter.replica_type,
                      "Some replica of this type (MEMORY, DISK, LOCAL_DISK, DFS, N)");
  objects->add_option("--status", f.request.filter.status,
                      "Some replica with this status (COMPLETE, PROCESSING, ..., N)");
  objects->add_option("--min-size", f.request.filter.min_size, "Only objects of at least this size");
  objects->add_option("--group", f.request.filter.group, "Only this group id (\"\" = ungrouped)");
  objects->add_option("--limit", f.request.limit, "Stop after N objects")->default_str("all");
  auto* top = app.add_subcommand("top", "The N largest objects or tenants (bounded memory)");
  top->add_option("what", f.request.top_what, "objects | tenants")->check(CLI::IsMember({"objects", "tenants"}));
  top->add_option("--by", f.request.top_by, "size | charge")->check(CLI::IsMember({"size", "charge"}));
  top->add_option("-n", f.request.top_n, "How many");
  app.add_subcommand("segments", "Mounted segments: capacity, status, client, allocator totals");
  app.add_subcommand("tasks", "Tasks of the task manager");
  auto* verify = app.add_subcommand("verify", "Every master rule plus deeper consistency checks; exit 1 on errors");
  verify->add_option("--max-findings", f.request.max_findings, "Findings listed per rule (counts are complete)");
  verify->add_option("--temp-dir", f.request.temp_dir,
                     "Directory for the unlinked file of spilled replica ids (default $TMPDIR, else /tmp)");
  auto* diff = app.add_subcommand("diff", "Compare two snapshots shard by shard; exit 1 when they differ");
  diff->add_option("ids", f.request.ids, "ID_A ID_B (one store) or [ID_A [ID_B]] with --other-store");
  diff->add_option("--other-store", f.request.other_store, "Store of snapshot B");
  diff->add_option("--limit", f.request.limit, "Changes kept in --format json / shown in text")->default_str("all");
  app.add_subcommand("dump", "The whole snapshot as lossless JSON or NDJSON");
  auto* survival = app.add_subcommand(
      "survival", "What a restore at each point keeps and drops, per tenant; when each tenant's charge is gone");
  survival
      ->add_option("--at", f.request.at,
                   "Restore points: delays after created_at (0, 1500ms, 10s, 5m, 1h, 2d), @EPOCH_MS, now "
                   "(--restore-time)")
      ->default_str(f.request.at);
  survival
      ->add_option("--path", f.request.path,
                   "restore (a master restores the snapshot) | promote (a standby bootstraps from it at each point, "
                   "replays the OpLog and is promoted)")
      ->default_str("restore")
      ->check(CLI::IsMember({"restore", "promote"}));
  auto* oplog_etcd =
      survival->add_option("--oplog-etcd", f.request.oplog.etcd, "promote: read the OpLog from etcd HOST:PORT");
  survival->add_option("--oplog-file", f.request.oplog.file, "promote: read the OpLog from an export file")
      ->excludes(oplog_etcd);
  survival->add_option("--until-seq", f.request.until_seq, "promote: replay the OpLog only up to sequence N");
  survival->add_option("--lease-model", f.request.lease_model, "upstream | keep (leases ignored at restore)")
      ->default_str("upstream");
  mq::tools::show_shared_flags_in_subcommand_help(app);
  if (int rc = mq::tools::parse_command_line(app, argc, argv); rc >= 0) return rc;
  mq::tools::setup_logging(f.common);
  if (!f.request.selection.snapshot_dir.empty() && !f.request.selection.store_dir.empty()) {
    return mq::tools::fail(k_tool, Status::invalid_argument("--store and --snapshot-dir exclude each other"));
  }
  if (auto s = check_source_flags(source, f); !s.ok()) return mq::tools::fail(k_tool, s);
  auto s3 = resolve_s3(f);
  if (!s3.ok()) return mq::tools::fail(k_tool, s3.status());
  auto when = mq::tools::parse_restore_time(f.restore_time);
  if (!when.ok()) return mq::tools::fail(k_tool, when.status());
  auto& request = f.request;
  request.command = *mq::report::parse_inspect_command(app.get_subcommands().front()->get_name());
  if (f.common.format == "html" && request.command != mq::report::InspectCommand::survival) {
    return mq::tools::fail(k_tool, Status::invalid_argument("--format html is offered by survival only"));
  }
  request.restore_time_ms = *when;
  request.oplog.net.log = mq::tools::net_log();
  request.threads = f.common.threads == 0 ? mq::util::default_thread_count() : f.common.threads;
  request.format = mq::tools::output_format(f.common);
  request.progress = progress_printer(f);
  mq::util::AtomicOutputStream output;
  if (auto s = mq::tools::open_report(f.common, output); !s.ok()) return mq::tools::fail(k_tool, s);
  // The one store of the selection and, for diff --other-store, the store of snapshot B.
  const auto store = mq::tools::open_store(mq::restore::store_location(request.selection), *s3);
  const auto other_store = request.other_store.empty() ? nullptr : mq::tools::open_store(request.other_store, *s3);
  auto outcome = mq::report::run_inspect({*store, other_store.get()}, request, output.stream());
  end_progress(f);
  if (!outcome.ok()) return mq::tools::fail(k_tool, outcome.status());
  if (outcome->spilled_bytes) {
    spdlog::info("verify: {} bytes of replica ids spilled to the temporary file", *outcome->spilled_bytes);
  }
  return mq::tools::finish_report(k_tool, output, outcome->found ? mq::tools::k_exit_found : mq::tools::k_exit_ok);
}
