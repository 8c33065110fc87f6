// Statistics and listings over the committed sample store: totals agree with the restore model
// and with the store's README, and results do not depend on the thread count.
#include "inspect/snapshot_stats.hpp"

#include <gtest/gtest.h>

#include "inspect/object_listing.hpp"
#include "inspect/snapshot_select.hpp"
#include "support/local_store.hpp"
#include "support/snapshot_test_support.hpp"

namespace moonquota::inspect {
namespace {

constexpr std::uint64_t k_restore_time = 1787375520123ULL;

SelectedSnapshot sample() {
  restore::StoreSelection sel;
  sel.store_dir = test::source_path("snapshots/sample/store");
  auto s = select_snapshot(test::local_files(), sel);
  EXPECT_TRUE(s.ok()) << s.status().message();
  return *s;
}

StatsScan stats(unsigned threads, std::size_t top = 5) {
  const auto sel = sample();
  restore::ScanOptions options;
  options.restore_time_ms = k_restore_time;
  StatsOptions stats_options;
  stats_options.top_objects = top;
  auto scan = scan_stats(test::local_files(), sel.snapshot_dir, sel.snapshot_id, options, stats_options, threads);
  EXPECT_TRUE(scan.ok()) << scan.status().message();
  return std::move(scan).value();
}

TEST(SnapshotStats, SampleTotalsMatchTheRestoreModel) {
  const auto s = stats(1);
  EXPECT_EQ(s.stats.entries, 2898u);
  EXPECT_EQ(s.stats.decoded, 2898u);
  EXPECT_EQ(s.snapshot.restored_objects, 2891u);
  EXPECT_EQ(s.snapshot.dropped.non_complete, 3u);
  EXPECT_EQ(s.snapshot.dropped.lease_expired, 4u);
  EXPECT_FALSE(s.snapshot.master_rejection.has_value());
  std::uint64_t per_shard = 0;
  for (auto n : s.stats.shard_entries) per_shard += n;
  EXPECT_EQ(per_shard, 2898u);
  std::uint64_t tenant_objects = 0;
  for (const auto& [t, u] : s.stats.tenants) tenant_objects += u.objects;
  EXPECT_EQ(tenant_objects, 2898u);
  EXPECT_EQ(s.stats.tenants.count("cold-archive"), 1u);
  EXPECT_EQ(s.stats.tenants.at("cold-archive").memory_bytes, 0u);
  EXPECT_GT(s.stats.tenants.at("cold-archive").disk_bytes, 0u);
}

TEST(SnapshotStats, ThreadCountDoesNotChangeResults) {
  const auto one = stats(1);
  const auto three = stats(3);
  EXPECT_EQ(one.stats.replicas.size(), three.stats.replicas.size());
  for (const auto& [k, v] : one.stats.replicas) {
    EXPECT_EQ(v.replicas, three.stats.replicas.at(k).replicas);
    EXPECT_EQ(v.bytes, three.stats.replicas.at(k).bytes);
  }
  const auto a = one.stats.top_objects.sorted();
  const auto b = three.stats.top_objects.sorted();
  ASSERT_EQ(a.size(), 5u);
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i].key, b[i].key);
  EXPECT_GE(a[0].size, a[4].size);
}

TEST(SnapshotStats, HistogramBuckets) {
  std::array<std::uint64_t, util::k_metadata_shards> entries{};
  entries[0] = 1;
  entries[1] = 2;
  entries[2] = 3;
  entries[3] = 4;
  const auto h = shard_fill_histogram(entries);
  ASSERT_EQ(h.size(), 4u);
  EXPECT_EQ(h[0], 1020u);  // empty shards
  EXPECT_EQ(h[1], 1u);     // 1
  EXPECT_EQ(h[2], 2u);     // 2-3
  EXPECT_EQ(h[3], 1u);     // 4-7
}

std::vector<std::string> listing(unsigned threads, const ObjectFilter& filter, std::uint64_t limit) {
  const auto sel = sample();
  std::vector<std::string> keys;
  auto r = list_objects(test::local_files(), sel.snapshot_dir, sel.snapshot_id, {}, filter, limit, threads,
                        [&](const ListedObject& o) { keys.push_back(o.record.tenant_id + "/" + o.record.key); });
  EXPECT_TRUE(r.ok()) << r.status().message();
  return keys;
}

TEST(ObjectListing, OrderIsIndependentOfThreadsAndFiltersApply) {
  ObjectFilter filter;
  filter.tenant_id = "cold-archive";
  const auto one = listing(1, filter, 0);
  const auto four = listing(4, filter, 0);
  EXPECT_EQ(one, four);
  ASSERT_FALSE(one.empty());
  for (const auto& k : one) EXPECT_EQ(k.rfind("cold-archive/", 0), 0u);
  filter.replica_type = model::replica_type::memory;
  EXPECT_TRUE(listing(2, filter, 0).empty());  // disk-only tenant
}

TEST(ObjectListing, LimitStopsTheListing) {
  ObjectFilter all;
  const auto first = listing(3, all, 7);
  EXPECT_EQ(first.size(), 7u);
  const auto full = listing(1, all, 0);
  EXPECT_EQ(full.size(), 2898u);
  EXPECT_TRUE(std::equal(first.begin(), first.end(), full.begin()));
}

}  // namespace
}  // namespace moonquota::inspect
