// `--large N --added-objects K`: the N objects' entries and the segment table are those of
// `--large N`; only the K added objects differ (the bench's 1% twin, scripts/bench.sh).
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "forge/large_store.hpp"
#include "forge_test_support.hpp"
#include "format/msgpack_reader.hpp"
#include "inspect/snapshot_diff.hpp"
#include "support/local_store.hpp"
#include "support/snapshot_test_support.hpp"

namespace moonquota::forge {
namespace {

namespace fs = std::filesystem;
using forge_test::metadata_shard_bins;
using test::read_file;
using test::unzstd;

const std::string k_snap = "/mooncake_master_snapshot/mooncake_cluster/20260822_051200_123/";

// Every entry of the store's metadata as its bytes, by key (keys are unique in a --large store).
std::map<std::string, std::string> entries_by_key(const std::string& store) {
  std::map<std::string, std::string> out;
  for (const auto& [shard, bin] : metadata_shard_bins(read_file(store + k_snap + "metadata"))) {
    const std::string raw = unzstd(bin);
    format::MsgpackReader r(raw);
    format::MpHeader h;
    std::string_view text;
    EXPECT_TRUE(r.read_header(h) && r.read_header(h) && r.read_payload(h.length, text));
    EXPECT_TRUE(r.read_header(h) && h.type == format::MpType::array);
    for (std::uint32_t e = 0; e < h.length; ++e) {
      const std::size_t start = r.position();
      format::MpHeader x;
      std::string_view tenant;
      std::string_view key;
      EXPECT_TRUE(r.read_header(x) && r.read_header(x) && r.read_payload(x.length, tenant));
      EXPECT_TRUE(r.read_header(x) && r.read_payload(x.length, key));
      r.rewind_to(start);
      EXPECT_TRUE(r.skip_value());
      out.emplace(std::string(key), raw.substr(start, r.position() - start));
    }
  }
  return out;
}

TEST(LargeTwin, KeepsTheObjectsAndSegmentsOfTheStoreWithoutTheAddedOnes) {
  const test::TempDir tmp;
  const std::string base = (tmp.path() / "base").string();
  const std::string twin = (tmp.path() / "twin").string();
  LargeStoreOptions options;
  options.objects = 20000;
  options.seed = 3;
  options.threads = 2;
  auto a = write_large_store(options, base);
  ASSERT_TRUE(a.ok()) << a.status().to_string();
  options.added_objects = 200;
  options.threads = 1;
  auto b = write_large_store(options, twin);
  ASSERT_TRUE(b.ok()) << b.status().to_string();
  EXPECT_EQ(b->objects, 20200u);
  EXPECT_EQ(b->segments, a->segments);
  EXPECT_GT(b->replicas, a->replicas);

  // Byte for byte: every entry of the base is in the twin; the twin has 200 more.
  const auto in_base = entries_by_key(base);
  const auto in_twin = entries_by_key(twin);
  ASSERT_EQ(in_base.size(), 20000u);
  ASSERT_EQ(in_twin.size(), 20200u);
  std::size_t same = 0;
  for (const auto& [key, bytes] : in_base) {
    auto it = in_twin.find(key);
    ASSERT_NE(it, in_twin.end()) << key;
    same += it->second == bytes ? 1 : 0;
  }
  EXPECT_EQ(same, 20000u);
  EXPECT_FALSE(fs::exists(twin + k_snap + ".forge-replay.tmp"));

  // What diff sees: 200 added, nothing else (no segment added, removed or changed).
  inspect::DiffOptions diff_options;
  diff_options.threads = 2;
  auto d = inspect::diff_snapshots(
      {test::local_files(), base + "/mooncake_master_snapshot/mooncake_cluster/20260822_051200_123",
       "20260822_051200_123"},
      {test::local_files(), twin + "/mooncake_master_snapshot/mooncake_cluster/20260822_051200_123",
       "20260822_051200_123"},
      diff_options, [](const inspect::ObjectChange&) {});
  ASSERT_TRUE(d.ok()) << d.status().to_string();
  EXPECT_EQ(d->counts.added, 200u);
  EXPECT_EQ(d->counts.removed, 0u);
  EXPECT_EQ(d->counts.changed, 0u);
  EXPECT_EQ(d->counts.unchanged, 20000u);
  EXPECT_TRUE(d->segments.empty());

  // A thread count changes no byte of the twin either.
  options.threads = 3;
  ASSERT_TRUE(write_large_store(options, (tmp.path() / "twin3").string()).ok());
  EXPECT_TRUE(read_file(twin + k_snap + "metadata") ==
              read_file((tmp.path() / "twin3").string() + k_snap + "metadata"));
  EXPECT_TRUE(read_file(twin + k_snap + "segments") ==
              read_file((tmp.path() / "twin3").string() + k_snap + "segments"));
}

}  // namespace
}  // namespace moonquota::forge
