// A repair plan as JSON (schema quota-reconcile-plan/1, docs/cli/quota-reconcile.md, "plan"), and
// read back by `apply`: every member checked (a plan is reviewed, then applied as written).
// Tenant ids that are not UTF-8 travel as {"hex": "..."}.
#pragma once

#include <string>
#include <string_view>

#include "reconcile/repair_plan.hpp"
#include "util/status.hpp"

namespace moonquota::reconcile {

[[nodiscard]] std::string plan_json(const RepairPlan& plan);

// Errors: corruption naming the member (`steps[2].action: 'x' is not an action`), for text that
// is not a plan of this schema.
[[nodiscard]] util::Result<RepairPlan> parse_plan_json(std::string_view text, const std::string& source);

}  // namespace moonquota::reconcile
