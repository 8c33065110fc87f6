#include "quota/account_table.hpp"

#include <gtest/gtest.h>

#include "util/checked_math.hpp"

namespace moonquota::quota {
namespace {

restore::TenantTally tally(std::uint64_t objects, std::uint64_t charged) {
  restore::TenantTally t;
  t.objects = objects;
  t.charged_bytes = charged;
  t.shards = 1;
  return t;
}

const AccountRow& row(const AccountTable& t, const std::string& id) {
  for (const auto& r : t.rows)
    if (r.tenant_id == id) return r;
  throw std::runtime_error("no row " + id);
}

// quota-semantics.md §7.6, both capacities.
TEST(AccountTable, SpecWorkedExampleWithCapacity1200) {
  std::map<std::string, restore::TenantTally> usage = {
      {"tenant-a", tally(2, 250)}, {"tenant-c", tally(1, 40)}, {"tenant-d", tally(1, 0)}};
  std::map<std::string, std::uint64_t> policy = {{"tenant-a", 1000}, {"tenant-b", 500}};
  auto t = build_account_table(usage, policy, 1200);
  ASSERT_TRUE(t.ok()) << t.status().message();
  ASSERT_EQ(t->rows.size(), 4u);
  EXPECT_EQ(t->rows[0].tenant_id, "tenant-a");
  EXPECT_EQ(t->rows[3].tenant_id, "tenant-d");
  const auto& a = row(*t, "tenant-a");
  EXPECT_EQ(a.requested_quota_bytes, 1000u);
  EXPECT_EQ(a.effective_quota_bytes, 800u);
  EXPECT_EQ(a.charged_bytes, 250u);
  EXPECT_FALSE(a.admission_closed);
  EXPECT_FALSE(a.over_quota);
  EXPECT_FALSE(a.orphan);
  EXPECT_TRUE(a.visible);
  const auto& b = row(*t, "tenant-b");
  EXPECT_EQ(b.effective_quota_bytes, 400u);
  EXPECT_EQ(b.charged_bytes, 0u);
  EXPECT_EQ(b.object_count, 0u);
  EXPECT_TRUE(b.visible);
  const auto& c = row(*t, "tenant-c");
  EXPECT_TRUE(c.orphan);
  EXPECT_TRUE(c.admission_closed);
  EXPECT_TRUE(c.over_quota);
  EXPECT_TRUE(c.visible);
  EXPECT_EQ(c.requested_quota_bytes, 0u);
  EXPECT_EQ(c.effective_quota_bytes, 0u);
  const auto& d = row(*t, "tenant-d");
  EXPECT_TRUE(d.orphan);
  EXPECT_FALSE(d.over_quota);
  EXPECT_FALSE(d.visible);
  EXPECT_EQ(t->total_charged_bytes, 290u);
  EXPECT_EQ(t->total_objects, 4u);
}

TEST(AccountTable, SpecWorkedExampleWithFailoverCapacity) {
  std::map<std::string, restore::TenantTally> usage = {{"tenant-a", tally(2, 250)}, {"tenant-c", tally(1, 40)}};
  std::map<std::string, std::uint64_t> policy = {{"tenant-a", 1000}, {"tenant-b", 500}};
  auto t = build_account_table(usage, policy, 0);
  ASSERT_TRUE(t.ok());
  EXPECT_TRUE(row(*t, "tenant-a").over_quota);   // 250 > 0
  EXPECT_FALSE(row(*t, "tenant-b").over_quota);  // 0 > 0 is false
  EXPECT_TRUE(row(*t, "tenant-c").over_quota);
}

TEST(AccountTable, TenantsWithoutRestoredObjectsAreLeftOut) {
  std::map<std::string, restore::TenantTally> usage = {{"dropped-all", tally(0, 0)}};
  auto t = build_account_table(usage, {}, 100);
  ASSERT_TRUE(t.ok());
  EXPECT_TRUE(t->rows.empty());
}

TEST(AccountTable, ExactlyTheMaximumChargeIsAccepted) {
  std::map<std::string, restore::TenantTally> usage = {{"t", tally(1, util::k_max_charged_bytes)}};
  auto t = build_account_table(usage, {}, 0);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->rows[0].charged_bytes, util::k_max_charged_bytes);
}

TEST(AccountTable, OneByteAboveTheMaximumRefusesToStart) {
  std::map<std::string, restore::TenantTally> usage = {{"t", tally(1, 0)}};
  usage["t"].charged_bytes = static_cast<util::u128>(util::k_max_charged_bytes) + 1;
  auto t = build_account_table(usage, {}, 0);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), util::StatusCode::refused);
  EXPECT_EQ(t.status().message(),
            "rebuilt tenant quota exceeds 2^63 - 1 bytes: tenant 't' would be charged 9223372036854775808 bytes; "
            "the master throws std::overflow_error and does not start");
}

TEST(AccountTable, InvalidTenantIdsAreMarked) {
  std::map<std::string, restore::TenantTally> usage = {{"_system", tally(1, 5)}};
  auto t = build_account_table(usage, {}, 0);
  ASSERT_TRUE(t.ok());
  EXPECT_FALSE(t->rows[0].valid_tenant_id);
}

}  // namespace
}  // namespace moonquota::quota
