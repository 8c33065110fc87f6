// oplog-inspect: offline inspection of a Mooncake HA OpLog (etcd or an export file).
//   verify  every auditor rule; exit 1 when not ok
//   summary sequence range, batches, entries per op type and tenant, the replayed state; exit 1
//           when the replay from sequence 1 fails or the promotion validation refuses its state
//   dump    one JSON object per entry with its decoded payload (--from-batch/--to-batch/--tenant/--key-prefix)
//   export  the keys under /oplog/<cluster_id>/ as export lines
#include "inspect/oplog_inspect.hpp"
#include "report/inspect/oplog_inspect_report.hpp"
#include "source/oplog_source.hpp"
#include "tool_common.hpp"

namespace mq = moonquota;
using mq::util::Status;

int main(int argc, char** argv) {
  CLI::App app{"Inspect a Mooncake HA OpLog: verify | summary | dump | export"};
  mq::tools::setup_app(app, "oplog-inspect", "verify: a rule is broken",
                       "oplog-inspect verify --oplog-file testdata/oplog/worked-batch.jsonl --cluster-id prod-a");
  mq::tools::CommonFlags common;
  std::string command;
  std::string cluster_id = "mooncake_cluster";
  mq::source::OpLogSelection oplog;
  mq::inspect::DumpFilter filter;
  std::uint64_t from_batch = 0, to_batch = 0;
  std::string tenant, key_prefix;
  app.add_option("command", command, "verify | summary | dump | export")
      ->required()
      ->check(CLI::IsMember({"verify", "summary", "dump", "export"}));
  app.add_option("--cluster-id", cluster_id, "Cluster id");
  auto* etcd = app.add_option("--oplog-etcd", oplog.etcd, "Read the OpLog from etcd HOST:PORT");
  app.add_option("--oplog-file", oplog.file, "Read the OpLog from an export file")->excludes(etcd);
  auto* from = app.add_option("--from-batch", from_batch, "dump: first batch id")->default_str("first");
  auto* to = app.add_option("--to-batch", to_batch, "dump: last batch id")->default_str("last");
  auto* tenant_opt = app.add_option("--tenant", tenant, "dump: only this tenant");
  auto* prefix_opt = app.add_option("--key-prefix", key_prefix, "dump: only keys with this prefix");
  mq::tools::add_common_flags(app, common, {"text", "json"});
  if (int rc = mq::tools::parse_command_line(app, argc, argv); rc >= 0) return rc;
  mq::tools::setup_logging(common);
  if (!oplog.given())
    return mq::tools::fail("oplog-inspect",
                           Status::invalid_argument("one of --oplog-etcd or --oplog-file is required"));
  if (command != "dump") {
    const std::string ignored = mq::tools::first_given({from, to, tenant_opt, prefix_opt});
    if (!ignored.empty()) {
      return mq::tools::fail(
          "oplog-inspect", Status::invalid_argument(ignored + " filters dump only; " + command + " reads every entry"));
    }
  }
  if ((command == "dump" || command == "export") && app.get_option("--format")->count() > 0) {
    return mq::tools::fail(
        "oplog-inspect", Status::invalid_argument(
                             "--format shapes verify and summary only: " + command + " always writes " +
                             (command == "dump" ? "NDJSON, one object an entry" : "export lines {\"key\", \"value\"}") +
                             " (drop --format)"));
  }
  if (from->count() > 0) filter.from_batch = from_batch;
  if (to->count() > 0) filter.to_batch = to_batch;
  if (tenant_opt->count() > 0) filter.tenant = tenant;
  if (prefix_opt->count() > 0) filter.key_prefix = key_prefix;

  mq::source::OpLogReadLimits limits;
  limits.keep_values = command != "summary";  // summary reads each value again from the file when it needs it
  auto keys = mq::source::read_oplog(oplog, cluster_id, limits);
  if (!keys.ok()) return mq::tools::fail("oplog-inspect", keys.status());
  const auto format = mq::tools::output_format(common);
  int rc = mq::tools::k_exit_ok;
  auto write = [&](std::ostream& out) -> Status {
    if (command == "verify") {
      auto audit = mq::inspect::audit_oplog(*keys);
      mq::report::render_oplog_audit(audit, cluster_id, format, out);
      rc = audit.ok ? mq::tools::k_exit_ok : mq::tools::k_exit_found;
      return {};
    }
    if (command == "summary") {
      MQ_ASSIGN_OR_RETURN(auto summary, mq::inspect::summarize_oplog(*keys));
      mq::report::render_oplog_summary(summary, format, out);
      // A failed replay, or a state the promotion validation refuses, is not ok (as in quota-rebuild).
      rc = summary.promotion_checked && summary.state.ok ? mq::tools::k_exit_ok : mq::tools::k_exit_found;
      return {};
    }
    if (command == "dump") {
      return mq::inspect::dump_oplog(
          *keys, filter, [&](const mq::inspect::DumpedEntry& e) { mq::report::render_oplog_dump_entry(e, out); });
    }
    MQ_ASSIGN_OR_RETURN(std::string lines, mq::source::format_oplog_export(keys->kvs));
    out << lines;
    return {};
  };
  if (auto s = mq::tools::emit_report(common, write); !s.ok()) return mq::tools::fail("oplog-inspect", s);
  return rc;
}
