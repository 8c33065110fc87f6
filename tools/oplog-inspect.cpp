// oplog-inspect: offline inspection of a Mooncake HA OpLog (etcd or an export file): verify,
// summary, dump, export (app/oplog_command.hpp says what each does).
#include "app/oplog_command.hpp"
#include "tool_common.hpp"

namespace mq = moonquota;

namespace {

constexpr const char* k_tool = "oplog-inspect";

int run(int argc, char** argv) {
  CLI::App app{"Inspect a Mooncake HA OpLog: verify | summary | dump | export"};
  mq::tools::setup_app(
      app, k_tool, {"verify or summary: a rule is broken", "an OpLog export or etcd key", "etcd"},
      "oplog-inspect dump --oplog-file snapshots/promote-worked/oplog.jsonl --cluster-id prod-a --tenant tenant-b");
  mq::tools::CommonFlags common;
  mq::app::OpLogArgs args;
  app.add_option("command", args.command, "verify | summary | dump | export")
      ->required()
      ->check(CLI::IsMember({"verify", "summary", "dump", "export"}));
  app.add_option("--cluster-id", args.cluster_id, "Cluster id");
  app.add_option("--oplog-etcd", args.oplog_etcd, "Read the OpLog from etcd HOST:PORT");
  app.add_option("--oplog-file", args.oplog_file, "Read the OpLog from an export file (excludes --oplog-etcd)");
  app.add_option("--from-batch", args.filter.from_batch, "dump: first batch id")->default_str("first");
  app.add_option("--to-batch", args.filter.to_batch, "dump: last batch id")->default_str("last");
  app.add_option("--tenant", args.filter.tenant, "dump: only this tenant");
  app.add_option("--key-prefix", args.filter.key_prefix, "dump: only keys with this prefix");
  mq::tools::add_common_flags(app, common, {"text", "json"});
  if (int rc = mq::tools::parse_command_line(app, argc, argv); rc >= 0) return rc;
  mq::tools::setup_logging(common);
  if (app.get_option("--format")->count() > 0) args.format = mq::tools::output_format(common);
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
