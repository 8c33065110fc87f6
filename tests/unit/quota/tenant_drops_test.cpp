// Per-tenant drops (quota/tenant_drops): counts and bytes by reason from the restore tallies and
// from the standby bootstrap, and the charge without the drops. Numbers worked out by hand.
#include "quota/tenant_drops.hpp"

#include <gtest/gtest.h>

#include "util/checked_math.hpp"

namespace moonquota::quota {
namespace {

AccountTable table_with(std::vector<std::pair<std::string, std::uint64_t>> charged) {
  AccountTable t;
  for (auto& [id, bytes] : charged) {
    AccountRow row;
    row.tenant_id = id;
    row.charged_bytes = bytes;
    t.rows.push_back(row);
  }
  return t;
}

TEST(TenantDrops, RestoreTalliesGiveCountsBytesAndTheChargeWithoutDrops) {
  std::map<std::string, restore::TenantTally> tallies;
  auto& a = tallies["a"];  // 2 kept (300 B), 1 non-COMPLETE (40 B), 2 lease-expired (500 B), 1 undecodable
  a.objects = 2;
  a.charged_bytes = 300;
  a.dropped = {1, 2, 1};
  a.evidence.dropped_non_complete_bytes = 40;
  a.evidence.dropped_lease_expired_bytes = 500;
  auto& b = tallies["b"];  // nothing dropped: not in the table
  b.objects = 1;
  b.charged_bytes = 7;
  auto& gone = tallies["gone"];  // every object dropped, no policy: no account row
  gone.dropped.lease_expired = 3;
  gone.evidence.dropped_lease_expired_bytes = 90;
  const DropTable t = restore_drop_table(tallies, table_with({{"a", 300}, {"b", 7}}));
  EXPECT_FALSE(t.standby);
  ASSERT_EQ(t.tenants.size(), 2u);
  const TenantDrops& da = t.tenants.at("a");
  EXPECT_EQ(da.non_complete.objects, 1u);
  EXPECT_EQ(da.non_complete.bytes, 40u);
  EXPECT_EQ(da.lease_expired.objects, 2u);
  EXPECT_EQ(da.lease_expired.bytes, 500u);
  EXPECT_EQ(da.undecodable, 1u);
  EXPECT_TRUE(da.has_account);
  EXPECT_EQ(da.charged_bytes, 300u);
  EXPECT_EQ(da.charged_bytes_without_drops, 840u);  // 300 + 40 + 500
  const TenantDrops& dg = t.tenants.at("gone");
  EXPECT_FALSE(dg.has_account);
  EXPECT_EQ(dg.charged_bytes, 0u);
  EXPECT_EQ(dg.charged_bytes_without_drops, 90u);
}

TEST(TenantDrops, TheChargeWithoutDropsSaturatesLikeACharge) {
  std::map<std::string, restore::TenantTally> tallies;
  auto& a = tallies["a"];
  a.dropped.lease_expired = 2;
  a.evidence.dropped_lease_expired_bytes = util::u128{util::k_max_charged_bytes} * 2;
  const DropTable t = restore_drop_table(tallies, table_with({{"a", 10}}));
  EXPECT_EQ(t.tenants.at("a").lease_expired.bytes, util::k_max_charged_bytes);
  EXPECT_EQ(t.tenants.at("a").charged_bytes_without_drops, util::k_max_charged_bytes);
}

TEST(TenantDrops, StandbyBootstrapDropsKeepTheirOwnReasons) {
  restore::StandbyBootstrap b;
  auto& x = b.tenants["x"];
  x.objects = {.size_zero = 1, .lease_expired = 2, .non_complete = 1, .invalid_memory = 4};
  x.lease_expired_bytes = 2048;
  x.non_complete_bytes = 100;
  auto& y = b.tenants["y"];  // an entry with no drop is left out
  (void)y;
  const DropTable t = standby_drop_table(b, table_with({{"x", 5000}}));
  EXPECT_TRUE(t.standby);
  ASSERT_EQ(t.tenants.size(), 1u);
  const TenantDrops& d = t.tenants.at("x");
  EXPECT_EQ(d.size_zero, 1u);
  EXPECT_EQ(d.invalid_memory, 4u);
  EXPECT_EQ(d.undecodable, 0u);
  EXPECT_EQ(d.lease_expired.objects, 2u);
  EXPECT_EQ(d.lease_expired.bytes, 2048u);
  EXPECT_EQ(d.non_complete.bytes, 100u);
  EXPECT_EQ(d.charged_bytes_without_drops, 7148u);  // 5000 + 2048 + 100
}

}  // namespace
}  // namespace moonquota::quota
