// Repair plans (docs/operations.md, "From finding to fixing"): from an audit, the steps that would
// fix what it found, each with its reason, the evidence it rests on and the preconditions that
// must still hold when it is applied. A plan is data: it sends nothing (app/apply_command does,
// step by step, after re-reading each tenant).
//   adopt-orphan             PUT a policy with the quota the operator gave (never a guess): a
//                            tenant charged with no policy (admission closed) becomes explicit
//   retire-empty-policy      DELETE a policy whose tenant has nothing (only when asked for: a
//                            policy for a tenant that has not written yet is normal)
//   resync-requires-restart  a remainder the metadata does not explain: the master has no
//                            endpoint to resync a charge, only a restart or failover recomputes
//                            it; the step carries what a restart now would serve; sends nothing
//   purge-tenant             POST remove_all for one named tenant (only when asked for by name;
//                            never an empty id, which the master takes as every tenant)
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "reconcile/reconcile_run.hpp"
#include "util/status.hpp"

namespace moonquota::reconcile {

inline constexpr const char* k_plan_schema = "quota-reconcile-plan/1";

enum class RepairAction { adopt_orphan, retire_empty_policy, resync_requires_restart, purge_tenant };
[[nodiscard]] const char* repair_action_name(RepairAction action);  // "adopt-orphan", ...
[[nodiscard]] std::optional<RepairAction> parse_repair_action(std::string_view name);

// The audit's figures a step rests on.
struct StepEvidence {
  std::string verdict;
  std::uint64_t expected_charged_bytes = 0;
  std::uint64_t live_charged_bytes = 0;
  std::int64_t delta_bytes = 0;
  std::int64_t unexplained_bytes = 0;
  std::uint64_t metadata_objects = 0;
  bool live_has_explicit_policy = false;
  bool live_admission_closed = false;
  std::uint64_t live_requested_quota_bytes = 0;
  // resync-requires-restart: what a restart now would serve the tenant (the restore model at the
  // plan's time), and what its lease erasure would drop.
  std::optional<std::uint64_t> restart_charged_bytes;
  std::optional<std::uint64_t> restart_lease_dropped_bytes;
  bool operator==(const StepEvidence&) const = default;
};

// What the tenant must still look like on the master (GET ?tenant_id=) when the step is applied;
// the master has no compare-and-set, so this is checked just before the request.
struct Preconditions {
  bool listed = true;                         // the tenant is visible (200, not 404)
  std::optional<bool> has_explicit_policy;    // when set, must equal
  std::uint64_t charged_bytes = 0;            // the charge the plan saw
  std::uint64_t charged_tolerance_bytes = 0;  // |charge now - charged_bytes| <= this
  bool operator==(const Preconditions&) const = default;
};

struct PlanStep {
  RepairAction action = RepairAction::adopt_orphan;
  std::string tenant_id;
  std::optional<std::uint64_t> requested_quota_bytes;  // adopt-orphan
  std::string reason;
  StepEvidence evidence;
  Preconditions preconditions;
  bool operator==(const PlanStep&) const = default;
  [[nodiscard]] bool sends_request() const { return action != RepairAction::resync_requires_restart; }
};

struct RepairPlan {
  std::string cluster;
  std::string model;              // the audit's model (live, restore, promote)
  std::uint64_t audit_at_ms = 0;  // the live sample the audit compared
  std::string master;             // the audit's live source
  std::uint64_t tolerance_bytes = 0;
  std::vector<PlanStep> steps;
  std::vector<std::string> notes;  // what the plan leaves alone, and why
  bool operator==(const RepairPlan&) const = default;
};

struct PlanOptions {
  std::map<std::string, std::uint64_t> adopt;         // --adopt TENANT=BYTES (named: must be orphans)
  std::map<std::string, std::uint64_t> adopt_policy;  // --adopt-policy FILE (orphans among them)
  bool retire_empty = false;
  std::set<std::string> allow_purge;
};

// Per tenant, what a restart now would serve: its charge and the bytes its lease erasure drops.
struct RestartFigures {
  std::uint64_t charged_bytes = 0;
  std::uint64_t lease_dropped_bytes = 0;
};
using RestartPrediction = std::map<std::string, RestartFigures>;

// The plan for `audit`. Errors: invalid_argument for a tenant named by --adopt that is not an
// orphan on the live master, a quota outside [1, 2^63-1], or a --allow-purge tenant the master
// does not list, or whose id the master's remove_all cannot receive (it does not URL-decode:
// only unreserved characters can be sent), and for an empty id.
[[nodiscard]] util::Result<RepairPlan> build_plan(const ReconcileReport& audit, const PlanOptions& options,
                                                  const RestartPrediction* restart, const std::string& cluster,
                                                  std::uint64_t audit_at_ms);

// True when `id` holds only URL-unreserved characters (A-Z a-z 0-9 - . _ ~).
[[nodiscard]] bool url_unreserved(std::string_view id);

}  // namespace moonquota::reconcile
