// The streaming `metadata` file scanner (snapshot-format.md §5.1, §5.8, §4.3, §3.1): top-level
// shape, required keys, shard keys and values, zstd framing rules, duplicates, and that the
// thread count never changes the result.
#include "format/metadata_file.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "support/snapshot_test_support.hpp"
#include "util/file_reader.hpp"

namespace moonquota::format {
namespace {

namespace fs = std::filesystem;
using test::msgpack;

struct SeenShard {
  std::uint32_t shard;
  std::uint64_t sequence;
  std::string raw;
  bool operator<(const SeenShard& o) const { return std::tie(sequence, shard) < std::tie(o.sequence, o.shard); }
  bool operator==(const SeenShard& o) const = default;
};

struct Scan {
  util::Result<MetadataFileInfo> info = util::Status::internal("not run");
  std::vector<SeenShard> shards;  // sorted by sequence
  model::Findings findings;
};

class MetadataFile : public ::testing::Test {
 protected:
  Scan scan_bytes(const std::string& bytes, unsigned threads = 1, MetadataScanOptions options = {}) {
    const fs::path path = m_tmp.path() / "metadata";
    test::write_file(path, bytes);
    return scan_path(path.string(), threads, options);
  }
  Scan scan_path(const std::string& path, unsigned threads = 1, MetadataScanOptions options = {},
                 std::function<util::Status(std::uint32_t)> verdict = {}) {
    Scan s;
    std::mutex m;
    options.threads = threads;
    ShardHandler handler = [&](unsigned, std::uint32_t shard, std::uint64_t sequence,
                               std::string_view raw) -> util::Status {
      std::lock_guard lock(m);
      s.shards.push_back({shard, sequence, std::string(raw)});
      return verdict ? verdict(shard) : util::Status{};
    };
    SegmentTable table;
    table.add({3, 4}, {model::segment_status::ok, true});
    util::FileReader file;
    if (util::Status opened = file.open(path); !opened.ok()) {
      s.info = opened;
    } else {
      s.info = scan_metadata(file, table, options, handler, s.findings);
    }
    std::sort(s.shards.begin(), s.shards.end());
    return s;
  }
  std::string error_of(const std::string& bytes) {
    Scan s = scan_bytes(bytes);
    EXPECT_FALSE(s.info.ok());
    if (s.info.ok()) return {};
    EXPECT_EQ(s.info.status().code(), util::StatusCode::corruption);
    return s.info.status().message();
  }

