// ShardTallyBuilder on its own (snapshot-format.md §5.3, §10, §12): duplicates, the restore
// filter counters, unsorted entries and invalid tenant ids, fed through decode_shard.
#include "restore/shard_tally.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "support/snapshot_test_support.hpp"

namespace moonquota::restore {
namespace {

using test::make_object;
using test::memory_replica;

constexpr std::uint64_t k_tally_restore_time_ms = 1800000000000ULL;

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
    builder.finish(shard, model, k_tally_restore_time_ms, out.tally, out.findings, *lease);
  } else {
    builder.finish(shard, model, k_tally_restore_time_ms, out.tally, out.findings);  // the default lease model
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
  auto t = tally({make_object("gone", "k", 1, {memory_replica(1, "3-4", 1)}, k_tally_restore_time_ms)});
  ASSERT_EQ(t.tally.tenants.count("gone"), 1u);
  EXPECT_EQ(t.tally.tenants.at("gone").objects, 0u);
  EXPECT_EQ(t.tally.tenants.at("gone").shards, 0u);
  EXPECT_EQ(t.tally.dropped.lease_expired, 1u);
}

TEST(ShardTally, UnsortedEntriesAreReportedAndDuplicatesStillFound) {
  auto t = tally({make_object("b", "k", 10, {memory_replica(1, "3-4", 10)}, k_tally_restore_time_ms - 1),
                  make_object("a", "k", 1, {memory_replica(2, "3-4", 1)}),
                  make_object("b", "k", 99, {memory_replica(3, "3-4", 99)}, k_tally_restore_time_ms + 1)});
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
      make_object("a", "expired", 100, {memory_replica(1, "3-4", 100)}, k_tally_restore_time_ms - 1),
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
      make_object("a", "deadline", 5, {memory_replica(1, "3-4", 5)}, k_tally_restore_time_ms),
      make_object("a", "expired", 100, {memory_replica(2, "3-4", 100), memory_replica(3, "3-4", 100)},
                  k_tally_restore_time_ms - 1),
      make_object("a", "mixed", 30,
                  {memory_replica(4, "3-4", 30), test::disk_replica(5, 30, model::replica_status::processing)}),
      make_object("b", "fresh", 9, {memory_replica(6, "3-4", 9)}, k_tally_restore_time_ms + 1)};
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

// resolve() walks a sorted shard along the groups on_entry marked and sorts any other first: it
// must produce exactly what the textbook reduction (is_sorted, stable_sort, group equal (tenant,
// key)) of the same entries produces. Pseudo-random shards over a tiny alphabet, so that
// duplicates, runs, unsorted orders, prefixes and undecodable entries are all frequent; sorted
// shards (what writers produce) are forced for half of them.
struct ReferenceObject {
  std::string tenant;
  std::string key;
  std::size_t entries = 0;
  std::uint64_t undecodable = 0;
  std::optional<std::uint64_t> size;  // of the first decoded entry
  std::uint64_t lease = 0;            // of the last decoded entry
};

std::vector<ReferenceObject> reference_resolve(const std::vector<std::string>& tenants,
                                               const std::vector<std::string>& keys, const std::vector<bool>& decoded,
                                               const std::vector<std::uint64_t>& sizes, bool& sorted) {
  std::vector<std::size_t> order(tenants.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  auto less = [&](std::size_t a, std::size_t b) {
    return std::tie(tenants[a], keys[a]) < std::tie(tenants[b], keys[b]);
  };
  sorted = std::is_sorted(order.begin(), order.end(), less);
  std::stable_sort(order.begin(), order.end(), less);
  std::vector<ReferenceObject> out;
  for (std::size_t i = 0; i < order.size();) {
    std::size_t j = i;
    ReferenceObject o;
    o.tenant = tenants[order[i]];
    o.key = keys[order[i]];
    while (j < order.size() && tenants[order[j]] == o.tenant && keys[order[j]] == o.key) {
      const std::size_t e = order[j];
      ++o.entries;
      if (!decoded[e]) {
        ++o.undecodable;
      } else {
        if (!o.size) o.size = sizes[e];
        o.lease = sizes[e] * 3 + 1;
      }
      ++j;
    }
    out.push_back(o);
    i = j;
  }
  return out;
}

TEST(ShardTally, ResolveMatchesTheTextbookReductionOnRandomShards) {
  std::uint64_t state = 12345;
  auto next = [&](std::uint64_t bound) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (state >> 33) % bound;
  };
  const std::vector<std::string> alphabet = {"", "a", "ab", "b", "abcdefgh", "abcdefghi", "abcdefgi", "\xff"};
  for (int round = 0; round < 4000; ++round) {
    const std::size_t n = next(12);
    std::vector<std::string> tenants(n);
    std::vector<std::string> keys(n);
    std::vector<bool> decoded(n);
    std::vector<std::uint64_t> sizes(n);
    for (std::size_t i = 0; i < n; ++i) {
      tenants[i] = alphabet[next(3) + 1];
      keys[i] = alphabet[next(alphabet.size())];
      decoded[i] = next(4) != 0;
      sizes[i] = i + 1;
    }
    if (round % 2 == 0) {
      std::vector<std::size_t> idx(n);
      for (std::size_t i = 0; i < n; ++i) idx[i] = i;
      std::sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) {
        return std::tie(tenants[a], keys[a]) < std::tie(tenants[b], keys[b]);
      });
      std::vector<std::string> t2(n);
      std::vector<std::string> k2(n);
      for (std::size_t i = 0; i < n; ++i) {
        t2[i] = tenants[idx[i]];
        k2[i] = keys[idx[i]];
      }
      tenants = t2;
      keys = k2;
    }
    bool sorted = true;
    const auto expected = reference_resolve(tenants, keys, decoded, sizes, sorted);

