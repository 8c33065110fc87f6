// What can legitimately explain a tenant's difference between the live master and the offline
// rebuild (quota-semantics.md §16), most likely first. Tenant-specific evidence (drops at restore,
// spread across samples, metadata age, capacity drift) is named when it exists; the generic causes
// of the verdict follow. A match gets no causes.
#pragma once

#include <string>
#include <vector>

#include "reconcile/diff.hpp"

namespace moonquota::reconcile {

[[nodiscard]] std::vector<std::string> likely_causes(const TenantDiff& diff, const DiffContext& context);

}  // namespace moonquota::reconcile
