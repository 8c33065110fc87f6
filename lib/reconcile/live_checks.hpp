// Consistency checks on the live data alone (live-master-api.md §8.5, quota-semantics.md §15).
// Each failure is a model::Finding; none changes a verdict. Checks:
//   list readings: sorted bytewise without duplicates; over_quota == (charged > effective);
//     admission_closed == !has_explicit_policy (steady state); non-explicit rows have requested 0
//     and effective 0; every row visible (explicit or charged > 0);
//   metrics readings: tenant block present while the list answered (else: scrape-time failure);
//     series set == list set of the same sample; values equal the list's (warning only: the two
//     requests are separate); requested_sum == Σ requested mod 2^64; effective_sum == Σ effective;
//     effective quotas agree with §11.3 at the capacity gauge (else "stale recompute or capacity
//     drift", not an accounting error).
#pragma once

#include "model/finding.hpp"
#include "reconcile/live_source.hpp"

namespace moonquota::reconcile {

// A fact seen in several samples is one finding whose location names them: "/metrics (samples
// 1-3)", "(samples 1, 3)"; one sample: "(sample 2)".
[[nodiscard]] model::Findings check_live_observation(const LiveObservation& observation);

}  // namespace moonquota::reconcile