  test::TempDir m_tmp;
};

// The three keys, with the shards map written by `shards`.
std::string top_level(const std::function<void(MsgpackWriter&)>& shards, std::uint64_t next_id = 1) {
  return msgpack([&](MsgpackWriter& w) {
    w.pack_map_header(3);
    w.pack_str("shards");
    shards(w);
    w.pack_str("discarded_replicas");
    w.pack_array_header(0);
    w.pack_str("replica_next_id");
    w.pack_uint(next_id);
  });
}

const std::string k_shard_raw = test::unhex("81a86d6574616461746190");  // {"metadata": []}

// A zstd frame without the content size: FHD 0x00 + window byte, one raw last block.
std::string frame_without_content_size(const std::string& content) {
  std::string f = test::unhex("28b52ffd0000");
  const std::uint32_t block = (static_cast<std::uint32_t>(content.size()) << 3) | 1;
  f.push_back(static_cast<char>(block & 0xff));
  f.push_back(static_cast<char>((block >> 8) & 0xff));
  f.push_back(static_cast<char>((block >> 16) & 0xff));
  return f + content;
}

TEST_F(MetadataFile, EmptyFixtureOfSpec) {
  Scan s = scan_bytes(
      test::unhex("83a673686172647380b26469736361726465645f7265706c6963617390af7265706c6963615f6e6578745f696401"));
  ASSERT_TRUE(s.info.ok()) << s.info.status().message();
  EXPECT_EQ(s.info->file_bytes, 46u);
  EXPECT_EQ(s.info->shard_entries, 0u);
  EXPECT_EQ(s.info->replica_next_id, 1u);
  EXPECT_TRUE(s.info->discarded.empty());
  EXPECT_TRUE(s.shards.empty());
  EXPECT_TRUE(s.findings.empty());
}

TEST_F(MetadataFile, GenuineS7) {
  const std::string path =
      test::cluster_root(test::source_path(test::k_s7.store)) + "/" + test::k_s7.snapshot_id + "/metadata";
  Scan s = scan_path(path);
  ASSERT_TRUE(s.info.ok()) << s.info.status().message();
  EXPECT_EQ(s.info->file_bytes, 193u);
  EXPECT_EQ(s.info->shard_entries, 1u);
  EXPECT_EQ(s.info->compressed_shard_bytes, 142u);
  EXPECT_EQ(s.info->decompressed_shard_bytes, 155u);
  EXPECT_EQ(s.info->replica_next_id, 3u);
  ASSERT_EQ(s.shards.size(), 1u);
  EXPECT_EQ(s.shards[0].shard, 963u);
  EXPECT_EQ(s.shards[0].raw.size(), 155u);
}

TEST_F(MetadataFile, NotAMapRejects) {
  EXPECT_EQ(error_of(test::unhex("9103")), "metadata: the top level is a array, not a map");
  EXPECT_EQ(error_of(test::unhex("c0")), "metadata: the top level is a nil, not a map");
}

TEST_F(MetadataFile, AsciiTextIsAPositiveFixintAndRejects) {
  // What upstream's fallback test writes over the latest metadata (§3.1).
  EXPECT_EQ(error_of("corrupted metadata payload"), "metadata: the top level is a positive integer, not a map");
}

TEST_F(MetadataFile, EmptyFileRejects) { EXPECT_EQ(error_of(""), "metadata: the file is empty"); }

TEST_F(MetadataFile, MissingKeysReject) {
  const auto without = [](const std::string& skip) {
    return msgpack([&](MsgpackWriter& w) {
      w.pack_map_header(2);
      if (skip != "shards") {
        w.pack_str("shards");
        w.pack_map_header(0);
      }
      if (skip != "discarded_replicas") {
        w.pack_str("discarded_replicas");
        w.pack_array_header(0);
      }
      if (skip != "replica_next_id") {
        w.pack_str("replica_next_id");
        w.pack_uint(1);
      }
    });
  };
  EXPECT_EQ(error_of(without("shards")), "metadata: no \"shards\" key");
  EXPECT_EQ(error_of(without("discarded_replicas")), "metadata: no \"discarded_replicas\" key");
  EXPECT_EQ(error_of(without("replica_next_id")), "metadata: no \"replica_next_id\" key");
}

TEST_F(MetadataFile, KeysInAnyOrderUnknownAndNonStringKeysIgnored) {
  const std::string bytes = msgpack([](MsgpackWriter& w) {
    w.pack_map_header(5);
    w.pack_str("replica_next_id");
    w.pack_uint(9);
    w.pack_uint(5);  // non-string key, skipped with its value
    w.pack_array_header(2);
    w.pack_uint(1);
    w.pack_str("x");
    w.pack_str("extra");
    w.pack_map_header(1);
    w.pack_str("a");
    w.pack_uint(1);
    w.pack_str("discarded_replicas");
    w.pack_array_header(0);
    w.pack_str("shards");
    w.pack_map_header(0);
  });
  Scan s = scan_bytes(bytes);
  ASSERT_TRUE(s.info.ok()) << s.info.status().message();
  EXPECT_EQ(s.info->replica_next_id, 9u);
  ASSERT_EQ(s.findings.size(), 1u);
  EXPECT_EQ(s.findings[0].message, "unknown top-level key \"extra\" ignored");
}

TEST_F(MetadataFile, ShardsNotAMapRejects) {
  const std::string bytes = top_level([](MsgpackWriter& w) { w.pack_array_header(0); });
  EXPECT_EQ(error_of(bytes), "metadata: \"shards\" at byte offset 8 is a array, not a map");
}

TEST_F(MetadataFile, ShardKeyAtOrAbove1024Rejects) {
  const std::string bytes = top_level([](MsgpackWriter& w) {
    w.pack_map_header(2);
    w.pack_uint(1023);
    w.pack_bin(util::zstd_compress(k_shard_raw));
    w.pack_uint(1024);
    w.pack_bin(util::zstd_compress(k_shard_raw));
  });
  const std::string msg = error_of(bytes);
  EXPECT_EQ(msg.rfind("metadata: shard key at byte offset ", 0), 0u) << msg;
  EXPECT_NE(msg.find(" is 1024, not below 1024"), std::string::npos) << msg;
}

TEST_F(MetadataFile, NonIntegerShardKeysReject) {
  const std::string str_key = top_level([](MsgpackWriter& w) {
    w.pack_map_header(1);
    w.pack_str("0");  // the standby test fixture's form: the master rejects it
    w.pack_bin(util::zstd_compress(k_shard_raw));
  });
  EXPECT_EQ(error_of(str_key), "metadata: shard key at byte offset 9 is a string");
  const std::string neg_key = top_level([](MsgpackWriter& w) {
    w.pack_map_header(1);
    w.pack_int(-1);
    w.pack_bin(util::zstd_compress(k_shard_raw));
  });
  EXPECT_EQ(error_of(neg_key), "metadata: shard key at byte offset 9 is a negative integer");
}

TEST_F(MetadataFile, NonBinShardValueRejects) {
  const std::string bytes = top_level([](MsgpackWriter& w) {
    w.pack_map_header(1);
    w.pack_uint(5);
    w.pack_str(util::zstd_compress(k_shard_raw));
  });
  EXPECT_EQ(error_of(bytes), "metadata: shard 5 value at byte offset 10 is a string, not BIN");
}

TEST_F(MetadataFile, DuplicateShardKeysAreAllHandedOverInFileOrder) {
  const std::string first = test::shard_raw_in_order({test::make_object("t", "first", 1, {})});
  const std::string second = test::shard_raw_in_order({test::make_object("t", "second", 1, {})});
  Scan s = scan_bytes(test::metadata_file_bytes({{5, first}, {5, second}}));
  ASSERT_TRUE(s.info.ok()) << s.info.status().message();
  EXPECT_EQ(s.info->shard_entries, 2u);
  ASSERT_EQ(s.shards.size(), 2u);
  // The later duplicate has the larger sequence: callers keep it (the last one wins).
  EXPECT_EQ(s.shards[0], (SeenShard{5, 0, first}));
  EXPECT_EQ(s.shards[1], (SeenShard{5, 1, second}));
}

TEST_F(MetadataFile, ZstdWithTwoFramesRejects) {
  const std::string bytes = top_level([](MsgpackWriter& w) {
    w.pack_map_header(1);
    w.pack_uint(7);
    w.pack_bin(util::zstd_compress(k_shard_raw) + util::zstd_compress(k_shard_raw));
  });
  const std::string msg = error_of(bytes);
  EXPECT_EQ(msg.rfind("metadata: shard 7 (BIN at byte offset 12): zstd input holds ", 0), 0u) << msg;
  EXPECT_NE(msg.find("bytes after the first frame"), std::string::npos) << msg;
}

TEST_F(MetadataFile, ZstdWithoutContentSizeRejects) {
  const std::string frame = frame_without_content_size(k_shard_raw);
  const std::string bytes = top_level([&](MsgpackWriter& w) {
    w.pack_map_header(1);
    w.pack_uint(7);
    w.pack_bin(frame);
  });
  EXPECT_EQ(error_of(bytes), "metadata: shard 7 (BIN at byte offset 12): zstd frame has no content size");
}

TEST_F(MetadataFile, GarbageAndTruncatedShardFramesReject) {
  const std::string garbage = top_level([](MsgpackWriter& w) {
    w.pack_map_header(1);
    w.pack_uint(7);
    w.pack_bin("not zstd at all");
  });
  EXPECT_EQ(error_of(garbage), "metadata: shard 7 (BIN at byte offset 12): not a zstd frame");
  const std::string frame = util::zstd_compress(std::string(1000, 'a'));
  const std::string truncated = top_level([&](MsgpackWriter& w) {
    w.pack_map_header(1);
    w.pack_uint(7);
    w.pack_bin(frame.substr(0, frame.size() - 2));
  });
  EXPECT_NE(error_of(truncated).find("truncated or invalid zstd frame"), std::string::npos);
}

TEST_F(MetadataFile, ShardAboveTheMemoryLimitRejects) {
  MetadataScanOptions options;
  options.max_shard_bytes = 5;
  Scan s = scan_bytes(test::metadata_file_bytes({{1, k_shard_raw}}), 1, options);
  ASSERT_FALSE(s.info.ok());
  EXPECT_EQ(s.info.status().code(), util::StatusCode::limit_exceeded);  // our guard, not a master rejection
  EXPECT_NE(s.info.status().message().find("zstd content size 11 exceeds the limit of 5 bytes"), std::string::npos)
      << s.info.status().message();
}

TEST_F(MetadataFile, HandlerErrorRejectsWithContext) {
  const fs::path path = m_tmp.path() / "metadata";
  test::write_file(path, test::metadata_file_bytes({{1, k_shard_raw}, {2, k_shard_raw}, {3, k_shard_raw}}));
  for (unsigned threads : {1u, 2u}) {
    Scan s = scan_path(path.string(), threads, {}, [](std::uint32_t shard) {
      return shard >= 2 ? util::Status::corruption("shard " + std::to_string(shard) + ": bad") : util::Status{};
    });
    ASSERT_FALSE(s.info.ok());
    // The first failing shard in file order is reported, whatever the thread count.
    // Named by the place of its blob in the file (issue 11 item 15: shard errors give the offset).
    const std::string msg = s.info.status().message();
    EXPECT_EQ(msg.rfind("metadata: shard 2 (BIN at byte offset ", 0), 0u) << msg << " " << threads;
    EXPECT_EQ(msg.substr(msg.size() - 6), "): bad") << msg << " " << threads;
  }
}

TEST_F(MetadataFile, ReplicaNextIdMustBeUnsigned) {
  const std::string bytes = msgpack([](MsgpackWriter& w) {
    w.pack_map_header(3);
    w.pack_str("shards");
    w.pack_map_header(0);
    w.pack_str("discarded_replicas");
    w.pack_array_header(0);
    w.pack_str("replica_next_id");
    w.pack_int(-1);
  });
  EXPECT_EQ(error_of(bytes),
            "metadata: \"replica_next_id\" at byte offset 45 is a negative integer, not an unsigned integer");
}

std::string with_discarded(const std::function<void(MsgpackWriter&)>& discarded) {
  return msgpack([&](MsgpackWriter& w) {
    w.pack_map_header(3);
    w.pack_str("shards");
    w.pack_map_header(0);
    w.pack_str("discarded_replicas");
    discarded(w);
    w.pack_str("replica_next_id");
    w.pack_uint(3);
  });
}

TEST_F(MetadataFile, DiscardedReplicasAreDecoded) {
  const std::string bytes = with_discarded([](MsgpackWriter& w) {
    w.pack_array_header(1);
    w.pack_array_header(4);
    w.pack_uint(1700000600000ULL);
    w.pack_uint(2048);
    w.pack_uint(1);
    ASSERT_TRUE(encode_replica(w, test::memory_replica(2, "3-4", 2048)).ok());
  });
  Scan s = scan_bytes(bytes);
  ASSERT_TRUE(s.info.ok()) << s.info.status().message();
  ASSERT_EQ(s.info->discarded.size(), 1u);
  EXPECT_EQ(s.info->discarded[0].ttl_ms, 1700000600000);
  EXPECT_EQ(s.info->discarded[0].mem_size, 2048u);
  ASSERT_EQ(s.info->discarded[0].replicas.size(), 1u);
  EXPECT_EQ(s.info->discarded[0].replicas[0].memory.segment_id, "3-4");
}

TEST_F(MetadataFile, AnyDiscardedReplicaErrorRejects) {
  const std::string not_array = with_discarded([](MsgpackWriter& w) { w.pack_map_header(0); });
  EXPECT_EQ(error_of(not_array).rfind("metadata: \"discarded_replicas\": expected an array, found map", 0), 0u);
  const std::string short_item = with_discarded([](MsgpackWriter& w) {
    w.pack_array_header(1);
    w.pack_array_header(2);
    w.pack_uint(1);
    w.pack_uint(1);
  });
  EXPECT_NE(error_of(short_item).find("discarded_replicas[0] at byte offset"), std::string::npos);
  const std::string count_mismatch = with_discarded([](MsgpackWriter& w) {
    w.pack_array_header(1);
    w.pack_array_header(3);
    w.pack_uint(1);
    w.pack_uint(1);
    w.pack_uint(1);
  });
  EXPECT_EQ(error_of(count_mismatch), "metadata: discarded_replicas[0] has 3 elements for 1 replicas");
  // A replica the object decoder would only skip rejects here (a segment that is missing).
  const std::string missing_segment = with_discarded([](MsgpackWriter& w) {
    w.pack_array_header(1);
    w.pack_array_header(4);
    w.pack_uint(1);
    w.pack_uint(1);
    w.pack_uint(1);
    ASSERT_TRUE(encode_replica(w, test::memory_replica(2, "9-9", 1)).ok());
  });
  EXPECT_EQ(
      error_of(missing_segment),
      "metadata: discarded_replicas[0] replica 0: MEMORY replica on segment 9-9, which is not in the segment table");
}

TEST_F(MetadataFile, TrailingBytesAreIgnoredWithAWarning) {
  Scan s = scan_bytes(test::metadata_file_bytes({}) + "junk");
  ASSERT_TRUE(s.info.ok()) << s.info.status().message();
  EXPECT_TRUE(test::has_finding(s.findings, "4 trailing bytes after the top-level map"));
}

TEST_F(MetadataFile, TruncatedContainersRejectWithOffsets) {
  const std::string full = test::metadata_file_bytes({{3, k_shard_raw}});
  for (std::size_t cut = 1; cut < full.size(); ++cut) {
    Scan s = scan_bytes(full.substr(0, cut));
    ASSERT_FALSE(s.info.ok()) << "cut at " << cut;
    EXPECT_EQ(s.info.status().message().rfind("metadata", 0), 0u) << s.info.status().message();
  }
}

TEST_F(MetadataFile, OneAndTwoThreadsGiveIdenticalResults) {
  std::vector<std::pair<std::uint32_t, std::string>> shards;
  for (std::uint32_t i = 0; i < 64; ++i) {
    std::vector<model::ObjectRecord> objects;
    for (std::uint32_t k = 0; k <= i % 5; ++k) {
      objects.push_back(test::make_object("t" + std::to_string(i % 3), "k" + std::to_string(i * 10 + k), 100 + i, {}));
    }
    shards.emplace_back(i * 16 % 1024, test::shard_raw_in_order(objects));
  }
  shards.emplace_back(16, test::shard_raw_in_order({}));  // a duplicate of shard 16
  const fs::path path = m_tmp.path() / "metadata";
  test::write_file(path, test::metadata_file_bytes(shards, 77));
  Scan one = scan_path(path.string(), 1);
  Scan two = scan_path(path.string(), 2);
  Scan four = scan_path(path.string(), 4);
  ASSERT_TRUE(one.info.ok() && two.info.ok() && four.info.ok());
  EXPECT_EQ(one.shards.size(), 65u);
  EXPECT_EQ(one.shards, two.shards);
  EXPECT_EQ(one.shards, four.shards);
  EXPECT_EQ(one.info->decompressed_shard_bytes, two.info->decompressed_shard_bytes);
  EXPECT_EQ(one.info->compressed_shard_bytes, two.info->compressed_shard_bytes);
  EXPECT_EQ(one.info->replica_next_id, 77u);
  EXPECT_EQ(two.info->replica_next_id, 77u);
}

TEST_F(MetadataFile, MissingFileIsNotCorruption) {
  Scan s = scan_path((m_tmp.path() / "nope").string());
  ASSERT_FALSE(s.info.ok());
  EXPECT_NE(s.info.status().code(), util::StatusCode::ok);
}

}  // namespace
}  // namespace moonquota::format
