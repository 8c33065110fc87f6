#include "app/plan_command.hpp"

#include <charconv>

#include "app/exit_codes.hpp"
#include "format/policy_yaml.hpp"
#include "util/elapsed.hpp"
#include "util/text_encoding.hpp"

namespace moonquota::app {

namespace {

using util::Status;

util::Result<std::map<std::string, std::uint64_t>> adoptions(const std::vector<std::string>& given) {
  std::map<std::string, std::uint64_t> out;
  for (const auto& a : given) {
    const auto eq = a.rfind('=');
    std::uint64_t bytes = 0;
    const char* end = a.data() + a.size();
    const auto parsed = eq == std::string::npos ? std::from_chars_result{a.data(), std::errc::invalid_argument}
                                                : std::from_chars(a.data() + eq + 1, end, bytes);
    if (eq == std::string::npos || eq == 0 || eq + 1 == a.size() || parsed.ec != std::errc() || parsed.ptr != end) {
      return Status::invalid_argument("--adopt '" + util::printable(a) + "': expected TENANT=BYTES (a decimal count)");
    }
    if (!out.emplace(a.substr(0, eq), bytes).second) {
      return Status::invalid_argument("--adopt names '" + util::printable(a.substr(0, eq)) + "' twice");
    }
  }
  return out;
}

// What a restart now would serve per tenant: the same metadata under the restore model at now.
util::Result<reconcile::RestartPrediction> restart_prediction(source::ObjectStore& store, const AuditPlan& plan) {
  quota::RebuildRequest request = plan.config.request.metadata;
  request.restore.charge_model = restore::ChargeModel::restore;
  request.restore.lease_model = restore::LeaseModel::upstream;
  request.restore.restore_time_ms = util::epoch_ms_now();
  request.explain.reset();
  MQ_ASSIGN_OR_RETURN(const quota::RebuildResult rebuilt, quota::run_rebuild(store, request));
  reconcile::RestartPrediction out;
  for (const auto& row : rebuilt.table.rows) out[row.tenant_id].charged_bytes = row.charged_bytes;
  for (const auto& [tenant, drops] : rebuilt.drops.tenants) out[tenant].lease_dropped_bytes = drops.lease_expired.bytes;
  return out;
}

}  // namespace

util::Result<PlanOutcome> run_plan(const PlanArgs& a) {
  reconcile::PlanOptions options;
  MQ_ASSIGN_OR_RETURN(options.adopt, adoptions(a.adopt));
  if (a.adopt_policy) {
    MQ_ASSIGN_OR_RETURN(const format::TenantQuotaPolicy policy, format::load_policy_file(*a.adopt_policy));
    options.adopt_policy = policy.quotas;
  }
  options.retire_empty = a.retire_empty;
  options.allow_purge.insert(a.allow_purge.begin(), a.allow_purge.end());
  MQ_ASSIGN_OR_RETURN(const AuditPlan plan, plan_audit(a.audit));
  const auto store = open_selected_store(plan.store);
  const RunOutcome audited = run_audit(*store, plan.config);
  if (!audited.audit || audited.result == RunResult::error) {
    const util::StatusCode code = audited.exit_code == k_exit_usage      ? util::StatusCode::invalid_argument
                                  : audited.exit_code == k_exit_service  ? util::StatusCode::unavailable
                                  : audited.exit_code == k_exit_internal ? util::StatusCode::internal
                                                                         : util::StatusCode::corruption;
    return Status(code, "the audit failed, so there is no plan: " + audited.error);
  }
  const auto& report = audited.audit->report;
  bool restarts = false;
  for (const auto& d : report.tenants) restarts = restarts || (d.live && !d.unexplained_within_tolerance);
  std::optional<reconcile::RestartPrediction> restart;
  if (restarts) { MQ_ASSIGN_OR_RETURN(restart, restart_prediction(*store, plan)); }
  PlanOutcome out;
  MQ_ASSIGN_OR_RETURN(out.plan, reconcile::build_plan(report, options, restart ? &*restart : nullptr, a.cluster,
                                                      audited.audit->run_at_ms));
  out.exit_code = out.plan.steps.empty() ? 0 : 1;
  return out;
}

}  // namespace moonquota::app
