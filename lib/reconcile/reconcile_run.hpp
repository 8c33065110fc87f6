// quota-reconcile's whole job as one library call: rebuild the account table from metadata
// (quota::run_rebuild, the same request as quota-rebuild), collect the live readings, diff them.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "quota/rebuild.hpp"
#include "reconcile/diff.hpp"
#include "reconcile/live_source.hpp"
#include "reconcile/promote_phantoms.hpp"

namespace moonquota::reconcile {

struct ReconcileRequest {
  quota::RebuildRequest metadata;  // every quota-rebuild source flag lands here
  LiveRequest live;
  std::uint64_t tolerance_bytes = 0;
};

struct ReconcileReport {
  quota::RebuildResult metadata;
  LiveObservation live;
  std::uint64_t tolerance_bytes = 0;
  std::optional<std::int64_t> metadata_point_ms;  // snapshot created_at_ms (descriptor)
  std::optional<std::int64_t> metadata_age_ms;    // first live sample - metadata point
  std::optional<PromotePhantoms> phantoms;        // the promote model: what a promotion charges again
  std::vector<TenantDiff> tenants;                // bytewise
  VerdictCounts counts;
  [[nodiscard]] bool drift() const { return counts.drift > 0; }
  // Drift that the metadata's causes do not explain: a remainder outside tolerance, or a verdict
  // no byte count can explain (flags_mismatch, missing_live). What --fail-on unexplained exits 1 on.
  [[nodiscard]] bool unexplained_drift() const {
    return counts.unexplained_outside_tolerance > 0 ||
           counts.by_verdict[static_cast<int>(Verdict::flags_mismatch)] > 0 ||
           counts.by_verdict[static_cast<int>(Verdict::missing_live)] > 0;
  }
};

// The metadata comes from `store`, the store of `request.metadata.selection`.
// Metadata first (a policy or store the master would refuse stops the run before any request),
// then the live side; in the promote model then the phantoms at the live sample (a second
// promotion, when the bootstrap instant is before the sample). Errors: those of quota::run_rebuild
// and collect_live, unchanged.
[[nodiscard]] util::Result<ReconcileReport> run_reconcile(source::ObjectStore& store, const ReconcileRequest& request);

// The diff step alone, for callers that already hold both sides.
[[nodiscard]] ReconcileReport compare(quota::RebuildResult metadata, LiveObservation live,
                                      std::uint64_t tolerance_bytes,
                                      std::optional<PromotePhantoms> phantoms = std::nullopt);

}  // namespace moonquota::reconcile
