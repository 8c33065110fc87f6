// Effective quota assignment (quota-semantics.md §11.3, RecomputeEffectiveQuotas).
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace moonquota::quota {

// Input: requested bytes of every tenant with an explicit policy (normally each in
// [1, 2^63-1], but any uint64 is handled) and the allocatable capacity C in bytes.
// Output: the effective quota of each input tenant, same keys.
//   S = sum of requested (128-bit). S <= C: effective = requested; leftover capacity is not
//   handed out. S > C: base = floor(C*r/S), rem = C*r mod S (128-bit); the C - sum(base)
//   leftover bytes (fewer than the tenant count) go one each to tenants ordered by rem
//   descending, then id ascending bytewise; then sum(effective) == C exactly.
// Tenants without an explicit policy are not part of the input; their effective quota is 0.
[[nodiscard]] std::map<std::string, std::uint64_t> compute_effective_quotas(
    const std::map<std::string, std::uint64_t>& explicit_requested, std::uint64_t capacity_bytes);

}  // namespace moonquota::quota
