// --explain (restore/tenant_explain.hpp) through the rebuild: for every tenant of the sample store,
// under the restore model and the live model, its parts add up to what the account table and the
// drop table say, and the largest objects come largest first.
#include <gtest/gtest.h>

#include <algorithm>

#include "quota/rebuild.hpp"
#include "support/local_store.hpp"
#include "support/snapshot_test_support.hpp"

namespace moonquota::quota {
namespace {

RebuildRequest sample_request(restore::ChargeModel model, const std::string& tenant, std::size_t top) {
  RebuildRequest request;
  request.selection.store_dir = test::source_path("snapshots/sample/store");
  request.policy_file = test::source_path("snapshots/sample/policy.yaml");
  request.restore.restore_time_ms = 1787375520123;  // created_at: some leases have ended
  request.restore.charge_model = model;
  request.restore.threads = 2;
  request.explain = tenant;
  request.explain_top = top;
  return request;
}

void expect_largest_first(const restore::ExplainCategory& c, std::size_t top) {
  EXPECT_EQ(c.largest.size(), std::min<std::uint64_t>(c.objects, top));
  for (std::size_t i = 1; i < c.largest.size(); ++i) EXPECT_GE(c.largest[i - 1].bytes, c.largest[i].bytes) << i;
}

TEST(RebuildExplain, EachTenantsPartsAddUpToItsRowAndDrops) {
  auto plain = run_rebuild(test::local_files(), sample_request(restore::ChargeModel::restore, "acme-llm", 3));
  ASSERT_TRUE(plain.ok()) << plain.status().message();
  ASSERT_GE(plain->table.rows.size(), 4u);
  for (const auto& row : plain->table.rows) {
    for (const auto model : {restore::ChargeModel::restore, restore::ChargeModel::live}) {
      auto r = run_rebuild(test::local_files(), sample_request(model, row.tenant_id, 3));
      ASSERT_TRUE(r.ok()) << r.status().message();
      ASSERT_TRUE(r->explain.has_value());
      const restore::TenantExplanation& e = *r->explain;
      const auto own = std::find_if(r->table.rows.begin(), r->table.rows.end(),
                                    [&](const AccountRow& x) { return x.tenant_id == row.tenant_id; });
      ASSERT_NE(own, r->table.rows.end()) << row.tenant_id;
      EXPECT_EQ(e.charged.bytes, own->charged_bytes) << row.tenant_id;
      EXPECT_EQ(e.charged.objects, own->object_count) << row.tenant_id;
      expect_largest_first(e.charged, 3);
      expect_largest_first(e.in_flight, 3);
      if (model == restore::ChargeModel::live) {
        EXPECT_EQ(e.dropped_non_complete.objects + e.dropped_lease_expired.objects, 0u) << row.tenant_id;
        continue;
      }
      const auto drops = r->drops.tenants.find(row.tenant_id);
      const TenantDrops none;
      const TenantDrops& d = drops == r->drops.tenants.end() ? none : drops->second;
      EXPECT_EQ(e.dropped_non_complete.objects, d.non_complete.objects) << row.tenant_id;
      EXPECT_EQ(e.dropped_non_complete.bytes, d.non_complete.bytes) << row.tenant_id;
      EXPECT_EQ(e.dropped_lease_expired.objects, d.lease_expired.objects) << row.tenant_id;
      EXPECT_EQ(e.dropped_lease_expired.bytes, d.lease_expired.bytes) << row.tenant_id;
      EXPECT_EQ(e.undecodable, d.undecodable) << row.tenant_id;
    }
  }
}

TEST(RebuildExplain, ATenantWithNoObjectsHasEmptyParts) {
  auto r = run_rebuild(test::local_files(), sample_request(restore::ChargeModel::restore, "no-such-tenant", 10));
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_TRUE(r->explain.has_value());
  EXPECT_EQ(r->explain->charged.objects + r->explain->in_flight.objects + r->explain->dropped_non_complete.objects +
                r->explain->dropped_lease_expired.objects,
            0u);
}

TEST(RebuildExplain, WithoutTheFlagNothingIsExplained) {
  RebuildRequest request = sample_request(restore::ChargeModel::restore, "acme-llm", 3);
  request.explain.reset();
  auto r = run_rebuild(test::local_files(), request);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_FALSE(r->explain.has_value());
}

}  // namespace
}  // namespace moonquota::quota