    ShardTallyBuilder builder;
    ShardTallyBuilder source;  // the third pass appends its entries (a diff's side B taking side A's)
    format::ObjectView view;
    format::ObjectDecodeResult result;
    format::ShardEntry entry;
    entry.object = &view;
    entry.result = &result;
    // The second pass checks that reset() forgets everything; the third collects the same entries
    // with append() of what on_entry kept of them in another builder.
    for (int pass = 0; pass < 3; ++pass) {
      builder.reset();
      ShardTallyBuilder& collecting = pass == 2 ? source : builder;
      collecting.reset();
      for (std::size_t i = 0; i < n; ++i) {
        view.tenant_id = tenants[i];
        view.key = keys[i];
        view.size = sizes[i];
        view.lease_timeout_ms = sizes[i] * 3 + 1;
        result.outcome = decoded[i] ? format::DecodeOutcome::decoded : format::DecodeOutcome::skipped;
        collecting.on_entry(entry);
      }
      if (pass == 2) {
        for (std::size_t i = 0; i < n; ++i) builder.append(source.entry(i));
      }
      // What diff_shard asks instead of std::is_sorted over its own copy of the entries.
      EXPECT_EQ(builder.sorted(), sorted) << "round " << round << " pass " << pass;
      model::Findings findings;
      std::vector<ReferenceObject> got;
      builder.resolve(7, findings, [&](const ShardTallyBuilder::Resolved& r) {
        ReferenceObject o;
        o.tenant = std::string(r.tenant);
        o.key = std::string(r.key);
        o.entries = r.entries;
        o.undecodable = r.undecodable;
        if (r.object) {
          o.size = r.object->size;
          o.lease = r.object->lease_timeout_ms;
        }
        got.push_back(o);
      });
      ASSERT_EQ(got.size(), expected.size()) << "round " << round;
      std::size_t duplicates = 0;
      for (std::size_t i = 0; i < got.size(); ++i) {
        EXPECT_EQ(got[i].tenant, expected[i].tenant) << "round " << round << " object " << i;
        EXPECT_EQ(got[i].key, expected[i].key) << "round " << round << " object " << i;
        EXPECT_EQ(got[i].entries, expected[i].entries) << "round " << round << " object " << i;
        EXPECT_EQ(got[i].undecodable, expected[i].undecodable) << "round " << round << " object " << i;
        EXPECT_EQ(got[i].size, expected[i].size) << "round " << round << " object " << i;
        EXPECT_EQ(got[i].lease, expected[i].lease) << "round " << round << " object " << i;
        if (expected[i].entries > 1) ++duplicates;
      }
      std::vector<std::string> rules;
      for (const auto& f : findings) rules.push_back(f.rule);
      std::vector<std::string> expected_rules;
      if (!sorted) expected_rules.push_back(k_rule_unsorted_entries);
      expected_rules.insert(expected_rules.end(), duplicates, k_rule_duplicate_key);
      EXPECT_EQ(rules, expected_rules) << "round " << round;
    }
  }
}

}  // namespace
}  // namespace moonquota::restore
