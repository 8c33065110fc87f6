// snapshot-forge: write genuine Mooncake snapshot stores from a readable JSON scenario, or a
// large synthetic store for load tests (docs/cli/snapshot-forge.md).
#include <spdlog/spdlog.h>

#include <iostream>
#include <string>

#include "app/forge_command.hpp"
#include "app/forge_fixture.hpp"
#include "report/golden/golden_report.hpp"
#include "s3_flags.hpp"
#include "store_flags.hpp"
#include "tool_common.hpp"
#include "util/plural.hpp"
#include "util/thread_pool.hpp"

namespace mq = moonquota;

namespace {

constexpr const char* k_tool = "snapshot-forge";

// The one-line summaries on stderr (left out with -q): a large store's counts, a scenario store
// uploaded to s3:// (a local run prints none: the directory is there to look at), the OpLog.
void print_summary(const mq::app::ForgeCommandOutcome& outcome) {
  if (const auto& summary = outcome.large) {
    std::cerr << k_tool << ": wrote " << summary->objects << " objects, " << summary->replicas << " replicas, "
              << summary->segments << " segments, " << summary->non_empty_shards << " shards (metadata "
              << summary->metadata_bytes << " B, segments " << summary->segments_bytes << " B) to " << outcome.out
              << "\n";
  } else if (outcome.upload) {
    std::cerr << k_tool << ": wrote " << mq::util::counted(outcome.upload->objects, "object", "objects") << " ("
              << outcome.upload->bytes << " B) to " << outcome.out << "\n";
  }
  if (const auto& log = outcome.oplog) {
    std::cerr << k_tool << ": wrote an OpLog of " << mq::util::counted(log->entries, "entry", "entries") << " in "
              << log->keys << " keys" << (log->export_path.empty() ? "" : " to " + log->export_path)
              << (log->etcd.empty() ? "" : " and into etcd " + log->etcd) << "\n";
  }
}

int run(int argc, char** argv) {
  CLI::App app{"Write Mooncake master snapshot stores from a JSON scenario, or a large synthetic store"};
  mq::tools::setup_app(app, k_tool,
                       {"with --fixture: the fixture could not be recorded (otherwise never: a writer, 0 or an error)",
                        "a scenario or its JSON", "S3"},
                       "snapshot-forge snapshots/sample/scenario.json --out /tmp/moonquota-sample-store");
  mq::app::ForgeArgs args;
  auto& request = args.request;
  mq::forge::LargeStoreOptions large;
  mq::forge::SyntheticOpLogOptions oplog_large;
  mq::tools::CommonFlags common;  // -v/-q and --threads: no report, so no --format/--output
  auto* scenario_opt =
      app.add_option("scenario", request.scenario_path, "Scenario JSON (docs/formats/forge-scenario.md)");
  auto* out_opt =
      app.add_option("--out", request.out_dir,
                     "Output directory (the store's base directory), or s3://BUCKET[/PREFIX] to upload the store there "
                     "(required unless --fixture)");
  mq::app::ForgeFixtureArgs fixture;
  auto* fixture_opt =
      app.add_option("--fixture", fixture.dir,
                     "Write a snapshot-golden fixture folder instead: DIR/store, DIR/oplog.jsonl (an OpLog tail), "
                     "DIR/args, DIR/scenario.json, then DIR/expected.json and DIR/fingerprint.json recorded")
          ->type_name("DIR")
          ->excludes(out_opt)
          ->needs(scenario_opt);
  app.add_option("--policy", fixture.policy, "With --fixture: the tenant quota policy, copied to DIR/policy.yaml")
      ->type_name("FILE")
      ->needs(fixture_opt);
  app.add_option("--restore-time", fixture.restore_time_ms,
                 "With --fixture: the restore instant (ms) the args file names (default: the latest snapshot's "
                 "created_at_ms)")
      ->type_name("MS")
      ->needs(fixture_opt);
  app.add_flag("--force", request.force,
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
  app.add_option("--segment-bytes", large.segment_bytes,
                 "Segment size of the synthetic store (default 3.75 GiB, node tables never grow); any other size "
                 "lets node tables grow, as a long-running master's do")
      ->needs(large_opt)
      ->check(CLI::Range(mq::forge::k_min_large_segment_bytes, mq::forge::k_max_large_segment_bytes));
  mq::tools::add_threads_option(app, common.threads);
  mq::tools::add_verbosity_flags(app, common);
  mq::tools::add_s3_flags(app, args.s3);
  // A flag that would be ignored is a usage error: --large writes an OpLog only with --oplog-tail
  // (app::run_forge_command says so), and the synthetic OpLog's form and cluster id need
  // --oplog-large.
  mq::forge::LargeTailOptions large_tail;
  auto* large_tail_opt =
      app.add_option("--oplog-tail", large_tail.entries,
                     "With --large N: also write an OpLog tail of M entries that continues the store (a promotion)")
          ->needs(large_opt);
  app.add_option("--oplog-export", args.oplog_export,
                 "Write the OpLog tail (scenario or --oplog-tail) as an export file (default <out>/oplog.jsonl; none "
                 "for s3://)");
  app.add_option("--oplog-etcd", args.oplog_etcd, "Also write the OpLog keys into etcd HOST:PORT (replacing its root)");
  auto* oplog_large_opt = app.add_option("--oplog-large", oplog_large.entries,
                                         "Write a synthetic OpLog of N entries (no snapshot; e.g. 1000000)")
                              ->default_str("");
  app.add_flag("--oplog-type-literal", oplog_large.type_literal, "Synthetic OpLog payloads in the type-literal form")
      ->needs(oplog_large_opt);
  app.add_option("--oplog-cluster-id", oplog_large.cluster_id, "Cluster id of the synthetic OpLog")
      ->needs(oplog_large_opt);
  oplog_large_opt->excludes(scenario_opt)->excludes(large_opt);
  scenario_opt->excludes(large_opt);
  if (int rc = mq::tools::parse_command_line(app, argc, argv); rc >= 0) return rc;
  mq::tools::setup_logging(common);
  args.log = mq::tools::net_log();
  if (fixture_opt->count() > 0) {
    if (!args.oplog_export.empty() || !args.oplog_etcd.empty()) {
      return mq::tools::fail(k_tool, mq::util::Status::invalid_argument(
                                         "--fixture writes the OpLog tail to DIR/oplog.jsonl: drop --oplog-export "
                                         "and --oplog-etcd"));
    }
    fixture.scenario_path = request.scenario_path;
    fixture.force = request.force;
    fixture.threads = common.threads;
    fixture.parse_rebuild_args = mq::tools::parse_rebuild_words;
    fixture.log = args.log;
    auto made = mq::app::run_forge_fixture(fixture);
    if (!made.ok()) return mq::tools::fail(k_tool, made.status());
    if (common.verbosity >= 0) print_summary(made->forged);
    mq::report::render_golden_record(made->recorded.fixtures, std::cout);
    return made->recorded.exit_code;
  }
  if (out_opt->count() == 0) {
    return mq::tools::fail(k_tool, mq::util::Status::invalid_argument("--out is required (or --fixture DIR)"));
  }
  if (large_opt->count() > 0) {
    large.threads = common.threads == 0 ? mq::util::default_thread_count() : common.threads;
    request.large = large;
    if (large_tail_opt->count() > 0) request.large_tail = large_tail;
    spdlog::info("writing a synthetic store of {} objects (seed {}, {} tenants, {} clients) to {} on {} threads",
                 large.objects, large.seed, large.tenants, large.clients, request.out_dir, large.threads);
  } else if (!request.scenario_path.empty()) {
    spdlog::info("writing the store of scenario {} to {}", request.scenario_path, request.out_dir);
  }
  if (oplog_large_opt->count() > 0) request.oplog = oplog_large;
  auto outcome = mq::app::run_forge_command(args);
  if (!outcome.ok()) return mq::tools::fail(k_tool, outcome.status());
  if (common.verbosity >= 0) print_summary(*outcome);
  return mq::tools::k_exit_ok;
}

}  // namespace

// An exception reaching main is a bug: exit 5, not abort (the library's guards have removed a
// partial store on the way out).
int main(int argc, char** argv) { return mq::tools::run_guarded(k_tool, argc, argv, run); }
