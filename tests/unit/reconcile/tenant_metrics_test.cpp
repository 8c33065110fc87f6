#include "reconcile/tenant_metrics.hpp"

#include <gtest/gtest.h>

#include "support/run_tool.hpp"

namespace moonquota::reconcile {
namespace {

const char* k_block =
    "# TYPE mooncake_tenant_quota_charged_bytes gauge\n"
    "mooncake_tenant_quota_requested_bytes{tenant_id=\"a\"} 10\n"
    "mooncake_tenant_quota_effective_bytes{tenant_id=\"a\"} 10\n"
    "mooncake_tenant_quota_charged_bytes{tenant_id=\"a\"} 9223372036854775807\n"
    "mooncake_tenant_quota_admission_closed{tenant_id=\"a\"} 0\n"
    "mooncake_tenant_quota_over_quota{tenant_id=\"a\"} 1\n"
    "mooncake_tenant_quota_explicit_policy{tenant_id=\"a\"} 1\n";

TEST(TenantMetrics, GenuineInterleavedBlockMatchesTheList) {
  auto m = parse_tenant_metrics(test::read_source_file("snapshots/genuine-live/r1_quiescent_orphan/metrics.txt"));
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_TRUE(m->block_present);
  ASSERT_EQ(m->tenants.size(), 6u);
  EXPECT_EQ(m->tenants[0].tenant_id, "Team \"Q\" \\ x");
  EXPECT_EQ(m->tenants[0].charged_bytes, 46080u);
  EXPECT_EQ(m->tenants[5].tenant_id, "\xC3\xA9quipe");
  EXPECT_EQ(m->tenants[4].tenant_id, "gamma");
  EXPECT_TRUE(m->tenants[4].admission_closed);
  EXPECT_TRUE(m->tenants[4].over_quota);
  EXPECT_FALSE(m->tenants[4].has_explicit_policy);
  EXPECT_EQ(m->capacity_bytes, 10485760u);
  EXPECT_EQ(m->requested_sum_bytes, 14680064u);
  EXPECT_EQ(m->effective_sum_bytes, 10485760u);
}

TEST(TenantMetrics, PreActivationMetricsHaveNoBlock) {
  auto m = parse_tenant_metrics(
      test::read_source_file("snapshots/genuine-live/r1_quiescent_orphan/pre_activation/metrics.txt"));
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_FALSE(m->block_present);
  EXPECT_TRUE(m->tenants.empty());
}

TEST(TenantMetrics, ExactMaximumChargeAndFamiliesInAnyOrder) {
  std::string reversed = k_block;
  auto m = parse_tenant_metrics(reversed + "mooncake_tenant_quota_allocatable_capacity_bytes 5\n");
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(m->tenants[0].charged_bytes, 9223372036854775807u);
  EXPECT_EQ(m->capacity_bytes, 5u);
}

TEST(TenantMetrics, RejectsValuesThatAreNotExactUnsignedIntegers) {
  for (const char* value : {"1.5", "-1", "NaN", "+Inf", "1e3"}) {
    // Appended piece by piece: GCC 12 warns (-Warray-bounds, a known false positive) on the
    // chained operator+ once unity batches change its inlining.
    std::string text(k_block);
    text += "mooncake_tenant_quota_charged_bytes{tenant_id=\"b\"} ";
    text += value;
    text += "\n";
    auto m = parse_tenant_metrics(text);
    ASSERT_FALSE(m.ok()) << value;
    EXPECT_NE(m.status().message().find("not an exact unsigned integer"), std::string::npos);
    EXPECT_NE(m.status().message().find("line 8"), std::string::npos) << m.status().message();
  }
}

TEST(TenantMetrics, RejectsBadFlagsDuplicatesAndHugeCharges) {
  auto flag = parse_tenant_metrics(std::string(k_block) + "mooncake_tenant_quota_over_quota{tenant_id=\"b\"} 2\n");
  ASSERT_FALSE(flag.ok());
  EXPECT_NE(flag.status().message().find("not 0 or 1"), std::string::npos);
  auto dup = parse_tenant_metrics(std::string(k_block) + "mooncake_tenant_quota_over_quota{tenant_id=\"a\"} 1\n");
  ASSERT_FALSE(dup.ok());
  EXPECT_NE(dup.status().message().find("duplicate"), std::string::npos);
  auto huge = parse_tenant_metrics("mooncake_tenant_quota_charged_bytes{tenant_id=\"a\"} 9223372036854775808\n");
  ASSERT_FALSE(huge.ok());
  EXPECT_NE(huge.status().message().find("exceeds 2^63-1"), std::string::npos);
  auto unlabeled = parse_tenant_metrics("mooncake_tenant_quota_charged_bytes 1\n");
  ASSERT_FALSE(unlabeled.ok());
  EXPECT_NE(unlabeled.status().message().find("tenant_id"), std::string::npos);
}

TEST(TenantMetrics, EmptyTenantListWithTypeLinesIsAPresentBlock) {
  auto m = parse_tenant_metrics(
      "# HELP mooncake_tenant_quota_charged_bytes Tenant quota charge in bytes\n"
      "# TYPE mooncake_tenant_quota_charged_bytes gauge\n"
      "mooncake_tenant_quota_allocatable_capacity_bytes 0\n");
  ASSERT_TRUE(m.ok());
  EXPECT_TRUE(m->block_present);
  EXPECT_TRUE(m->tenants.empty());
}

TEST(TenantMetrics, MoreTenantsThanMaxTenantsAreRefusedNamingTheLine) {
  // Regression (fuzz finding F4): a /metrics of many tiny tenants grew memory ~22x its size.
  const auto text = test::read_source_file("snapshots/genuine-live/r1_quiescent_orphan/metrics.txt");
  ASSERT_TRUE(parse_tenant_metrics(text, 6).ok());
  auto refused = parse_tenant_metrics(text, 5);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), util::StatusCode::limit_exceeded);
  EXPECT_NE(refused.status().message().find(": more than 5 distinct tenants (--max-tenants raises the limit"),
            std::string::npos)
      << refused.status().message();
  EXPECT_EQ(refused.status().message().rfind("metrics line ", 0), 0u) << refused.status().message();
  std::string many;
  for (std::size_t i = 0; i <= k_default_max_tenants; ++i) {
    many += "mooncake_tenant_quota_charged_bytes{tenant_id=\"t" + std::to_string(i) + "\"} 1\n";
  }
  auto over = parse_tenant_metrics(many);
  ASSERT_FALSE(over.ok());
  EXPECT_EQ(over.status().message().rfind("metrics line 100001: more than 100000 distinct tenants", 0), 0u)
      << over.status().message();
  auto within = parse_tenant_metrics(many, k_default_max_tenants + 1);
  ASSERT_TRUE(within.ok());
  EXPECT_EQ(within->incomplete.size(), k_default_max_tenants + 1);
}

