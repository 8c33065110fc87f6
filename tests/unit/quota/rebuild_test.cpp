#include "quota/rebuild.hpp"

#include <gtest/gtest.h>

namespace moonquota::quota {
namespace {

TEST(Capacity, ParsesTheThreeForms) {
  EXPECT_EQ(parse_capacity("auto")->mode, CapacityMode::automatic);
  EXPECT_EQ(parse_capacity("failover")->mode, CapacityMode::failover);
  auto n = parse_capacity("18446744073709551615");
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(n->mode, CapacityMode::fixed_bytes);
  EXPECT_EQ(n->bytes, 18446744073709551615ULL);
}

TEST(Capacity, RejectsAnythingElse) {
  for (const char* bad : {"", "-1", "1GB", "18446744073709551616", " 5", "Auto"}) {
    auto r = parse_capacity(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().code(), util::StatusCode::invalid_argument);
  }
}

TEST(Rebuild, GenuineStoreWithoutPolicyMakesEveryTenantAnOrphan) {
  RebuildRequest request;
  request.selection.store_dir = std::string(MOONQUOTA_SOURCE_DIR) + "/snapshots/genuine/s1_single_segment_basic/store";
  request.restore.restore_time_ms = 1795953102553;
  auto r = run_rebuild(request);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->table.rows.size(), 2u);
  for (const auto& row : r->table.rows) {
    EXPECT_TRUE(row.orphan);
    EXPECT_TRUE(row.admission_closed);
    EXPECT_TRUE(row.over_quota);
  }
  EXPECT_EQ(r->table.capacity_bytes, 8388608u);
}

TEST(Rebuild, MissingStoreIsNotFound) {
  RebuildRequest request;
  request.selection.store_dir = "/nonexistent/moonquota/store";
  auto r = run_rebuild(request);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), util::StatusCode::not_found);
}

}  // namespace
}  // namespace moonquota::quota
