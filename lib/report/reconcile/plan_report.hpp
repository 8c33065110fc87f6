// A repair plan (reconcile/repair_plan.hpp) for a reviewer: text, or the plan's own JSON.
#pragma once

#include <ostream>

#include "reconcile/repair_plan.hpp"
#include "report/output_format.hpp"

namespace moonquota::report {

void render_plan(const reconcile::RepairPlan& plan, OutputFormat format, std::ostream& out);

}  // namespace moonquota::report
