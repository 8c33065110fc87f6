#include "reconcile/diff.hpp"

#include <gtest/gtest.h>

namespace moonquota::reconcile {
namespace {

quota::AccountRow explicit_row(const std::string& id, std::uint64_t charged, std::uint64_t effective = 1000) {
  quota::AccountRow r;
  r.tenant_id = id;
  r.object_count = charged > 0 ? 1 : 0;
  r.charged_bytes = charged;
  r.requested_quota_bytes = effective;
  r.effective_quota_bytes = effective;
  r.has_explicit_policy = true;
  r.admission_closed = false;
  r.over_quota = charged > effective;
  r.visible = true;
  return r;
}

LiveTenantView view_of(const quota::AccountRow& r, std::uint64_t charged, std::uint64_t max_charged = 0) {
  LiveTenantView v;
  v.last = {r.tenant_id,        r.requested_quota_bytes,           r.effective_quota_bytes, charged,
            r.admission_closed, charged > r.effective_quota_bytes, r.has_explicit_policy};
  v.min_charged_bytes = charged;
  v.max_charged_bytes = std::max(charged, max_charged);
  v.readings_present = 1;
  return v;
}

const TenantDiff& find(const std::vector<TenantDiff>& diffs, const std::string& id) {
  for (const auto& d : diffs) {
    if (d.tenant_id == id) return d;
  }
  throw std::runtime_error("no tenant " + id);
}

TEST(Diff, EachVerdict) {
  quota::AccountTable table;
  auto same = explicit_row("same", 100);
  auto over = explicit_row("over", 100);
  auto under = explicit_row("under", 100);
  auto gone = explicit_row("gone", 50);
  auto flags = explicit_row("flags", 10);
  table.rows = {flags, gone, over, same, under};
  quota::AccountRow tombstone;  // objects, no policy, no charge: invisible
  tombstone.tenant_id = "tomb";
  tombstone.object_count = 2;
  tombstone.orphan = true;
  table.rows.push_back(tombstone);
  auto flags_view = view_of(flags, 10);
  flags_view.last.admission_closed = true;
  LiveTenantView newcomer;
  newcomer.last = {"new", 0, 0, 64, true, true, false};
  newcomer.min_charged_bytes = newcomer.max_charged_bytes = 64;
  std::vector<LiveTenantView> live = {flags_view, newcomer, view_of(over, 4196), view_of(same, 100),
                                      view_of(under, 36)};
  DiffContext ctx;
  auto diffs = diff_tenants(table, live, ctx);
  ASSERT_EQ(diffs.size(), 7u);
  EXPECT_EQ(find(diffs, "same").verdict, Verdict::match);
  EXPECT_EQ(find(diffs, "over").verdict, Verdict::live_over);
  EXPECT_EQ(find(diffs, "over").delta_bytes, 4096);
  EXPECT_FALSE(find(diffs, "over").within_tolerance);
  EXPECT_EQ(find(diffs, "under").verdict, Verdict::live_under);
  EXPECT_EQ(find(diffs, "under").delta_bytes, -64);
  EXPECT_EQ(find(diffs, "gone").verdict, Verdict::missing_live);
  EXPECT_EQ(find(diffs, "gone").delta_bytes, -50);
  EXPECT_EQ(find(diffs, "new").verdict, Verdict::missing_metadata);
  EXPECT_EQ(find(diffs, "new").delta_bytes, 64);
  EXPECT_EQ(find(diffs, "flags").verdict, Verdict::flags_mismatch);
  ASSERT_EQ(find(diffs, "flags").flag_differences.size(), 1u);
  EXPECT_EQ(find(diffs, "flags").flag_differences[0], "admission_closed: metadata false, live true");
  EXPECT_EQ(find(diffs, "tomb").verdict, Verdict::match) << "an invisible tombstone that the master omits matches";
  auto counts = count_verdicts(diffs);
  EXPECT_EQ(counts.tenants, 7u);
  EXPECT_EQ(counts.drift, 5u);
  EXPECT_EQ(counts.max_abs_delta_bytes, 4096u);
  EXPECT_FALSE(find(diffs, "over").likely_causes.empty());
  EXPECT_TRUE(find(diffs, "same").likely_causes.empty());
}

TEST(Diff, ToleranceTurnsSmallDeltasIntoMatches) {
  quota::AccountTable table;
  auto a = explicit_row("a", 1000);
  table.rows = {a};
  DiffContext ctx;
  ctx.tolerance_bytes = 4096;
  auto within = diff_tenants(table, {view_of(a, 5096)}, ctx);
  EXPECT_EQ(within[0].verdict, Verdict::match);
  EXPECT_TRUE(within[0].within_tolerance);
  EXPECT_EQ(within[0].delta_bytes, 4096);
  auto outside = diff_tenants(table, {view_of(a, 5097)}, ctx);
  EXPECT_EQ(outside[0].verdict, Verdict::live_over);
  auto under = diff_tenants(table, {view_of(a, 0)}, ctx);
  EXPECT_EQ(under[0].verdict, Verdict::match);  // |-1000| <= 4096
}

TEST(Diff, SpreadAcrossSamplesAndCapacityDriftAreNamed) {
  quota::AccountTable table;
  auto a = explicit_row("a", 100);
  table.rows = {a};
  DiffContext ctx;
  ctx.metadata_age_ms = 90'000;
  auto d = diff_tenants(table, {view_of(a, 200, 900)}, ctx);
  ASSERT_EQ(d[0].verdict, Verdict::live_over);
  EXPECT_NE(d[0].likely_causes[0].find("varied by 700 bytes"), std::string::npos);
  EXPECT_NE(d[0].likely_causes[1].find("1 min older"), std::string::npos);

  auto eff = view_of(a, 100);
  eff.last.effective_quota_bytes = 900;
  ctx.metadata_capacity_bytes = 1000;
  ctx.live_capacity_bytes = 900;
  auto f = diff_tenants(table, {eff}, ctx);
  ASSERT_EQ(f[0].verdict, Verdict::flags_mismatch);
  EXPECT_NE(f[0].likely_causes[0].find("capacity drift"), std::string::npos);
}

TEST(Diff, ExtremeDeltasAreExact) {
  quota::AccountTable table;
  auto a = explicit_row("a", 9223372036854775807ull, 9223372036854775807ull);
  table.rows = {a};
  auto d = diff_tenants(table, {view_of(a, 0)}, DiffContext{});
  EXPECT_EQ(d[0].delta_bytes, -9223372036854775807ll);
  EXPECT_EQ(count_verdicts(d).max_abs_delta_bytes, 9223372036854775807ull);
}

}  // namespace
}  // namespace moonquota::reconcile
