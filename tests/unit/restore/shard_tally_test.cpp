// ShardTallyBuilder on its own (snapshot-format.md §5.3, §10, §12): duplicates, the restore
// filter counters, unsorted entries and invalid tenant ids, fed through decode_shard.
#include "restore/shard_tally.hpp"

#include <gtest/gtest.h>

#include <string>

#include "support/snapshot_test_support.hpp"

namespace moonquota::restore {
namespace {

using test::make_object;
using test::memory_replica;

constexpr std::uint64_t k_now = 1800000000000ULL;

struct Tallied {
  ShardTally tally;
  model::Findings findings;
};

Tallied tally(const std::vector<model::ObjectRecord>& objects, std::uint32_t shard = 4) {
  format::SegmentTable table;
  table.add({3, 4}, {model::segment_status::ok, true});
  format::ObjectView scratch;
  ShardTallyBuilder builder;
  Tallied out;
  // The builder keeps views into the shard bytes until finish(): the buffer must outlive it.
  const std::string raw = test::shard_raw_in_order(objects);
  util::Status s = format::decode_shard(raw, shard, table, scratch, builder, out.findings);
  EXPECT_TRUE(s.ok()) << s.message();
  builder.finish(shard, k_now, out.tally, out.findings);
  return out;
}

TEST(ShardTally, ChargesSizeTimesCompleteMemoryReplicas) {
  auto t = tally(
      {make_object("a", "k1", 100,
                   {memory_replica(1, "3-4", 100), memory_replica(2, "3-4", 100), test::disk_replica(3, 100)}),
       make_object("a", "k2", 7, {memory_replica(4, "3-4", 7)}), make_object("b", "k", 5, {test::disk_replica(5, 5)})});
  EXPECT_EQ(t.tally.objects, 3u);
  EXPECT_TRUE(t.tally.tenants.at("a").charged_bytes == 207);
  EXPECT_EQ(t.tally.tenants.at("a").objects, 2u);
  EXPECT_EQ(t.tally.tenants.at("a").shards, 1u);
  EXPECT_TRUE(t.tally.tenants.at("b").charged_bytes == 0);
  EXPECT_TRUE(t.findings.empty());
}

TEST(ShardTally, TenantWithOnlyDroppedObjectsIsKeptWithZeroShards) {
  auto t = tally({make_object("gone", "k", 1, {memory_replica(1, "3-4", 1)}, k_now)});
  ASSERT_EQ(t.tally.tenants.count("gone"), 1u);
  EXPECT_EQ(t.tally.tenants.at("gone").objects, 0u);
  EXPECT_EQ(t.tally.tenants.at("gone").shards, 0u);
  EXPECT_EQ(t.tally.dropped.lease_expired, 1u);
}

TEST(ShardTally, UnsortedEntriesAreReportedAndDuplicatesStillFound) {
  auto t = tally({make_object("b", "k", 10, {memory_replica(1, "3-4", 10)}, k_now - 1),
                  make_object("a", "k", 1, {memory_replica(2, "3-4", 1)}),
                  make_object("b", "k", 99, {memory_replica(3, "3-4", 99)}, k_now + 1)});
  EXPECT_TRUE(test::has_finding(t.findings, "entries are not sorted by (tenant, key)"));
  EXPECT_TRUE(test::has_finding(t.findings, "duplicate entry for tenant 'b' key 'k' (2 entries"));
  // Both in fields: the rule and the shard (4), no entry (they are about the shard).
  std::vector<std::string> rules;
  for (const auto& f : t.findings) {
    rules.push_back(f.rule);
    EXPECT_EQ(f.location, "shard 4");
    EXPECT_EQ(f.shard, 4u);
    EXPECT_FALSE(f.entry.has_value());
  }
  EXPECT_EQ(rules, (std::vector<std::string>{k_rule_unsorted_entries, k_rule_duplicate_key}));
  // File order decides "first": the b/k entry with size 10 keeps its replicas, the later lease wins.
  EXPECT_TRUE(t.tally.tenants.at("b").charged_bytes == 10);
  EXPECT_EQ(t.tally.objects, 2u);
}

TEST(ShardTally, InvalidTenantIdsAreRestoredWithAWarning) {
  auto t = tally({make_object("_system", "k", 3, {memory_replica(1, "3-4", 3)}),
                  make_object(std::string("ctl\x01"), "k", 4, {memory_replica(2, "3-4", 4)})});
  EXPECT_EQ(t.tally.objects, 2u);
  EXPECT_TRUE(t.tally.tenants.at("_system").charged_bytes == 3);
  EXPECT_TRUE(test::has_finding(t.findings, "tenant '_system' is not a valid tenant id"));
  EXPECT_TRUE(
      test::has_finding(t.findings, "is not a valid tenant id: restored and charged, but no request can reach it"));
}

TEST(ShardTally, ChargeOfOneObjectSaturatesInsteadOfWrapping) {
  auto t =
      tally({make_object("t", "k", ~std::uint64_t{0}, {memory_replica(1, "3-4", 1), memory_replica(2, "3-4", 1)})});
  EXPECT_TRUE(t.tally.tenants.at("t").charged_bytes == ~std::uint64_t{0});
}

}  // namespace
}  // namespace moonquota::restore
