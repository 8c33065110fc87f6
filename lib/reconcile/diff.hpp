// Per-tenant comparison of the rebuilt account table with what the live master reports, and the
// contract's verdicts (cli-contract.md quota-reconcile/1; live-master-api.md §8.6).
//
// Rows: the union of metadata rows (tenants with objects or a policy) and live tenants, bytewise.
// expected = rebuilt charged_bytes; live = the per-tenant minimum over every reading (in-flight
// writes only add charge, so the minimum is the best estimate of the settled charge);
// delta = live - expected (signed; both sides are <= 2^63-1, so it is exact).
//   missing_live     metadata shows the tenant visible (policy or charge) and the master omits it
//   missing_metadata the master lists the tenant and metadata has no row for it
//   live_over/under  |delta| > tolerance
//   flags_mismatch   charge within tolerance, but admission_closed, has_explicit_policy or
//                    effective_quota_bytes differ
//   match            everything agrees (a delta within tolerance is still reported); also an
//                    invisible metadata row (no policy, charged 0) that the master omits
// within_tolerance = |delta| <= tolerance. A run "drifts" when any verdict is not match.
//
// Causes (reconcile/delta_causes.hpp): for a positive delta, each cause the metadata supports with
// the bytes it shows (in-flight writes, upserts in flight, REMOVED replicas awaiting finalize,
// restore drops); explained = min(delta, their sum); the unexplained remainder = delta - explained
// (for a zero or negative delta: the delta itself). The remainder is what an operator acts on:
// trends and `persistent` are computed on it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "quota/account_table.hpp"
#include "quota/tenant_drops.hpp"
#include "reconcile/live_source.hpp"

namespace moonquota::reconcile {

enum class Verdict { match, live_over, live_under, missing_live, missing_metadata, flags_mismatch };
inline constexpr int k_verdict_count = 6;

[[nodiscard]] const char* verdict_name(Verdict v);

// One explanation of a delta that the metadata supports, with its bytes (quota-semantics.md §16).
struct Cause {
  std::string id;           // k_cause_* below
  std::uint64_t bytes = 0;  // what the metadata shows for it (saturating at 2^63-1)
  std::string detail;       // one sentence with the counts
};

inline constexpr const char* k_cause_in_flight = "in_flight_writes";
inline constexpr const char* k_cause_upsert_in_flight = "upsert_in_flight";
inline constexpr const char* k_cause_removed_awaiting_finalize = "removed_awaiting_finalize";
inline constexpr const char* k_cause_restore_drop_lease_expired = "restore_drop_lease_expired";
inline constexpr const char* k_cause_restore_drop_non_complete = "restore_drop_non_complete";
inline constexpr const char* k_cause_promote_drop_lease_expired = "promote_drop_lease_expired";
inline constexpr const char* k_cause_promote_drop_non_complete = "promote_drop_non_complete";
inline constexpr const char* k_cause_promote_phantom = "promote_phantom_lease_ended";

struct TenantDiff {
  std::string tenant_id;
  std::optional<quota::AccountRow> expected;  // the metadata row, if any
  std::optional<LiveTenantView> live;         // the live view, if listed in any reading
  std::uint64_t expected_charged_bytes = 0;
  std::uint64_t live_charged_bytes = 0;  // minimum over readings
  std::uint64_t live_max_charged_bytes = 0;
  std::int64_t delta_bytes = 0;  // live - expected
  Verdict verdict = Verdict::match;
  bool within_tolerance = true;
  std::vector<std::string> flag_differences;  // "admission_closed: metadata false, live true"
  std::uint64_t in_flight_bytes = 0;          // size x PROCESSING MEMORY replicas in the metadata
  std::vector<Cause> causes;                  // only those the metadata supports, with bytes
  std::uint64_t explained_bytes = 0;          // min(delta, sum of cause bytes) for a positive delta
  std::int64_t unexplained_bytes = 0;         // delta - explained: the remainder an operator acts on
  bool unexplained_within_tolerance = true;   // |unexplained| <= tolerance
  std::vector<std::string> likely_causes;     // evidence, then advice only when a remainder is left
};

struct VerdictCounts {
  std::uint64_t by_verdict[k_verdict_count] = {};
  std::uint64_t tenants = 0;
  std::uint64_t drift = 0;  // verdict != match
  std::uint64_t outside_tolerance = 0;
  std::uint64_t max_abs_delta_bytes = 0;
  std::uint64_t unexplained_outside_tolerance = 0;  // tenants whose remainder is outside tolerance
  std::uint64_t max_abs_unexplained_bytes = 0;
};

struct PromotePhantoms;

// Context that turns a bare delta into an explanation.
struct DiffContext {
  restore::ChargeModel model = restore::ChargeModel::restore;
  bool promote = false;                       // the promote model: the restore charge on the promote path
  const quota::DropTable* drops = nullptr;    // promote: what the standby's bootstrap dropped, per tenant
  const PromotePhantoms* phantoms = nullptr;  // promote: snapshot objects whose lease ended since
  std::uint64_t tolerance_bytes = 0;
  std::optional<std::int64_t> metadata_age_ms;  // live sample time - metadata point time
  std::uint64_t metadata_capacity_bytes = 0;
  std::optional<std::uint64_t> live_capacity_bytes;
  bool metadata_starts_empty = false;
  const std::map<std::string, restore::TenantTally>* tallies = nullptr;  // evidence per tenant
};

[[nodiscard]] std::vector<TenantDiff> diff_tenants(const quota::AccountTable& table,
                                                   const std::vector<LiveTenantView>& live, const DiffContext& context);

[[nodiscard]] VerdictCounts count_verdicts(const std::vector<TenantDiff>& diffs);

// |v| as an unsigned value (exact for INT64_MIN).
[[nodiscard]] std::uint64_t abs_bytes(std::int64_t v);

}  // namespace moonquota::reconcile
