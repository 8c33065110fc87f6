#include "app/rebuild_command.hpp"

#include "app/exit_codes.hpp"
#include "reconcile/expected_table_reader.hpp"
#include "util/file_reader.hpp"
#include "util/thread_pool.hpp"

namespace moonquota::app {

namespace {

using util::Status;

Status check_rebuild_path(const RebuildArgs& a, quota::MasterPath path, bool oplog_given) {
  if (path == quota::MasterPath::restore && (oplog_given || a.until_seq)) {
    return Status::invalid_argument("--path restore reads no OpLog: drop --oplog-etcd/--oplog-file/--until-seq");
  }
  if (path == quota::MasterPath::promote && !oplog_given) {
    return Status::invalid_argument("--path promote needs --oplog-etcd or --oplog-file");
  }
  return {};
}

}  // namespace

util::NetConfig net_config_of(const RebuildArgs& a) {
  util::NetConfig net;
  net.read_timeout_ms = a.timeout_ms;
  net.connect_timeout_ms = a.connect_timeout_ms.value_or(a.timeout_ms);
  net.log = a.net_log;
  return net;
}

util::Result<RebuildPlan> plan_rebuild(const RebuildArgs& a) {
  RebuildPlan plan;
  auto& r = plan.request;
  r.oplog.etcd = a.oplog_etcd;
  r.oplog.file = a.oplog_file;
  if (!r.oplog.etcd.empty() && !r.oplog.file.empty()) {
    return Status::invalid_argument("--oplog-etcd and --oplog-file exclude each other");
  }
  const bool oplog_given = r.oplog.given();
  if (a.path && *a.path != "restore" && *a.path != "promote") {
    return Status::invalid_argument("--path '" + *a.path + "' is not restore or promote");
  }
  r.path = a.path.value_or(oplog_given ? "promote" : "restore") == "promote" ? quota::MasterPath::promote
                                                                             : quota::MasterPath::restore;
  MQ_RETURN_IF_ERROR(check_rebuild_path(a, r.path, oplog_given));
  StoreRules rules;
  rules.source_required = r.path == quota::MasterPath::restore;
  rules.cluster_names_oplog = oplog_given;
  MQ_ASSIGN_OR_RETURN(plan.store, resolve_store_args(a.store, rules, a.net_log));
  for (const auto& [value, flag] : {std::pair{&a.policy, "--policy"}, std::pair{&a.policy_etcd, "--policy-etcd"}}) {
    if (*value && (*value)->empty()) return Status::invalid_argument(std::string(flag) + ": value must not be empty");
  }
  if (a.policy && a.policy_etcd) return Status::invalid_argument("--policy and --policy-etcd exclude each other");
  r.policy_file = a.policy;
  r.policy_etcd = a.policy_etcd;
  if (a.until_seq) r.replay.until_seq = *a.until_seq;
  if (a.expect && a.expect->empty()) return Status::invalid_argument("--expect: value must not be empty");
  plan.expect_file = a.expect;
  if (a.explain) {
    if (a.explain->empty()) return Status::invalid_argument("--explain: value must not be empty");
    if (r.path == quota::MasterPath::promote) {
      return Status::invalid_argument(
          "--explain reads the restored snapshot: the restore path only (the promote path's objects come from the "
          "OpLog replay)");
    }
    if (a.explain_top == 0 || a.explain_top > restore::k_max_explain_top) {
      return Status::invalid_argument("--explain-top must be 1 .. " + std::to_string(restore::k_max_explain_top));
    }
    r.explain = a.explain;
    r.explain_top = a.explain_top;
  }
  const std::string capacity = a.capacity.value_or(r.path == quota::MasterPath::promote ? "failover" : "auto");
  MQ_ASSIGN_OR_RETURN(r.capacity, quota::parse_capacity(capacity));
  auto lease_model = restore::parse_lease_model(a.lease_model);
  if (!lease_model) return Status::invalid_argument("--lease-model '" + a.lease_model + "' is not upstream or keep");
  r.restore.lease_model = *lease_model;
  r.restore.restore_time_ms = plan.store.restore_time_ms;
  if (plan.store.max_payload_bytes) r.restore.max_payload_bytes = *plan.store.max_payload_bytes;
  r.restore.fixed_master = a.fixed_master;
  r.restore.threads = a.threads == 0 ? util::default_thread_count() : a.threads;
  plan.net = net_config_of(a);
  plan.store.selection.net = plan.net;
  r.selection = plan.store.selection;
  r.oplog.net = plan.net;
  return plan;
}

util::Result<RebuildOutcome> run_rebuild_command(const RebuildPlan& plan) {
  const auto store = open_selected_store(plan.store);
  MQ_ASSIGN_OR_RETURN(quota::RebuildResult result, quota::run_rebuild(*store, plan.request));
  if (plan.expect_file) {
    auto text = util::read_small_file(*plan.expect_file, quota::k_max_expected_file_bytes);
    if (!text.ok()) return text.status().with_context("--expect");
    MQ_ASSIGN_OR_RETURN(const quota::ExpectedTable expected, reconcile::parse_expected_table(*text, *plan.expect_file));
    result.expect = quota::compare_with_expected(result.table, expected);
    result.expect_file = *plan.expect_file;
  }
  RebuildOutcome outcome;
  const bool differs = result.expect && !result.expect->matches();
  outcome.exit_code = result.starts_empty() || differs ? k_exit_found : k_exit_ok;
  outcome.result = std::move(result);
  return outcome;
}

}  // namespace moonquota::app
