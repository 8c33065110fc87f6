// restore/promote_survival on the two golden stores forged for it (snapshots/survival-promote and
// snapshots/survival-promote-dup; their README.md works the tables out by hand). C = created_at =
// 1795953600000.
#include "restore/promote_survival.hpp"

#include <gtest/gtest.h>

#include <string>

#include "support/local_store.hpp"
#include "support/snapshot_test_support.hpp"

namespace moonquota::restore {
namespace {

constexpr std::uint64_t k_c = 1795953600000;

struct Store {
  const char* dir;
  const char* cluster;
};
constexpr Store k_overlap{"snapshots/survival-promote", "prod-s"};
constexpr Store k_dup{"snapshots/survival-promote-dup", "prod-d"};

util::Result<PromoteSurvival> run(const Store& store, std::vector<std::uint64_t> delays_ms,
                                  LeaseModel lease = LeaseModel::upstream, unsigned threads = 2) {
  StoreSelection selection;
  selection.store_dir = test::source_path(std::string(store.dir) + "/store");
  selection.cluster_id = store.cluster;
  source::OpLogSelection oplog;
  oplog.file = test::source_path(std::string(store.dir) + "/oplog.jsonl");
  RestoreOptions options;
  options.threads = threads;
  SurvivalOptions survival;
  survival.lease_model = lease;
  for (auto d : delays_ms) survival.points_ms.push_back(k_c + d);
  return survive_promotion(test::local_files(), selection, oplog, options, ReplayOptions{}, survival);
}

void expect_amount(const std::map<std::string, SurvivalAmount, std::less<>>& amounts, const std::string& tenant,
                   std::uint64_t objects, std::uint64_t bytes, std::uint64_t charged) {
  auto it = amounts.find(tenant);
  if (objects == 0 && bytes == 0 && charged == 0 && it == amounts.end()) return;
  ASSERT_NE(it, amounts.end()) << tenant;
  EXPECT_EQ(it->second.objects, objects) << tenant;
  EXPECT_TRUE(it->second.bytes == bytes) << tenant << " bytes " << static_cast<std::uint64_t>(it->second.bytes);
  EXPECT_TRUE(it->second.charged_bytes == charged)
      << tenant << " charged " << static_cast<std::uint64_t>(it->second.charged_bytes);
}

// Before 5 s the snapshot's b2 (lease C+5s) and the OpLog's c1 hold the same memory range: the
// promotion fails and the master serves EMPTY metadata. At 5 s b2 is gone (5 s >= its lease).
TEST(PromoteSurvival, AnOverlapWithAnExpiringObjectEmptiesThePromotionUntilItsLeaseEnds) {
  auto s = run(k_overlap, {0, 4999, 5000, 10000, 60000, 3600000});
  ASSERT_TRUE(s.ok()) << s.status().message();
  ASSERT_EQ(s->points.size(), 6u);
  EXPECT_FALSE(s->per_point_runs);
  for (std::size_t p : {0, 1}) {
    EXPECT_TRUE(s->points[p].starts_empty);
    EXPECT_NE(s->points[p].validation_failure.find("overlap"), std::string::npos) << s->points[p].validation_failure;
    EXPECT_TRUE(s->points[p].kept.empty());
  }
  // Always dropped: a3 (size 0) and c2 (PROCESSING: 500 bytes, charge 0).
  const auto& at0 = s->points[0];
  expect_amount(at0.dropped, "t-a", 1, 0, 0);
  expect_amount(at0.dropped, "t-c", 1, 500, 0);
  expect_amount(at0.dropped, "t-b", 0, 0, 0);
  // 4999 ms: a2 (lease C+3s) dropped too, though the OpLog PUTs it again.
  expect_amount(s->points[1].dropped, "t-a", 2, 2000, 2000);
  // 5 s: held a1 (1000) + a2 from the OpLog (2000); b3 (6000, 2 MEMORY: 12000); c1 from the OpLog (3000).
  const auto& at5 = s->points[2];
  EXPECT_FALSE(at5.starts_empty) << at5.validation_failure;
  EXPECT_TRUE(at5.bootstrap_loaded);
  expect_amount(at5.kept, "t-a", 2, 3000, 3000);
  expect_amount(at5.kept, "t-b", 1, 6000, 12000);
  expect_amount(at5.kept, "t-c", 1, 3000, 3000);
  expect_amount(at5.dropped, "t-b", 1, 3000, 3000);
  // 10 s: a1 (lease C+10s) dropped exactly at its deadline.
  expect_amount(s->points[3].kept, "t-a", 1, 2000, 2000);
  expect_amount(s->points[3].dropped, "t-a", 3, 3000, 3000);
  // 1 m: b3 gone; t-b holds nothing (b1 was REMOVEd by the OpLog).
  expect_amount(s->points[4].kept, "t-b", 0, 0, 0);
  expect_amount(s->points[4].dropped, "t-b", 2, 9000, 15000);
  // 1 h: the bootstrap drops b1 as well (the OpLog's REMOVE then erases nothing).
  expect_amount(s->points[5].dropped, "t-b", 3, 13000, 19000);
  expect_amount(s->points[5].kept, "t-a", 1, 2000, 2000);
  expect_amount(s->points[5].kept, "t-c", 1, 3000, 3000);
  EXPECT_EQ(s->outcome.replay.first_expected, 1u);
  EXPECT_EQ(s->outcome.replay.applied_seq, 4u);
}

// Leases ignored: b2 never leaves, so every point fails the promotion.
TEST(PromoteSurvival, KeepModelNeverDropsForLeases) {
  auto s = run(k_overlap, {0, 3600000}, LeaseModel::keep);
  ASSERT_TRUE(s.ok()) << s.status().message();
  for (const auto& p : s->points) {
    EXPECT_TRUE(p.starts_empty);
    expect_amount(p.dropped, "t-a", 1, 0, 0);
    expect_amount(p.dropped, "t-b", 0, 0, 0);
  }
}

// t-d/dup in two shards: a standby that keeps both fails its load, starts EMPTY and replays from
// sequence 1 (only t-e/e1, 4000). From 2 s the copy with the 2 s lease is dropped first, the load
// succeeds: dup (200) and other (300) are held. At 1 h both leases are over.
TEST(PromoteSurvival, ABootstrapThatDependsOnTheInstantRunsEachPointOnItsOwn) {
  for (unsigned threads : {1U, 2U}) {
    auto s = run(k_dup, {0, 1999, 2000, 3600000}, LeaseModel::upstream, threads);
    ASSERT_TRUE(s.ok()) << s.status().message();
    EXPECT_TRUE(s->per_point_runs);
    ASSERT_EQ(s->points.size(), 4u);
    for (std::size_t p : {0, 1}) {
      EXPECT_FALSE(s->points[p].bootstrap_loaded);
      EXPECT_NE(s->points[p].bootstrap_failure.find("duplicate object"), std::string::npos);
      EXPECT_TRUE(s->points[p].dropped.empty());  // a failed load reports no partial drops
      expect_amount(s->points[p].kept, "t-e", 1, 4000, 4000);
      expect_amount(s->points[p].kept, "t-d", 0, 0, 0);
    }
    EXPECT_TRUE(s->points[2].bootstrap_loaded) << s->points[2].bootstrap_failure;
    expect_amount(s->points[2].kept, "t-d", 2, 500, 500);
    expect_amount(s->points[2].dropped, "t-d", 1, 100, 100);
    expect_amount(s->points[3].kept, "t-d", 0, 0, 0);
    expect_amount(s->points[3].dropped, "t-d", 3, 600, 600);
    expect_amount(s->points[3].kept, "t-e", 1, 4000, 4000);
  }
}

// With leases ignored the duplicate fails every bootstrap: no per-point runs needed.
TEST(PromoteSurvival, KeepModelWithADuplicateFailsEveryBootstrap) {
  auto s = run(k_dup, {0, 3600000}, LeaseModel::keep);
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_FALSE(s->per_point_runs);
  for (const auto& p : s->points) {
    EXPECT_FALSE(p.bootstrap_loaded);
    expect_amount(p.kept, "t-e", 1, 4000, 4000);
    expect_amount(p.kept, "t-d", 0, 0, 0);
  }
}

TEST(PromoteSurvival, MissingOpLogFileIsAnError) {
  StoreSelection selection;
  selection.store_dir = test::source_path("snapshots/survival-promote/store");
  selection.cluster_id = "prod-s";
  source::OpLogSelection oplog;
  oplog.file = test::source_path("snapshots/survival-promote/no-such-oplog.jsonl");
  SurvivalOptions survival;
  survival.points_ms = {k_c};
  auto s = survive_promotion(test::local_files(), selection, oplog, RestoreOptions{}, ReplayOptions{}, survival);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("no-such-oplog.jsonl"), std::string::npos) << s.status().message();
}

}  // namespace
}  // namespace moonquota::restore
