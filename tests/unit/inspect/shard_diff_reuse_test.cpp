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

TEST(ShardDiffReuse, WalksAWritersShardWithAnAddedAndAChangedObject) {
  std::vector<model::ObjectRecord> a;
  for (int i = 0; i < 40; ++i) {
    const std::string key = "k" + std::to_string(100 + i);
    model::ObjectRecord o =
        test::make_object("tenant-00", key, 1000 + i, {test::memory_replica(i + 1, "3-4", 1000 + i)});
    o.client_id = "00000001-0000-0000-0000-000000000002";
    o.put_start_time_ms = 1787375520123ULL;
    o.lease_timeout_ms = 1787375520123ULL + 60000;
    a.push_back(o);
  }
  std::vector<model::ObjectRecord> b = a;
  b[7].size = 1;  // changed: size
  b.insert(b.begin() + 20, a[20]);
  b[20].key = "k119x";  // added, between k119 and k120
  format::SegmentTable segments;
  segments.add({3, 4}, {model::segment_status::ok, true});
  const std::string raw_a = test::shard_raw_in_order(a);
  const std::string raw_b = test::shard_raw_in_order(b);
  ShardDiffScratch scratch;
  ShardDiffOptions options;
  options.restore_time_ms = 1787375520123ULL;
  options.segment_tables_alike = true;
  auto d = diff_shard(3, raw_a, segments, raw_b, segments, options, scratch);
  ASSERT_TRUE(d.ok()) << d.status().message();
  EXPECT_TRUE(d->b_reused);
  EXPECT_EQ(d->counts.added, 1u);
  EXPECT_EQ(d->counts.changed, 1u);
  EXPECT_EQ(d->counts.removed, 0u);
  EXPECT_EQ(d->counts.unchanged, 39u);
  options.segment_tables_alike = false;
  auto whole = diff_shard(3, raw_a, segments, raw_b, segments, options, scratch);
  ASSERT_TRUE(whole.ok());
  EXPECT_FALSE(whole->b_reused);
  EXPECT_EQ(whole->counts.unchanged, 39u);
}

}  // namespace
}  // namespace moonquota::inspect
