#include "app/inspect_command.hpp"

#include <charconv>

#include "app/exit_codes.hpp"
#include "model/enums.hpp"
#include "util/file_reader.hpp"
#include "util/thread_pool.hpp"

namespace moonquota::app {

namespace {

using util::Status;

util::Result<std::int64_t> parse_enum_arg(const std::string& text, const char* flag, const model::EnumTable& names) {
  if (auto value = names.parse(text)) return *value;
  std::int64_t number = 0;
  const char* end = text.data() + text.size();
  if (!text.empty()) {
    const auto [ptr, ec] = std::from_chars(text.data(), end, number);
    if (ec == std::errc() && ptr == end) return number;
  }
  return Status::invalid_argument(std::string(flag) + " '" + text + "' is not a known name or a number");
}

util::Result<inspect::ObjectFilter> object_filter(const ObjectFilterArgs& f) {
  inspect::ObjectFilter filter;
  filter.tenant_id = f.tenant;
  filter.key_prefix = f.key_prefix.value_or("");
  filter.min_size = f.min_size;
  filter.group_id = f.group;
  if (f.replica_type) {
    MQ_ASSIGN_OR_RETURN(std::int64_t t,
                        parse_enum_arg(*f.replica_type, "--replica-type", model::replica_type::k_table));
    filter.replica_type = static_cast<std::int8_t>(t);
  }
  if (f.status) {
    MQ_ASSIGN_OR_RETURN(std::int64_t s, parse_enum_arg(*f.status, "--status", model::replica_status::k_table));
    filter.status = static_cast<std::int16_t>(s);
  }
  return filter;
}

// diff's two snapshots: two ids of one store, or up to two (default latest) with --other-store.
Status plan_diff(const InspectArgs& a, report::InspectRequest& r) {
  if (r.selection.store_dir.empty())
    return Status::invalid_argument("diff needs --store (and --other-store for two stores)");
  const auto& ids = a.ids;
  if (!a.other_store.empty()) {
    if (ids.size() > 2) return Status::invalid_argument("diff takes at most two ids");
    r.snapshot_a = ids.empty() ? "latest" : ids[0];
    r.snapshot_b = ids.size() < 2 ? "latest" : ids[1];
    return {};
  }
  if (ids.size() != 2) return Status::invalid_argument("diff --store DIR needs two snapshot ids: ID_A ID_B");
  r.snapshot_a = ids[0];
  r.snapshot_b = ids[1];
  return {};
}

// survival's flags, before anything is read: the points, the lease model, and --path against the
// OpLog flags (a standby bootstraps from the catalog's latest snapshot only).
Status plan_survival(const InspectArgs& a, report::InspectRequest& r) {
  const auto lease_model = restore::parse_lease_model(a.lease_model);
  if (!lease_model) return Status::invalid_argument("--lease-model '" + a.lease_model + "' is not upstream or keep");
  r.lease_model = *lease_model;
  r.oplog.etcd = a.oplog_etcd;
  r.oplog.file = a.oplog_file;
  r.until_seq = a.until_seq;
  if (a.path == "restore") {
    if (r.oplog.given() || a.until_seq) {
      return Status::invalid_argument(
          "--path restore reads no OpLog: drop --oplog-etcd/--oplog-file/--until-seq, or use --path promote");
    }
  } else if (a.path == "promote") {
    if (!r.oplog.given()) return Status::invalid_argument("--path promote needs --oplog-etcd or --oplog-file");
    if (a.store.snapshot && *a.store.snapshot != "latest" && !a.store.snapshot->empty()) {
      return Status::invalid_argument("--snapshot " + *a.store.snapshot +
                                      ": a standby bootstraps from the catalog's latest snapshot only (no fallback); "
                                      "drop --snapshot, or give that snapshot's directory with --snapshot-dir");
    }
    r.promote = true;
  } else {
    return Status::invalid_argument("--path '" + a.path + "' is not restore or promote");
  }
  if (a.at_file.empty()) {
    MQ_ASSIGN_OR_RETURN(r.points, inspect::parse_survival_points(a.at));
    return {};
  }
  auto text = util::read_small_file(a.at_file, inspect::k_max_survival_points_file_bytes);
  if (!text.ok()) return text.status().with_context("--at-file");
  MQ_ASSIGN_OR_RETURN(r.points, inspect::parse_survival_points_file(*text, a.at_file));
  return {};
}

// The flags of the command given.
Status plan_command(const InspectArgs& a, report::InspectRequest& r) {
  switch (r.command) {
    case report::InspectCommand::objects: {
      MQ_ASSIGN_OR_RETURN(r.filter, object_filter(a.filter));
      return {};
    }
    case report::InspectCommand::diff: return plan_diff(a, r);
    case report::InspectCommand::survival: return plan_survival(a, r);
    default: return {};
  }
}

}  // namespace

util::Result<InspectPlan> plan_inspect(const InspectArgs& args) {
  InspectPlan plan;
  auto& r = plan.request;
  const auto command = report::parse_inspect_command(args.command);
  if (!command) return Status::invalid_argument("unknown command '" + args.command + "'");
  r.command = *command;
  StoreRules rules;
  rules.cluster_names_oplog = r.command == report::InspectCommand::survival && args.path == "promote";
  MQ_ASSIGN_OR_RETURN(plan.store, resolve_store_args(args.store, rules, args.net_log));
  if (args.format == report::OutputFormat::html && r.command != report::InspectCommand::survival) {
    return Status::invalid_argument("--format html is offered by survival only");
  }
  if (r.command == report::InspectCommand::fingerprint && args.format != report::OutputFormat::text &&
      args.format != report::OutputFormat::json) {
    return Status::invalid_argument("fingerprint writes --format text or json only");
  }
  r.format = args.format;
  r.selection = plan.store.selection;
  r.restore_time_ms = plan.store.restore_time_ms;
  if (plan.store.max_payload_bytes) r.max_payload_bytes = *plan.store.max_payload_bytes;
  r.threads = args.threads == 0 ? util::default_thread_count() : args.threads;
  r.limit = args.limit;
  r.biggest = args.biggest;
  r.top_what = args.top_what == "tenants" ? report::TopWhat::tenants : report::TopWhat::objects;
  r.top_by = args.top_by == "charge" ? inspect::RankBy::charge : inspect::RankBy::size;
  r.top_n = args.top_n;
  r.max_findings = args.max_findings;
  r.temp_dir = args.temp_dir;
  r.other_store = args.other_store;
  MQ_RETURN_IF_ERROR(resolve_store_location(r.other_store, plan.store.s3));
  MQ_RETURN_IF_ERROR(plan_command(args, r));
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
