#include "forge/large_store.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "forge_test_support.hpp"
#include "format/msgpack_reader.hpp"
#include "support/snapshot_test_support.hpp"
#include "util/hashing.hpp"

namespace moonquota::forge {
namespace {

namespace fs = std::filesystem;
using forge_test::metadata_shard_bins;
using test::read_file;
using test::unzstd;

// Counts the entries of a decompressed shard and checks each sits in its expected shard.
std::size_t check_shard(std::uint32_t shard, const std::string& raw) {
  format::MsgpackReader r(raw);
  format::MpHeader h;
  std::string_view text;
  EXPECT_TRUE(r.read_header(h) && h.type == format::MpType::map && h.length == 1);
  EXPECT_TRUE(r.read_header(h) && r.read_payload(h.length, text) && text == "metadata");
  EXPECT_TRUE(r.read_header(h) && h.type == format::MpType::array);
  const std::uint32_t entries = h.length;
  for (std::uint32_t e = 0; e < entries; ++e) {
    std::string_view tenant;
    std::string_view key;
    EXPECT_TRUE(r.read_header(h) && h.type == format::MpType::array && h.length == 3);
    EXPECT_TRUE(r.read_header(h) && r.read_payload(h.length, tenant));
    EXPECT_TRUE(r.read_header(h) && r.read_payload(h.length, key));
    EXPECT_EQ(util::metadata_shard_index(tenant, key, ""), shard) << key;
    EXPECT_TRUE(r.skip_value());
  }
  EXPECT_TRUE(r.at_end());
  return entries;
}

TEST(LargeStore, WritesEveryObjectInItsShardDeterministically) {
  const test::TempDir tmp;
  const fs::path& base = tmp.path();
  LargeStoreOptions options;
  options.objects = 5000;
  options.seed = 7;
  options.threads = 3;
  auto summary = write_large_store(options, (base / "a").string());
  ASSERT_TRUE(summary.ok()) << summary.status().to_string();
  EXPECT_EQ(summary->objects, 5000u);
  options.threads = 1;
  ASSERT_TRUE(write_large_store(options, (base / "b").string()).ok());
  const std::string snap = "/mooncake_master_snapshot/mooncake_cluster/20260822_051200_123/";
  const std::string metadata = read_file((base / "a").string() + snap + "metadata");
  EXPECT_TRUE(metadata == read_file((base / "b").string() + snap + "metadata"));
  EXPECT_TRUE(read_file((base / "a").string() + snap + "segments") ==
              read_file((base / "b").string() + snap + "segments"));
  std::size_t total = 0;
  for (const auto& [shard, bin] : metadata_shard_bins(metadata)) total += check_shard(shard, unzstd(bin));
  EXPECT_EQ(total, 5000u);
  EXPECT_FALSE(unzstd(read_file((base / "a").string() + snap + "segments")).empty());
  EXPECT_FALSE(fs::exists((base / "a").string() + snap + ".forge-shard-index.tmp"));
  EXPECT_FALSE(write_large_store(options, (base / "a").string()).ok());  // not empty, no force
}

// --segment-bytes outside [1 MiB, 4 TiB] is refused before anything is written; segments that
// would overflow a client's 16 TiB address range are refused when placed.
TEST(LargeStore, SegmentBytesOutsideItsRangeAreRefused) {
  const test::TempDir tmp;
  LargeStoreOptions options;
  options.objects = 10;
  for (std::uint64_t bytes : {std::uint64_t{1000}, k_max_large_segment_bytes + 1}) {
    options.segment_bytes = bytes;
    auto r = write_large_store(options, (tmp.path() / "out").string());
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), util::StatusCode::invalid_argument);
    EXPECT_NE(r.status().message().find("--segment-bytes"), std::string::npos) << r.status().message();
    EXPECT_FALSE(fs::exists(tmp.path() / "out"));
  }
}

}  // namespace
}  // namespace moonquota::forge
