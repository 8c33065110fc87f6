// diff_shard's walk of side B over side A's bytes (shard_diff_reuse.hpp): the same ShardDiff as
// decoding both sides whole, on pseudo-random shards and edits (fuzz/shard_diff_entry.hpp aborts
// on a difference), and the walk taken on what writers produce.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "format/metadata_encoder.hpp"
#include "format/msgpack_writer.hpp"
#include "fuzz/shard_diff_entry.hpp"
#include "inspect/shard_diff.hpp"
#include "support/snapshot_test_support.hpp"

namespace moonquota::inspect {
namespace {

TEST(ShardDiffReuse, SameDiffAsDecodingBothSidesOnRandomShardsAndEdits) {
  std::mt19937_64 random(22);
  std::vector<std::uint8_t> input;
  int walked = 0;
  constexpr int k_inputs = 20000;
  for (int i = 0; i < k_inputs; ++i) {
    input.resize(random() % 700);
    for (auto& b : input) b = static_cast<std::uint8_t>(random());
    walked += fuzz::compare_shard_diff(input.data(), input.size());
  }
  // The walk must run on a good share of them, not only fall back (two orders per input).
  EXPECT_GT(walked, k_inputs / 4) << walked;
}

std::vector<model::ObjectRecord> forty_objects() {
  std::vector<model::ObjectRecord> out;
  for (int i = 0; i < 40; ++i) {
    const std::string key = "k" + std::to_string(100 + i);
    model::ObjectRecord o =
        test::make_object("tenant-00", key, 1000 + i, {test::memory_replica(i + 1, "3-4", 1000 + i)});
    o.client_id = "00000001-0000-0000-0000-000000000002";
    o.put_start_time_ms = 1787375520123ULL;
    o.lease_timeout_ms = 1787375520123ULL + 60000;
    out.push_back(o);
  }
  return out;
}

format::SegmentTable one_segment() {
  format::SegmentTable segments;
  segments.add({3, 4}, {model::segment_status::ok, true});
  return segments;
}

// diff_shard with the walk allowed as snapshot_diff.cpp allows it. The walk's result must equal
// decoding B whole in every field (counts, changes, both restore models, findings): the fuzz
// entry's property, which aborts on a difference.
ShardDiff diff_walking(const std::string& raw_a, const format::SegmentTable& segments_a, const std::string& raw_b,
                       const format::SegmentTable& segments_b) {
  const bool walked = fuzz::walk_matches_whole_decode(raw_a, segments_a, raw_b, segments_b);
  ShardDiffScratch scratch;
  ShardDiffOptions options;
  options.restore_time_ms = 1787375520123ULL;
  options.a_usable_segments_usable_in_b = segments_a.usable_segments_usable_in(segments_b);
  auto d = diff_shard(3, raw_a, segments_a, raw_b, segments_b, options, scratch);
  EXPECT_TRUE(d.ok()) << d.status().message();
  if (!d.ok()) return {};
  EXPECT_EQ(d->b_reused, walked);
  return std::move(d).value();
}

TEST(ShardDiffReuse, WalksAWritersShardWithAnAddedAndAChangedObject) {
  const std::vector<model::ObjectRecord> a = forty_objects();
  std::vector<model::ObjectRecord> b = a;
  b[7].size = 1;  // changed: size
  b.insert(b.begin() + 20, a[20]);
  b[20].key = "k119x";  // added, between k119 and k120
  const ShardDiff d =
      diff_walking(test::shard_raw_in_order(a), one_segment(), test::shard_raw_in_order(b), one_segment());
  EXPECT_TRUE(d.b_reused);
  EXPECT_EQ(d.counts.added, 1u);
  EXPECT_EQ(d.counts.changed, 1u);
  EXPECT_EQ(d.counts.removed, 0u);
  EXPECT_EQ(d.counts.unchanged, 39u);
}

// The 18M bench pair: B's master mounted four segments between the snapshots and put new objects
// on them. The walk must still be taken (it was not while it required equal segment lists).
TEST(ShardDiffReuse, WalksWhenBMountedASegmentBetweenTheSnapshots) {
  const std::vector<model::ObjectRecord> a = forty_objects();
  std::vector<model::ObjectRecord> b = a;
  b.insert(b.begin() + 10, a[10]);
  b[10].key = "k109x";
  b[10].replicas = {test::memory_replica(99, "9-10", 1234)};
  format::SegmentTable segments_b = one_segment();
  segments_b.add({9, 10}, {model::segment_status::ok, true});
  const ShardDiff d = diff_walking(test::shard_raw_in_order(a), one_segment(), test::shard_raw_in_order(b), segments_b);
  EXPECT_TRUE(d.b_reused);
  EXPECT_EQ(d.counts.added, 1u);
  EXPECT_EQ(d.counts.unchanged, 40u);
  // The other way round A's segment 9-10 is not usable under B's table: no walk.
  const ShardDiff back =
      diff_walking(test::shard_raw_in_order(b), segments_b, test::shard_raw_in_order(a), one_segment());
  EXPECT_FALSE(back.b_reused);
  EXPECT_EQ(back.counts.removed, 1u);
}

// An object A skipped (its segment not OK under A's table) decodes under B's table, where the
// segment is OK: its bytes repeat in B, but the walk must decode it (a `decodable` change).
TEST(ShardDiffReuse, DecodesAnObjectASkippedWhenBsTableMakesItUsable) {
  std::vector<model::ObjectRecord> a = forty_objects();
  a[5].replicas = {test::memory_replica(77, "5-6", 1005)};
  format::SegmentTable segments_a = one_segment();
  segments_a.add({5, 6}, {2, true});
  format::SegmentTable segments_b = one_segment();
  segments_b.add({5, 6}, {model::segment_status::ok, true});
  const std::string raw = test::shard_raw_in_order(a);
  const ShardDiff d = diff_walking(raw, segments_a, raw, segments_b);
  EXPECT_TRUE(d.b_reused);
  ASSERT_EQ(d.changes.size(), 1u);
  ObjectChange c;
  d.changes.get(0, 3, c);
  EXPECT_EQ(c.key, "k105");
  EXPECT_EQ(c.fields, std::vector<std::string>{"decodable"});
  EXPECT_EQ(d.counts.unchanged, 39u);
}

}  // namespace
}  // namespace moonquota::inspect
