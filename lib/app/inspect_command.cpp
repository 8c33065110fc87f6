#include "app/inspect_command.hpp"

#include "app/exit_codes.hpp"
#include "util/thread_pool.hpp"

namespace moonquota::app {

util::Result<InspectPlan> plan_inspect(const InspectArgs& args) {
  InspectPlan plan;
  plan.request = args.request;
  auto& r = plan.request;
  const auto command = report::parse_inspect_command(args.command);
  if (!command) return util::Status::invalid_argument("unknown command '" + args.command + "'");
  r.command = *command;
  StoreRules rules;
  rules.cluster_names_oplog = r.command == report::InspectCommand::survival && r.path == "promote";
  MQ_ASSIGN_OR_RETURN(plan.store, resolve_store_args(args.store, rules, args.net_log));
  const auto format = report::parse_output_format(args.format);
  if (!format) return util::Status::invalid_argument("--format '" + args.format + "' is not a report format");
  if (*format == report::OutputFormat::html && r.command != report::InspectCommand::survival) {
    return util::Status::invalid_argument("--format html is offered by survival only");
  }
  r.format = *format;
  MQ_RETURN_IF_ERROR(resolve_store_location(r.other_store, plan.store.s3));
  r.selection = plan.store.selection;
  r.restore_time_ms = plan.store.restore_time_ms;
  if (plan.store.max_payload_bytes) r.max_payload_bytes = *plan.store.max_payload_bytes;
  r.threads = args.threads == 0 ? util::default_thread_count() : args.threads;
  r.oplog.net.log = args.net_log;
  return plan;
}

util::Result<InspectCommandOutcome> run_inspect_command(const InspectPlan& plan, std::ostream& out) {
  const auto store = open_selected_store(plan.store);
  const auto other = plan.request.other_store.empty() ? nullptr : open_store(plan.request.other_store, plan.store.s3);
  MQ_ASSIGN_OR_RETURN(report::InspectOutcome ran, report::run_inspect({*store, other.get()}, plan.request, out));
  InspectCommandOutcome outcome;
  outcome.exit_code = ran.found ? k_exit_found : k_exit_ok;
  outcome.spilled_bytes = ran.spilled_bytes;
  return outcome;
}

}  // namespace moonquota::app
