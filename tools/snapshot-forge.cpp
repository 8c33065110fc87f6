// snapshot-forge: write genuine Mooncake snapshot stores from a readable JSON scenario, or a
// large synthetic store for load tests (docs/cli/snapshot-forge.md).
#include <spdlog/spdlog.h>

#include <iostream>
#include <memory>
#include <string>

#include "forge/forge_run.hpp"
#include "forge/s3_publish.hpp"
#include "s3_flags.hpp"
#include "source/object_store_factory.hpp"
#include "source/oplog_source.hpp"
#include "source/s3_url.hpp"
#include "tool_common.hpp"
#include "util/plural.hpp"
#include "util/thread_pool.hpp"

namespace {

namespace mq = moonquota;

constexpr const char* k_tool = "snapshot-forge";

// Writes a forged OpLog as an export file and/or into etcd (every key under its root replaced).
// The one-line summary on stderr is left out with -q.
mq::util::Status write_oplog(const mq::forge::ForgedOpLog& log, const std::string& export_path, const std::string& etcd,
                             bool quiet) {
  if (!export_path.empty()) {
    spdlog::info("writing {} OpLog keys to {}", log.kvs.size(), export_path);
    MQ_RETURN_IF_ERROR(mq::source::write_oplog_export_file(export_path, log.kvs));
  }
  if (!etcd.empty()) {
    spdlog::info("writing {} OpLog keys into etcd {} (cluster {})", log.kvs.size(), etcd, log.cluster_id);
    MQ_RETURN_IF_ERROR(mq::source::write_oplog_etcd(etcd, log.cluster_id, log.kvs));
  }
  if (quiet) return {};
  std::cerr << k_tool << ": wrote an OpLog of " << mq::util::counted(log.entries, "entry", "entries") << " in "
            << log.kvs.size() << " keys" << (export_path.empty() ? "" : " to " + export_path)
            << (etcd.empty() ? "" : " and into etcd " + etcd) << "\n";
  return {};
}

int run(int argc, char** argv) {
  CLI::App app{"Write Mooncake master snapshot stores from a JSON scenario, or a large synthetic store"};
  mq::tools::setup_app(app, k_tool, "never (a writer: 0 or an error)",
                       "snapshot-forge snapshots/sample/scenario.json --out /tmp/store");
  std::string scenario_path;
  std::string out_dir;
  bool force = false;
  mq::forge::LargeStoreOptions large;
  mq::tools::CommonFlags common;  // -v/-q and --threads: no report, so no --format/--output
  auto* scenario_opt = app.add_option("scenario", scenario_path, "Scenario JSON (docs/formats/forge-scenario.md)");
  app.add_option("--out", out_dir,
                 "Output directory (the store's base directory), or s3://BUCKET[/PREFIX] to upload the store there")
      ->required();
  app.add_flag("--force", force,
               "Replace the snapshot store in a non-empty output directory (s3://: overwrite existing keys)");
  auto* large_opt = app.add_option("--large", large.objects, "Write a synthetic store of N objects instead");
  app.add_option("--seed", large.seed, "Seed of the synthetic store")->needs(large_opt);
  app.add_option("--added-objects", large.added_objects,
                 "The store of --large N plus K more objects, its N objects and segments unchanged (a 1% twin)")
      ->needs(large_opt);
  app.add_option("--tenants", large.tenants, "Tenants of the synthetic store")
      ->needs(large_opt)
      ->check(CLI::Range(1, 256));
  app.add_option("--clients", large.clients, "Clients (segment chains) of the synthetic store")
      ->needs(large_opt)
      ->check(CLI::Range(1, 64));
  mq::tools::add_threads_option(app, common.threads);
  mq::tools::add_verbosity_flags(app, common);
  mq::tools::S3Flags s3_flags;
  mq::tools::add_s3_flags(app, s3_flags);
  std::string oplog_export;
  std::string oplog_etcd;
  mq::forge::SyntheticOpLogOptions oplog_large;
  // A flag that would be ignored is a usage error: --large writes no OpLog, and the synthetic
  // OpLog's form and cluster id need --oplog-large.
  app.add_option("--oplog-export", oplog_export,
                 "Write the scenario's OpLog tail as an export file (default <out>/oplog.jsonl; none for s3://)")
      ->excludes(large_opt);
  app.add_option("--oplog-etcd", oplog_etcd, "Also write the OpLog keys into etcd HOST:PORT (replacing its root)")
      ->excludes(large_opt);
  auto* oplog_large_opt =
      app.add_option("--oplog-large", oplog_large.entries, "Write a synthetic OpLog of N entries (no snapshot)");
  app.add_flag("--oplog-type-literal", oplog_large.type_literal, "Synthetic OpLog payloads in the type-literal form")
      ->needs(oplog_large_opt);
  app.add_option("--oplog-cluster-id", oplog_large.cluster_id, "Cluster id of the synthetic OpLog")
      ->needs(oplog_large_opt);
  oplog_large_opt->excludes(scenario_opt)->excludes(large_opt);
  scenario_opt->excludes(large_opt);
  if (int rc = mq::tools::parse_command_line(app, argc, argv); rc >= 0) return rc;
  mq::tools::setup_logging(common);
  const bool quiet = common.verbosity < 0;
  const bool to_s3 = mq::source::is_s3_url(out_dir);
  std::unique_ptr<mq::source::WritableObjectStore> destination;  // the bucket of an s3:// --out
  if (to_s3) {
    if (oplog_large_opt->count() > 0) {
      return mq::tools::fail(k_tool, mq::util::Status::invalid_argument(
                                         "--oplog-large writes no snapshot store: give a local --out directory"));
    }
    auto settings = mq::tools::s3_settings_from_flags(s3_flags);
    if (!settings.ok()) return mq::tools::fail(k_tool, settings.status());
    if (auto s = mq::tools::resolve_store_location(out_dir, *settings); !s.ok()) return mq::tools::fail(k_tool, s);
    spdlog::info("S3: {}", mq::source::describe(settings->config));
    destination = mq::source::open_writable_object_store(out_dir, settings->config, settings->net);
  }
  mq::forge::ForgeRequest request;
  request.out_dir = out_dir;
  request.force = force;
  request.scenario_path = scenario_path;
  if (large_opt->count() > 0) {
    large.threads = common.threads == 0 ? mq::util::default_thread_count() : common.threads;
    request.large = large;
    spdlog::info("writing a synthetic store of {} objects (seed {}, {} tenants, {} clients) to {} on {} threads",
                 large.objects, large.seed, large.tenants, large.clients, out_dir, large.threads);
  } else if (!scenario_path.empty()) {
    spdlog::info("writing the store of scenario {} to {}", scenario_path, out_dir);
  }
  if (oplog_large_opt->count() > 0) request.oplog = oplog_large;
  mq::forge::ForgeOutcome outcome;
  if (to_s3) {
    auto uploaded = mq::forge::run_forge_to_s3(request, *destination);
    if (!uploaded.ok()) return mq::tools::fail(k_tool, uploaded.status());
    outcome = std::move(uploaded->forge);
    // A scenario store's one line (a local run prints none: the directory is there to look at).
    if (!outcome.large && !quiet) {
      std::cerr << k_tool << ": wrote " << mq::util::counted(uploaded->upload.objects, "object", "objects") << " ("
                << uploaded->upload.bytes << " B) to " << out_dir << "\n";
    }
  } else {
    auto local = mq::forge::run_forge(request);
    if (!local.ok()) return mq::tools::fail(k_tool, local.status());
    outcome = std::move(local).value();
  }
  if (const auto& summary = outcome.large; summary && !quiet) {
    std::cerr << k_tool << ": wrote " << summary->objects << " objects, " << summary->replicas << " replicas, "
              << summary->segments << " segments, " << summary->non_empty_shards << " shards (metadata "
              << summary->metadata_bytes << " B, segments " << summary->segments_bytes << " B) to " << out_dir << "\n";
  }
  // To s3:// the OpLog tail is written only where --oplog-export / --oplog-etcd say.
  const bool write_tail = !to_s3 || !oplog_export.empty() || !oplog_etcd.empty();
  if (outcome.oplog && write_tail) {
    const std::string export_path = oplog_export.empty() && !to_s3 ? out_dir + "/oplog.jsonl" : oplog_export;
    if (auto s = write_oplog(*outcome.oplog, export_path, oplog_etcd, quiet); !s.ok()) {
      return mq::tools::fail(k_tool, s);
    }
  }
  return mq::tools::k_exit_ok;
}

}  // namespace

int main(int argc, char** argv) {
  // The library returns errors as values; an exception reaching here is a bug: exit 5, not abort
  // (the library's guards have removed a partial store on the way out).
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    return mq::tools::fail(k_tool, mq::util::Status::internal(std::string("unexpected exception: ") + e.what()));
  }
}
