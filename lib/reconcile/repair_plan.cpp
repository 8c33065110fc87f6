#include "reconcile/repair_plan.hpp"

#include <limits>

#include "util/text_encoding.hpp"

namespace moonquota::reconcile {

namespace {

using util::Status;

constexpr std::uint64_t k_max_quota = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());

StepEvidence evidence_of(const TenantDiff& d) {
  StepEvidence e;
  e.verdict = verdict_name(d.verdict);
  e.expected_charged_bytes = d.expected_charged_bytes;
  e.live_charged_bytes = d.live_charged_bytes;
  e.delta_bytes = d.delta_bytes;
  e.unexplained_bytes = d.unexplained_bytes;
  e.metadata_objects = d.expected ? d.expected->object_count : 0;
  if (d.live) {
    e.live_has_explicit_policy = d.live->last.has_explicit_policy;
    e.live_admission_closed = d.live->last.admission_closed;
    e.live_requested_quota_bytes = d.live->last.requested_quota_bytes;
  }
  return e;
}

bool live_orphan(const TenantDiff& d) {
  return d.live && !d.live->last.has_explicit_policy && d.live->last.charged_bytes > 0;
}

Status check_quota(const std::string& tenant, std::uint64_t bytes, const char* flag) {
  if (bytes >= 1 && bytes <= k_max_quota) return {};
  return Status::invalid_argument(std::string(flag) + " '" + util::printable(tenant) + "': a quota of " +
                                  std::to_string(bytes) + " bytes is outside [1, 2^63-1] (the master refuses it)");
}

// adopt-orphan for `d`, when the operator gave its quota; else a note.
void plan_adoption(const TenantDiff& d, const PlanOptions& o, std::uint64_t tolerance, RepairPlan& plan) {
  const std::string shown = "'" + util::printable(d.tenant_id) + "'";
  std::optional<std::uint64_t> quota;
  std::string from;
  if (auto it = o.adopt.find(d.tenant_id); it != o.adopt.end()) {
    quota = it->second;
    from = "--adopt";
  } else if (auto p = o.adopt_policy.find(d.tenant_id); p != o.adopt_policy.end()) {
    quota = p->second;
    from = "--adopt-policy";
  }
  if (!quota) {
    plan.notes.push_back(shown + " is an orphan (" + std::to_string(d.live_charged_bytes) +
                         " bytes charged, no policy, admission closed): no step, its quota is not guessed; give "
                         "--adopt " +
                         util::printable(d.tenant_id) + "=BYTES or --adopt-policy FILE");
    return;
  }
  PlanStep s;
  s.action = RepairAction::adopt_orphan;
  s.tenant_id = d.tenant_id;
  s.requested_quota_bytes = quota;
  s.reason = shown + " is charged " + std::to_string(d.live_charged_bytes) +
             " bytes with no policy, so the master closed its admission (every write refused); a policy of " +
             std::to_string(*quota) + " bytes (" + from + ") makes it explicit again and keeps its charge";
  s.evidence = evidence_of(d);
  s.preconditions.has_explicit_policy = false;
  s.preconditions.charged_bytes = d.live_charged_bytes;
  s.preconditions.charged_tolerance_bytes = tolerance;
  plan.steps.push_back(std::move(s));
}

void plan_retirement(const TenantDiff& d, RepairPlan& plan) {
  PlanStep s;
  s.action = RepairAction::retire_empty_policy;
  s.tenant_id = d.tenant_id;
  s.reason = "'" + util::printable(d.tenant_id) + "' has a policy of " +
             std::to_string(d.live->last.requested_quota_bytes) +
             " bytes and nothing charged, and the metadata holds no object of it (--retire-empty)";
  s.evidence = evidence_of(d);
  s.preconditions.has_explicit_policy = true;
  s.preconditions.charged_bytes = 0;
  plan.steps.push_back(std::move(s));
}

void plan_restart(const TenantDiff& d, const RestartPrediction* restart, std::uint64_t tolerance, RepairPlan& plan) {
  PlanStep s;
  s.action = RepairAction::resync_requires_restart;
  s.tenant_id = d.tenant_id;
  s.evidence = evidence_of(d);
  const bool over = d.unexplained_bytes > 0;
  s.reason = "'" + util::printable(d.tenant_id) + "': the master charges " +
             std::to_string(abs_bytes(d.unexplained_bytes)) + " bytes " + (over ? "more" : "less") +
             " than the metadata explains (" +
             (over ? "a missed refund: quota it cannot use" : "a lost charge: the tenant may exceed its quota") +
             "); no endpoint resyncs a charge: only a restart or failover recomputes it from metadata";
  if (restart != nullptr) {
    const auto it = restart->find(d.tenant_id);
    const RestartFigures f = it == restart->end() ? RestartFigures{} : it->second;
    s.evidence.restart_charged_bytes = f.charged_bytes;
    s.evidence.restart_lease_dropped_bytes = f.lease_dropped_bytes;
    s.reason += "; a restart now would charge it " + std::to_string(f.charged_bytes) +
                " bytes, after its lease "
                "erasure drops " +
                std::to_string(f.lease_dropped_bytes);
  }
  s.preconditions.charged_bytes = d.live_charged_bytes;
  s.preconditions.charged_tolerance_bytes = tolerance;
  plan.steps.push_back(std::move(s));
}

Status plan_purge(const std::string& tenant, const std::map<std::string, const TenantDiff*>& by_id,
                  std::uint64_t tolerance, RepairPlan& plan) {
  const std::string shown = "--allow-purge '" + util::printable(tenant) + "'";
  if (tenant.empty())
    return Status::invalid_argument("--allow-purge needs a tenant id: the master purges every tenant for an empty one");
  if (!url_unreserved(tenant)) {
    return Status::invalid_argument(shown +
                                    ": the master's remove_all does not URL-decode its tenant_id, so only ids of "
                                    "A-Z a-z 0-9 - . _ ~ can be purged through it");
  }
  const auto it = by_id.find(tenant);
  if (it == by_id.end() || !it->second->live) {
    return Status::invalid_argument(shown + ": the live master does not list this tenant");
  }
  const TenantDiff& d = *it->second;
  PlanStep s;
  s.action = RepairAction::purge_tenant;
  s.tenant_id = tenant;
  s.reason = "'" + util::printable(tenant) +
             "': remove its objects (--allow-purge; POST remove_all, without force: "
             "objects whose lease has not ended and writes in flight stay)";
  s.evidence = evidence_of(d);
  s.preconditions.charged_bytes = d.live_charged_bytes;
  s.preconditions.charged_tolerance_bytes = tolerance;
  plan.steps.push_back(std::move(s));
  return {};
}

}  // namespace

