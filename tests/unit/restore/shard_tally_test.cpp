// ShardTallyBuilder on its own (snapshot-format.md §5.3, §10, §12): duplicates, the restore
// filter counters, unsorted entries and invalid tenant ids, fed through decode_shard.
#include "restore/shard_tally.hpp"

#include <gtest/gtest.h>

#include <optional>
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

Tallied tally(const std::vector<model::ObjectRecord>& objects, std::uint32_t shard = 4,
              ChargeModel model = ChargeModel::restore, std::optional<LeaseModel> lease = std::nullopt) {
  format::SegmentTable table;
  table.add({3, 4}, {model::segment_status::ok, true});
  format::ObjectView scratch;
  ShardTallyBuilder builder;
  Tallied out;
  // The builder keeps views into the shard bytes until finish(): the buffer must outlive it.
  const std::string raw = test::shard_raw_in_order(objects);
  util::Status s = format::decode_shard(raw, shard, table, scratch, builder, out.findings);
  EXPECT_TRUE(s.ok()) << s.message();
  if (lease) {
    builder.finish(shard, model, k_now, out.tally, out.findings, *lease);
  } else {
    builder.finish(shard, model, k_now, out.tally, out.findings);  // the default lease model
  }
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

// The live model keeps what a restore erases: lease-expired objects and objects with a
// non-COMPLETE replica, charged by their COMPLETE MEMORY replicas (quota-semantics.md §2.2).
TEST(ShardTally, LiveModelKeepsExpiredAndInFlightObjects) {
  const std::vector<model::ObjectRecord> objects = {
      make_object("a", "expired", 100, {memory_replica(1, "3-4", 100)}, k_now - 1),
      make_object("a", "mixed", 30,
                  {memory_replica(2, "3-4", 30), test::disk_replica(3, 30, model::replica_status::processing)}),
      make_object("a", "writing", 7,
                  {memory_replica(4, "3-4", 7, model::replica_status::processing),
                   memory_replica(5, "3-4", 7, model::replica_status::processing)},
                  0),
      make_object("b", "moved", 9,
                  {memory_replica(6, "3-4", 9, model::replica_status::removed), memory_replica(7, "3-4", 9)})};
  auto live = tally(objects, 4, ChargeModel::live);
  const auto& a = live.tally.tenants.at("a");
  EXPECT_EQ(a.objects, 3u);
  EXPECT_TRUE(a.charged_bytes == 130);  // 100 (expired, still charged) + 30 (MEMORY COMPLETE beside DISK PROCESSING)
  EXPECT_TRUE(a.evidence.in_flight_bytes == 14);
  EXPECT_EQ(a.evidence.in_flight_objects, 1u);
  ASSERT_EQ(a.evidence.in_flight.size(), 1u);
  EXPECT_EQ(a.evidence.in_flight[0].size, 7u);
  EXPECT_EQ(a.evidence.in_flight[0].processing_memory, 2u);
  EXPECT_EQ(a.evidence.in_flight[0].put_start_time_ms, test::k_put_time_ms);
  EXPECT_EQ(live.tally.dropped.non_complete + live.tally.dropped.lease_expired, 0u);
  const auto& b = live.tally.tenants.at("b");
  EXPECT_TRUE(b.charged_bytes == 9);
  EXPECT_TRUE(b.evidence.removed_bytes == 9);

  // Every object here has a non-COMPLETE replica or an expired lease: the restore model erases
  // them all and records what they were charged.
  auto restored = tally(objects, 4, ChargeModel::restore);
  const auto& ra = restored.tally.tenants.at("a");
  EXPECT_EQ(ra.objects, 0u);
  EXPECT_TRUE(ra.charged_bytes == 0);
  EXPECT_EQ(ra.dropped.lease_expired, 1u);
  EXPECT_EQ(ra.dropped.non_complete, 2u);
  EXPECT_TRUE(ra.evidence.dropped_lease_expired_bytes == 100);
  EXPECT_TRUE(ra.evidence.dropped_non_complete_bytes == 30);
  EXPECT_TRUE(ra.evidence.in_flight_bytes == 14);  // evidence covers every decoded object in both models
  EXPECT_TRUE(restored.tally.tenants.at("b").evidence.dropped_non_complete_bytes == 9);
}

// The two lease models on the same shard (docs/accounting.md, "The two lease models"):
//   a/expired  100 B x 2 MEMORY, lease now-1   upstream: lease-expired (200 B)   keep: kept, 200 B
//   a/deadline   5 B x 1 MEMORY, lease now     upstream: lease-expired (5 B)     keep: kept, 5 B
//   a/mixed     30 B MEMORY + DISK PROCESSING  non-COMPLETE in both (30 B)
//   b/fresh      9 B x 1 MEMORY, lease now+1   kept in both, 9 B
const std::vector<model::ObjectRecord>& lease_objects() {
  static const std::vector<model::ObjectRecord> objects = {
      make_object("a", "deadline", 5, {memory_replica(1, "3-4", 5)}, k_now),
      make_object("a", "expired", 100, {memory_replica(2, "3-4", 100), memory_replica(3, "3-4", 100)}, k_now - 1),
      make_object("a", "mixed", 30,
                  {memory_replica(4, "3-4", 30), test::disk_replica(5, 30, model::replica_status::processing)}),
      make_object("b", "fresh", 9, {memory_replica(6, "3-4", 9)}, k_now + 1)};
  return objects;
}

TEST(ShardTally, UpstreamLeaseModelErasesLeasesAtOrBeforeTheRestoreTime) {
  for (auto t : {tally(lease_objects(), 4, ChargeModel::restore, LeaseModel::upstream),
                 tally(lease_objects(), 4, ChargeModel::restore)}) {  // upstream is the default
    const auto& a = t.tally.tenants.at("a");
    EXPECT_EQ(a.objects, 0u);
    EXPECT_TRUE(a.charged_bytes == 0);
    EXPECT_EQ(a.dropped.lease_expired, 2u);
    EXPECT_EQ(a.dropped.non_complete, 1u);
    EXPECT_TRUE(a.evidence.dropped_lease_expired_bytes == 205);
    EXPECT_TRUE(a.evidence.dropped_non_complete_bytes == 30);
    EXPECT_EQ(a.shards, 0u);
    EXPECT_TRUE(t.tally.tenants.at("b").charged_bytes == 9);
    EXPECT_EQ(t.tally.objects, 1u);
    EXPECT_EQ(t.tally.dropped.lease_expired, 2u);
  }
}

TEST(ShardTally, KeepLeaseModelKeepsExpiredLeasesButStillErasesNonComplete) {
  auto t = tally(lease_objects(), 4, ChargeModel::restore, LeaseModel::keep);
  const auto& a = t.tally.tenants.at("a");
  EXPECT_EQ(a.objects, 2u);
  EXPECT_TRUE(a.charged_bytes == 205);  // 100 x 2 + 5 x 1
  EXPECT_EQ(a.shards, 1u);
  EXPECT_EQ(a.dropped.lease_expired, 0u);
  EXPECT_TRUE(a.evidence.dropped_lease_expired_bytes == 0);
  EXPECT_EQ(a.dropped.non_complete, 1u);
  EXPECT_TRUE(a.evidence.dropped_non_complete_bytes == 30);
  EXPECT_TRUE(t.tally.tenants.at("b").charged_bytes == 9);
  EXPECT_EQ(t.tally.objects, 3u);
  EXPECT_EQ(t.tally.dropped.lease_expired, 0u);
  EXPECT_EQ(t.tally.dropped.non_complete, 1u);
}

// The live model has no lease filter: the lease model changes nothing there.
TEST(ShardTally, LeaseModelDoesNotChangeTheLiveModel) {
  auto up = tally(lease_objects(), 4, ChargeModel::live, LeaseModel::upstream);
  auto keep = tally(lease_objects(), 4, ChargeModel::live, LeaseModel::keep);
  EXPECT_TRUE(up.tally.tenants.at("a").charged_bytes == 235);  // 200 + 5 + 30 (the MEMORY COMPLETE of mixed)
  EXPECT_TRUE(keep.tally.tenants.at("a").charged_bytes == 235);
  EXPECT_EQ(up.tally.objects, 4u);
  EXPECT_EQ(keep.tally.objects, 4u);
}

}  // namespace
}  // namespace moonquota::restore
