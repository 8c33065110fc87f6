// oplog-inspect: offline inspection of a Mooncake HA OpLog (etcd or an export file): verify,
// summary, dump, export (app/oplog_command.hpp says what each does).
#include <sstream>
#include "app/lag_command.hpp"
#include "app/oplog_command.hpp"

#include "report/lag_prom.hpp"
#include "report/lag_report.hpp"
#include "s3_flags.hpp"
#include "tool_common.hpp"
#include "util/elapsed.hpp"

namespace mq = moonquota;

namespace {

constexpr const char* k_tool = "oplog-inspect";

int run(int argc, char** argv) {
  CLI::App app{"Inspect a Mooncake HA OpLog: verify | summary | dump | export | lag"};
  mq::tools::setup_app(
      app, k_tool,
      {"verify or summary: a rule is broken; lag: a --max-* gate is exceeded or its window unknown",
       "an OpLog export or etcd key, a store or a saved /metrics", "etcd, S3 or a master's /metrics"},
      "oplog-inspect dump --oplog-file snapshots/promote-worked/oplog.jsonl --cluster-id prod-a --tenant tenant-b");
  mq::tools::CommonFlags common;
  mq::app::OpLogArgs args;
  app.add_option("command", args.command, "verify | summary | dump | export | lag")
      ->required()
      ->check(CLI::IsMember({"verify", "summary", "dump", "export", "lag"}));
  app.add_option("--cluster-id", args.cluster_id, "Cluster id");
  app.add_option("--oplog-etcd", args.oplog_etcd, "Read the OpLog from etcd HOST:PORT");
  app.add_option("--oplog-file", args.oplog_file, "Read the OpLog from an export file (excludes --oplog-etcd)");
  app.add_option("--from-batch", args.filter.from_batch, "dump: first batch id")->default_str("first");
  app.add_option("--to-batch", args.filter.to_batch, "dump: last batch id")->default_str("last");
  app.add_option("--tenant", args.filter.tenant, "dump: only this tenant");
  app.add_option("--key-prefix", args.filter.key_prefix, "dump: only keys with this prefix");
  // lag: the positions of a failover (app/lag_command.hpp)
  mq::app::LagArgs lag;
  std::string lag_cluster;
  std::vector<CLI::Option*> lag_only = {
      app.add_option("--store", lag.store.store, "lag: the snapshot store (S: the latest snapshot's sequence)"),
      app.add_option("--snapshot-dir", lag.store.snapshot_dir, "lag: one snapshot directory instead of a store"),
      app.add_option("--standby", lag.standby, "lag: the standby's admin URL (A: its applied sequence)"),
      app.add_option("--standby-metrics", lag.standby_metrics, "lag: a saved /metrics of the standby"),
      app.add_option("--primary", lag.primary, "lag: the primary's admin URL (P, in a perf-metrics build)"),
      app.add_option("--primary-metrics", lag.primary_metrics, "lag: a saved /metrics of the primary"),
      app.add_option("--max-catch-up-entries", lag.gates.max_catch_up_entries,
                     "lag: exit 1 when the standby is more entries than this behind the durable prefix"),
      app.add_option("--max-catch-up-seconds", lag.gates.max_catch_up_seconds,
                     "lag: exit 1 when the standby applied the durable position of more than this many seconds ago "
                     "(needs --db)"),
      app.add_option("--db", lag.db, "lag: history store (RocksDB directory): record this reading, tell seconds")
          ->check([](const std::string& v) { return v.empty() ? std::string("must not be empty") : std::string(); }),
      app.add_option("--cluster", lag_cluster,
                     "lag: the cluster label of the Prometheus series (default: --cluster-id)")
          ->check([](const std::string& v) { return v.empty() ? std::string("must not be empty") : std::string(); }),
      app.add_option("--sampled-at", lag.sampled_at_ms,
                     "lag: when saved inputs were read (ms since the epoch; default now; files only)")
          ->transform(mq::tools::epoch_ms_check()),
      app.add_option("--max-snapshot-gap-entries", lag.gates.max_snapshot_gap_entries,
                     "lag: exit 1 when the latest snapshot is more entries than this behind the durable prefix"),
      app.add_option("--timeout-ms", lag.timeout_ms, "lag: connect and read timeout of etcd and the masters"),
      app.add_option("--restore-time", lag.store.restore_time,
                     "lag: the standby's bootstrap instant for the per-tenant windows (now | +DELAY | MS; default now)")
          ->type_name("TIME")};
  mq::tools::add_s3_flags(app, lag.store.s3);
  mq::tools::add_common_flags(app, common, {"text", "json", "prom"});
  if (int rc = mq::tools::parse_command_line(app, argc, argv); rc >= 0) return rc;
  mq::tools::setup_logging(common);
  if (args.command == "lag") {
    lag.cluster_id = args.cluster_id;
    lag.oplog_etcd = args.oplog_etcd;
    lag.oplog_file = args.oplog_file;
    lag.net_log = mq::tools::net_log();
    const auto format = mq::tools::output_format(common);
    const std::string cluster = mq::tools::cluster_label(app);
    auto outcome = mq::app::run_lag(lag);
    if (!outcome.ok()) {
      // With --format prom a failed reading is a textfile too, so the sampling alert fires.
      return mq::tools::fail_with_report(k_tool, common, outcome.status(), [&](int rc, const std::string& message) {
        std::ostringstream text;
        mq::report::render_lag_prom_failure(lag.sampled_at_ms.value_or(mq::util::epoch_ms_now()), rc, message, cluster,
                                            text);
        return text.str();
      });
    }
    auto written = mq::tools::emit_report(common, [&](std::ostream& out) {
      if (format == mq::report::OutputFormat::prom) {
        mq::report::render_lag_prom(outcome->report, cluster, out);
      } else {
        mq::report::render_lag(outcome->report, format, out);
      }
      return mq::util::Status{};
    });
    if (!written.ok()) return mq::tools::fail(k_tool, written);
    return outcome->exit_code;
  }
  for (const auto* option : lag_only) {
    if (option->count() > 0) {
      return mq::tools::fail(k_tool, mq::util::Status::invalid_argument(option->get_name() + " is lag's flag"));
    }
  }
  if (app.get_option("--format")->count() > 0) args.format = mq::tools::output_format(common);
  if (args.format == mq::report::OutputFormat::prom) {
    return mq::tools::fail(
        k_tool, mq::util::Status::invalid_argument("--format prom is lag's: " + args.command + " writes text or json"));
  }
  args.net_log = mq::tools::net_log();
  auto plan = mq::app::plan_oplog(args);
  if (!plan.ok()) return mq::tools::fail(k_tool, plan.status());
  int rc = mq::tools::k_exit_ok;
  auto written = mq::tools::emit_report(common, [&](std::ostream& out) -> mq::util::Status {
    MQ_ASSIGN_OR_RETURN(rc, mq::app::run_oplog_command(*plan, out));
    return {};
  });
  if (!written.ok()) return mq::tools::fail(k_tool, written);
  return rc;
}

}  // namespace

int main(int argc, char** argv) { return mq::tools::run_guarded(k_tool, argc, argv, run); }
