// `quota-reconcile plan` (docs/cli/quota-reconcile.md, "plan"): one audit (the one-shot's flags and
// models), then the repair plan for what it found (reconcile/repair_plan.hpp). Sends nothing to
// the master but the audit's GETs.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/audit_command.hpp"
#include "reconcile/repair_plan.hpp"
#include "util/status.hpp"

namespace moonquota::app {

struct PlanArgs {
  AuditArgs audit;
  std::vector<std::string> adopt;           // --adopt TENANT=BYTES (repeatable)
  std::optional<std::string> adopt_policy;  // --adopt-policy FILE (the policy YAML format)
  bool retire_empty = false;                // --retire-empty
  std::vector<std::string> allow_purge;     // --allow-purge TENANT (repeatable)
  std::string cluster = "default";          // the label the plan is made for (apply checks it)
};

struct PlanOutcome {
  reconcile::RepairPlan plan;
  int exit_code = 0;  // 0: nothing to repair; 1: the plan has steps
};

// Errors: the audit's (a failed audit is no basis for a plan: its exit code), invalid_argument for
// a bad --adopt / --allow-purge (reconcile::build_plan), refused for a bad --adopt-policy file.
[[nodiscard]] util::Result<PlanOutcome> run_plan(const PlanArgs& args);

}  // namespace moonquota::app
