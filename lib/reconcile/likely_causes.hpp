// What else can explain a tenant's difference between the live master and the metadata model
// (quota-semantics.md §16), as sentences: evidence from the run (spread across samples, metadata
// age, capacity drift) first, then advice. The causes the metadata shows with bytes are
// reconcile/delta_causes.hpp; for a live_over, advice is given only when a remainder is left
// after them. A match gets nothing.
#pragma once

#include <string>
#include <vector>

#include "reconcile/diff.hpp"

namespace moonquota::reconcile {

[[nodiscard]] std::vector<std::string> likely_causes(const TenantDiff& diff, const DiffContext& context);

}  // namespace moonquota::reconcile