const char* repair_action_name(RepairAction action) {
  switch (action) {
    case RepairAction::adopt_orphan: return "adopt-orphan";
    case RepairAction::retire_empty_policy: return "retire-empty-policy";
    case RepairAction::resync_requires_restart: return "resync-requires-restart";
    case RepairAction::purge_tenant: return "purge-tenant";
  }
  return "?";
}

std::optional<RepairAction> parse_repair_action(std::string_view name) {
  for (auto a : {RepairAction::adopt_orphan, RepairAction::retire_empty_policy, RepairAction::resync_requires_restart,
                 RepairAction::purge_tenant}) {
    if (name == repair_action_name(a)) return a;
  }
  return std::nullopt;
}

bool url_unreserved(std::string_view id) {
  for (const char c : id) {
    const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
                    c == '.' || c == '_' || c == '~';
    if (!ok) return false;
  }
  return true;
}

util::Result<RepairPlan> build_plan(const ReconcileReport& audit, const PlanOptions& o,
                                    const RestartPrediction* restart, const std::string& cluster,
                                    std::uint64_t audit_at_ms) {
  RepairPlan plan;
  plan.cluster = cluster;
  plan.model = quota::model_name(audit.metadata);
  plan.audit_at_ms = audit_at_ms;
  plan.master = audit.live.source;
  plan.tolerance_bytes = audit.tolerance_bytes;
  std::map<std::string, const TenantDiff*> by_id;
  for (const auto& d : audit.tenants) by_id[d.tenant_id] = &d;
  for (const auto& [tenant, bytes] : o.adopt) {
    MQ_RETURN_IF_ERROR(check_quota(tenant, bytes, "--adopt"));
    const auto it = by_id.find(tenant);
    if (it == by_id.end() || !live_orphan(*it->second)) {
      return Status::invalid_argument("--adopt '" + util::printable(tenant) +
                                      "': not an orphan on the live master (it is not listed, has a policy, or is "
                                      "charged nothing)");
    }
  }
  for (const auto& [tenant, bytes] : o.adopt_policy) MQ_RETURN_IF_ERROR(check_quota(tenant, bytes, "--adopt-policy"));
  for (const auto& d : audit.tenants) {
    if (live_orphan(d)) {
      plan_adoption(d, o, audit.tolerance_bytes, plan);
    } else if (o.retire_empty && d.live && d.live->last.has_explicit_policy && d.live->last.charged_bytes == 0 &&
               (!d.expected || d.expected->object_count == 0)) {
      plan_retirement(d, plan);
    }
    const bool remainder = d.live && !d.unexplained_within_tolerance &&
                           (d.verdict == Verdict::live_over || d.verdict == Verdict::live_under);
    if (remainder) plan_restart(d, restart, audit.tolerance_bytes, plan);
  }
  for (const auto& tenant : o.allow_purge) MQ_RETURN_IF_ERROR(plan_purge(tenant, by_id, audit.tolerance_bytes, plan));
  if (plan.steps.empty() && plan.notes.empty()) {
    plan.notes.push_back("nothing to repair: no orphan, no remainder outside tolerance, no named step");
  }
  return plan;
}

}  // namespace moonquota::reconcile