TEST(TenantMetrics, IgnoresCountersAndOtherFamilies) {
  auto m = parse_tenant_metrics(std::string(k_block) +
                                "mooncake_tenant_quota_reject_total{tenant_id=\"a\",reason=\"quota_exceeded\"} 3\n"
                                "mooncake_tenant_evict_bytes_total{tenant_id=\"a\"} 1.5\n"
                                "other_metric NaN\n");
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(m->tenants.size(), 1u);
}

// Issue 11 item 21: an older or newer master may lack a gauge for a tenant. That is not a broken
// response: the tenant is set aside with the names of the missing series, for the caller to
// compare with the tenant list.
TEST(TenantMetrics, ATenantLackingASeriesIsIncompleteNotAnError) {
  auto missing = parse_tenant_metrics(std::string(k_block) + "mooncake_tenant_quota_over_quota{tenant_id=\"b\"} 1\n");
  ASSERT_TRUE(missing.ok()) << missing.status().message();
  ASSERT_EQ(missing->incomplete.size(), 1u);
  EXPECT_EQ(missing->incomplete[0].seen.tenant_id, "b");
  EXPECT_TRUE(missing->incomplete[0].seen.over_quota);
  EXPECT_EQ(missing->incomplete[0].missing_series().size(), 5u);
  EXPECT_EQ(missing->incomplete[0].missing_series()[0], "mooncake_tenant_quota_requested_bytes");
  for (const auto& t : missing->tenants) EXPECT_NE(t.tenant_id, "b") << "an incomplete tenant is not a complete row";
}

}  // namespace
}  // namespace moonquota::reconcile
