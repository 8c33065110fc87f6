// explain_delta: the causes the metadata shows, with bytes, and the unexplained remainder
// (docs/accounting.md §11).
#include "reconcile/delta_causes.hpp"

#include <gtest/gtest.h>

namespace moonquota::reconcile {
namespace {

TenantDiff diff_of(const std::string& id, std::uint64_t expected, std::uint64_t live) {
  TenantDiff d;
  d.tenant_id = id;
  d.expected = quota::AccountRow{};
  d.expected->tenant_id = id;
  d.expected_charged_bytes = expected;
  d.live_charged_bytes = live;
  d.delta_bytes = static_cast<std::int64_t>(live) - static_cast<std::int64_t>(expected);
  return d;
}

std::map<std::string, restore::TenantTally> evidence() {
  std::map<std::string, restore::TenantTally> t;
  auto& e = t["a"].evidence;
  e.in_flight_bytes = 3000;
  e.in_flight_objects = 1;
  e.upserts = {1, 2000, 3000};
  e.removed_bytes = 700;
  e.removed_objects = 1;
  e.dropped_lease_expired_bytes = 5000;
  t["a"].dropped.lease_expired = 5;
  return t;
}

std::vector<std::string> ids(const TenantDiff& d) {
  std::vector<std::string> out;
  for (const auto& c : d.causes) out.push_back(c.id);
  return out;
}

TEST(DeltaCauses, LiveModelNamesInFlightUpsertAndRemovedBytesAndTheRemainder) {
  const auto tallies = evidence();
  DiffContext ctx;
  ctx.model = restore::ChargeModel::live;
  ctx.tallies = &tallies;
  auto d = diff_of("a", 100, 100 + 3000 + 2000 + 700 + 64);  // 64 bytes nobody explains
  explain_delta(d, ctx);
  EXPECT_EQ(ids(d),
            (std::vector<std::string>{k_cause_in_flight, k_cause_upsert_in_flight, k_cause_removed_awaiting_finalize}))
      << "no restore drops in the live model";
  EXPECT_EQ(d.causes[0].bytes, 3000u);
  EXPECT_EQ(d.causes[1].bytes, 2000u);
  EXPECT_NE(d.causes[1].detail.find("old 2000 bytes stay charged beside the new 3000 bytes"), std::string::npos)
      << d.causes[1].detail;
  EXPECT_EQ(d.causes[2].bytes, 700u);
  EXPECT_EQ(d.in_flight_bytes, 3000u);
  EXPECT_EQ(d.explained_bytes, 5700u);
  EXPECT_EQ(d.unexplained_bytes, 64);
  EXPECT_FALSE(d.unexplained_within_tolerance);
  ctx.tolerance_bytes = 64;
  explain_delta(d, ctx);
  EXPECT_TRUE(d.unexplained_within_tolerance);
}

TEST(DeltaCauses, ExplainedIsCappedAtTheDeltaAndRestoreDropsCountInTheRestoreModel) {
  const auto tallies = evidence();
  DiffContext ctx;
  ctx.model = restore::ChargeModel::restore;
  ctx.tallies = &tallies;
  auto d = diff_of("a", 100, 5100);
  explain_delta(d, ctx);
  EXPECT_EQ(ids(d).back(), k_cause_restore_drop_lease_expired);
  EXPECT_EQ(d.causes.back().bytes, 5000u);
  EXPECT_EQ(d.explained_bytes, 5000u);
  EXPECT_EQ(d.unexplained_bytes, 0);
  EXPECT_TRUE(d.unexplained_within_tolerance);
}

TEST(DeltaCauses, NegativeDeltasAndTenantsWithoutEvidenceKeepTheWholeDelta) {
  const auto tallies = evidence();
  DiffContext ctx;
  ctx.tallies = &tallies;
  auto under = diff_of("a", 9000, 1000);
  explain_delta(under, ctx);
  EXPECT_TRUE(under.causes.empty());
  EXPECT_EQ(under.unexplained_bytes, -8000);
  EXPECT_EQ(under.in_flight_bytes, 3000u) << "in-flight bytes are reported whatever the delta";
  auto stranger = diff_of("zz", 0, 42);
  explain_delta(stranger, ctx);
  EXPECT_TRUE(stranger.causes.empty());
  EXPECT_EQ(stranger.unexplained_bytes, 42);
}

// A tenant whose objects a restore all erased has no account row (missing_metadata), but its
// drops still explain what the live master charges.
TEST(DeltaCauses, ATenantWithoutAnAccountRowStillHasItsDrops) {
  const auto tallies = evidence();
  DiffContext ctx;
  ctx.model = restore::ChargeModel::restore;
  ctx.tallies = &tallies;
  auto d = diff_of("a", 0, 5000);
  d.expected.reset();
  explain_delta(d, ctx);
  EXPECT_FALSE(d.causes.empty());
  EXPECT_EQ(d.unexplained_bytes, 0);
}

}  // namespace
}  // namespace moonquota::reconcile
