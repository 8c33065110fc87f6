#include "app/oplog_command.hpp"

#include "app/exit_codes.hpp"
#include "report/inspect/oplog_inspect_report.hpp"

namespace moonquota::app {

namespace {

using util::Status;

std::optional<OpLogCommand> parse_oplog_command(const std::string& name) {
  if (name == "verify") return OpLogCommand::verify;
  if (name == "summary") return OpLogCommand::summary;
  if (name == "dump") return OpLogCommand::dump;
  if (name == "export") return OpLogCommand::export_keys;
  return std::nullopt;
}

// The first of dump's filters given.
const char* first_dump_filter(const inspect::DumpFilter& f) {
  if (f.from_batch) return "--from-batch";
  if (f.to_batch) return "--to-batch";
  if (f.tenant) return "--tenant";
  if (f.key_prefix) return "--key-prefix";
  return nullptr;
}

}  // namespace

util::Result<OpLogPlan> plan_oplog(const OpLogArgs& a) {
  OpLogPlan plan;
  const auto command = parse_oplog_command(a.command);
  if (!command)
    return Status::invalid_argument("unknown command '" + a.command + "' (verify | summary | dump | export)");
  plan.command = *command;
  if (!a.oplog_etcd.empty() && !a.oplog_file.empty()) {
    return Status::invalid_argument("--oplog-etcd and --oplog-file exclude each other");
  }
  plan.oplog.etcd = a.oplog_etcd;
  plan.oplog.file = a.oplog_file;
  plan.oplog.net.log = a.net_log;
  if (!plan.oplog.given()) return Status::invalid_argument("one of --oplog-etcd or --oplog-file is required");
  if (const char* filter = first_dump_filter(a.filter); filter != nullptr && plan.command != OpLogCommand::dump) {
    return Status::invalid_argument(std::string(filter) + " filters dump only; " + a.command + " reads every entry");
  }
  const bool streams = plan.command == OpLogCommand::dump || plan.command == OpLogCommand::export_keys;
  if (streams && a.format) {
    return Status::invalid_argument(
        "--format shapes verify and summary only: " + a.command + " always writes " +
        (plan.command == OpLogCommand::dump ? "NDJSON, one object an entry" : "export lines {\"key\", \"value\"}") +
        " (drop --format)");
  }
  plan.format = a.format.value_or(report::OutputFormat::text);
  plan.cluster_id = a.cluster_id;
  plan.filter = a.filter;
  return plan;
}

util::Result<int> run_oplog_command(const OpLogPlan& plan, std::ostream& out) {
  source::OpLogReadLimits limits;
  limits.keep_values = plan.command != OpLogCommand::summary;  // summary reads each value again when it needs it
  MQ_ASSIGN_OR_RETURN(const source::OpLogKeySet keys, source::read_oplog(plan.oplog, plan.cluster_id, limits));
  switch (plan.command) {
    case OpLogCommand::verify: {
      const auto audit = inspect::audit_oplog(keys);
      report::render_oplog_audit(audit, plan.cluster_id, plan.format, out);
      return audit.ok ? k_exit_ok : k_exit_found;
    }
    case OpLogCommand::summary: {
      MQ_ASSIGN_OR_RETURN(const auto summary, inspect::summarize_oplog(keys));
      report::render_oplog_summary(summary, plan.format, out);
      // A failed replay, or a state the promotion validation refuses, is not ok (as in quota-rebuild).
      return summary.promotion_checked && summary.state.ok ? k_exit_ok : k_exit_found;
    }
    case OpLogCommand::dump:
      MQ_RETURN_IF_ERROR(inspect::dump_oplog(
          keys, plan.filter, [&](const inspect::DumpedEntry& e) { report::render_oplog_dump_entry(e, out); }));
      return k_exit_ok;
    case OpLogCommand::export_keys: {
      MQ_ASSIGN_OR_RETURN(const std::string lines, source::format_oplog_export(keys.kvs));
      out << lines;
      return k_exit_ok;
    }
  }
  return k_exit_internal;
}

}  // namespace moonquota::app
