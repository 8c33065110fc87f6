// A repair plan (reconcile/repair_plan.hpp) for a reviewer: text, or the plan's own JSON.
#pragma once

#include <optional>
#include <ostream>
#include <string>

#include "quota/tenant_quota_row.hpp"
#include "reconcile/repair_plan.hpp"
#include "report/output_format.hpp"

namespace moonquota::report {

void render_plan(const reconcile::RepairPlan& plan, OutputFormat format, std::ostream& out);

// A tenant as the master showed it around a repair step: "charged N, policy Q|none, admission
// open|closed", or "not listed" (apply's lines, the history's repairs).
[[nodiscard]] std::string tenant_row_text(const std::optional<quota::TenantQuotaRow>& row);

}  // namespace moonquota::report
