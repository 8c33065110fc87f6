// restore/survival on its own: each object counted into the first point at which the restore
// drops it, kept/dropped as prefix sums, both lease models, duplicate resolution shared with
// ShardTallyBuilder, the later blob of a shard index winning. Expected values worked out by hand
// in the comments.
#include "restore/survival.hpp"

#include <gtest/gtest.h>

#include <string>

#include "support/local_store.hpp"
#include "support/snapshot_test_support.hpp"

namespace moonquota::restore {
namespace {

using test::disk_replica;
using test::make_object;
using test::memory_replica;

constexpr auto k_processing = model::replica_status::processing;

// Feeds one raw shard to `analyzer` as the reader would (begin_shard, entries, end_shard).
void feed(SurvivalAnalyzer& analyzer, const std::vector<model::ObjectRecord>& objects, std::uint32_t shard,
          std::uint64_t sequence) {
  format::SegmentTable table;
  table.add({3, 4}, {model::segment_status::ok, true});
  format::ObjectView scratch;
  model::Findings findings;
  const std::string raw = test::shard_raw_in_order(objects);
  const ShardContext context{shard, sequence, raw};
  analyzer.begin_shard(context);
  ASSERT_TRUE(format::decode_shard(raw, shard, table, scratch, analyzer, findings).ok());
  EXPECT_TRUE(analyzer.end_shard(context));
}

// Points 1000, 2000, 5000 ms. Tenant a:
//   k1 size 100, 2 COMPLETE MEMORY, lease 2000 -> kept at 1000, dropped from 2000 (2000 >= 2000); charge 200
//   k2 size 10, 1 MEMORY + 1 DISK, lease 5001  -> kept at every point; charge 10
//   k3 size 7, MEMORY PROCESSING               -> dropped at every point; charge 0
// Tenant b:
//   k  size 50, DISK only, lease 1000          -> dropped from 1000 (the first point); charge 0
std::vector<model::ObjectRecord> objects() {
  return {make_object("a", "k1", 100, {memory_replica(1, "3-4", 100), memory_replica(2, "3-4", 100)}, 2000),
          make_object("a", "k2", 10, {memory_replica(3, "3-4", 10), disk_replica(4, 10)}, 5001),
          make_object("a", "k3", 7, {memory_replica(5, "3-4", 7, k_processing)}, 9000),
          make_object("b", "k", 50, {disk_replica(6, 50)}, 1000)};
}

const TenantSurvival& only(SurvivalAnalyzer& analyzer, std::uint32_t shard, const std::string& tenant) {
  return analyzer.slots().at(shard).tenants.at(tenant);
}

void expect_amount(const SurvivalAmount& a, std::uint64_t objects, std::uint64_t bytes, std::uint64_t charged) {
  EXPECT_EQ(a.objects, objects);
  EXPECT_TRUE(a.bytes == bytes) << static_cast<std::uint64_t>(a.bytes);
  EXPECT_TRUE(a.charged_bytes == charged) << static_cast<std::uint64_t>(a.charged_bytes);
}

TEST(Survival, UpstreamCountsEachObjectIntoItsFirstDropPoint) {
  SurvivalOptions options{{1000, 2000, 5000}, LeaseModel::upstream};
  SurvivalAnalyzer analyzer(options, true);
  feed(analyzer, objects(), 7, 0);
  const auto& a = only(analyzer, 7, "a");
  ASSERT_EQ(a.first_dropped_at.size(), 4u);
  expect_amount(a.first_dropped_at[0], 1, 7, 0);      // k3
  expect_amount(a.first_dropped_at[1], 1, 100, 200);  // k1
  expect_amount(a.first_dropped_at[2], 0, 0, 0);
  expect_amount(a.first_dropped_at[3], 1, 10, 10);  // k2, never dropped
  expect_amount(a.kept_at(0), 2, 110, 210);
  expect_amount(a.dropped_at(0), 1, 7, 0);
  expect_amount(a.kept_at(1), 1, 10, 10);
  expect_amount(a.dropped_at(1), 2, 107, 200);
  expect_amount(a.kept_at(2), 1, 10, 10);
  expect_amount(a.dropped_at(2), 2, 107, 200);
  const auto& b = only(analyzer, 7, "b");
  expect_amount(b.kept_at(0), 0, 0, 0);
  expect_amount(b.dropped_at(0), 1, 50, 0);
}

TEST(Survival, KeepModelDropsOnlyNonComplete) {
  SurvivalOptions options{{1000, 2000, 5000}, LeaseModel::keep};
  SurvivalAnalyzer analyzer(options, true);
  feed(analyzer, objects(), 7, 0);
  for (std::size_t p = 0; p < 3; ++p) {
    expect_amount(only(analyzer, 7, "a").kept_at(p), 2, 110, 210);
    expect_amount(only(analyzer, 7, "a").dropped_at(p), 1, 7, 0);
    expect_amount(only(analyzer, 7, "b").kept_at(p), 1, 50, 0);
  }
}

TEST(Survival, FirstDropPointIsTheFirstPointAtOrAfterTheLease) {
  SurvivalOptions options{{1000, 2000, 2000, 5000}, LeaseModel::upstream};
  auto entry = [](std::uint64_t lease, bool complete) {
    ShardTallyBuilder::Entry e;
    e.decoded = true;
    e.all_complete = complete;
    e.lease_timeout_ms = lease;
    return e;
  };
  EXPECT_EQ(first_drop_point(entry(0, true), options), 0u);     // 1000 >= 0
  EXPECT_EQ(first_drop_point(entry(1000, true), options), 0u);  // exactly at the point: dropped
  EXPECT_EQ(first_drop_point(entry(1001, true), options), 1u);
  EXPECT_EQ(first_drop_point(entry(2000, true), options), 1u);
  EXPECT_EQ(first_drop_point(entry(5000, true), options), 3u);
  EXPECT_EQ(first_drop_point(entry(5001, true), options), 4u);  // kept at every point
  EXPECT_EQ(first_drop_point(entry(5001, false), options), 0u);
  options.lease_model = LeaseModel::keep;
  EXPECT_EQ(first_drop_point(entry(0, true), options), 4u);
  EXPECT_EQ(first_drop_point(entry(0, false), options), 0u);
}

// The duplicate rule of ShardTallyBuilder::finish: the first decoded entry keeps its replicas
// (2 MEMORY, size 30: charge 60), the last one's lease (1500) decides: kept at 1000, dropped at 2000.
TEST(Survival, DuplicateKeysAreResolvedLikeTheTally) {
  SurvivalOptions options{{1000, 2000}, LeaseModel::upstream};
  SurvivalAnalyzer analyzer(options, true);
  feed(analyzer,
       {make_object("a", "k", 30, {memory_replica(1, "3-4", 30), memory_replica(2, "3-4", 30)}, 9000),
        make_object("a", "k", 99, {memory_replica(3, "3-4", 99)}, 1500)},
       2, 0);
  const auto& a = only(analyzer, 2, "a");
  expect_amount(a.kept_at(0), 1, 30, 60);
  expect_amount(a.dropped_at(1), 1, 30, 60);
}

// Two blobs of shard 5: the later one (sequence 9) wins whichever arrives first.
TEST(Survival, TheLaterBlobOfAShardWins) {
  SurvivalOptions options{{1000}, LeaseModel::upstream};
  SurvivalAnalyzer analyzer(options, true);
  feed(analyzer, {make_object("late", "k", 5, {memory_replica(1, "3-4", 5)})}, 5, 9);
  feed(analyzer, {make_object("early", "k", 6, {memory_replica(2, "3-4", 6)})}, 5, 3);
  ASSERT_EQ(analyzer.slots().at(5).tenants.size(), 1u);
  expect_amount(only(analyzer, 5, "late").kept_at(0), 1, 5, 5);
}

// Through the reader: two blobs of shard 9 (the master keeps the second: "second", 70 B) and
// shard 2; the scan is read again with shard slots, and the first blob is not counted.
TEST(Survival, ScanWithADuplicateShardBlobCountsTheLastOne) {
  test::TempDir tmp;
  const std::string id = "20260822_051200_123";
  const auto shards = test::metadata_file_bytes(
      {{9, test::shard_raw_in_order({make_object("t", "first", 10, {memory_replica(1, "3-4", 10)})})},
       {2, test::shard_raw_in_order({make_object("t", "other", 5, {memory_replica(3, "3-4", 5)}, 1500)})},
       {9, test::shard_raw_in_order({make_object("t", "second", 70, {memory_replica(2, "3-4", 70)})})}});
  test::write_snapshot(tmp.path(), id,
                       test::snapshot_files(id, shards, test::make_segments_payload({{"3-4", "seg-a"}})));
  for (unsigned threads : {1U, 2U}) {
    auto scan = scan_survival(test::local_files(), (tmp.path() / id).string(), id, ScanOptions{},
                              {{1000, 2000}, LeaseModel::upstream}, threads);
    ASSERT_TRUE(scan.ok()) << scan.status().message();
    EXPECT_EQ(scan->snapshot.duplicate_shard_blobs, 1u);
    const auto& t = scan->tenants.at("t");
    expect_amount(t.kept_at(0), 2, 75, 75);  // second + other (lease 1500 > 1000)
    expect_amount(t.kept_at(1), 1, 70, 70);  // other dropped at 2000
    expect_amount(t.dropped_at(1), 1, 5, 5);
  }
}

TEST(Survival, LeaseModelNames) {
  EXPECT_EQ(parse_lease_model("keep"), LeaseModel::keep);
  EXPECT_EQ(parse_lease_model("upstream"), LeaseModel::upstream);
  EXPECT_FALSE(parse_lease_model("Keep"));
  EXPECT_STREQ(lease_model_name(LeaseModel::keep), "keep");
}

}  // namespace
}  // namespace moonquota::restore
