// Corruption tests (leveldb's log_test style): take the genuine stores a real master wrote, copy
// them to a temp dir, damage one payload, and assert the exact rejection (file, shard, entry,
// byte offset) both from decode_candidate and as the restore path reports it. A few damaged
// copies also go through the real quota-rebuild binary to pin exit codes and output.
#include <gtest/gtest.h>

#include <string>

#include "restore/restore_path.hpp"
#include "support/local_store.hpp"
#include "support/run_tool.hpp"
#include "support/snapshot_test_support.hpp"

namespace moonquota::restore {
namespace {

namespace fs = std::filesystem;

class Corruption : public ::testing::Test {
 protected:
  void SetUp() override { test::copy_genuine_store(test::k_s7, store()); }
  fs::path store() const { return m_tmp.path() / "store"; }
  fs::path snapshot_dir() const { return fs::path(test::cluster_root(store())) / test::k_s7.snapshot_id; }
  fs::path file(const char* name) const { return snapshot_dir() / name; }
  std::string read(const char* name) const { return test::read_file(file(name)); }
  void write(const char* name, const std::string& bytes) { test::write_file(file(name), bytes); }
  void truncate(const char* name, std::size_t size) { write(name, read(name).substr(0, size)); }
  void flip(const char* name, std::size_t offset, unsigned char mask = 0xff) {
    std::string bytes = read(name);
    ASSERT_LT(offset, bytes.size());
    bytes[offset] = static_cast<char>(static_cast<unsigned char>(bytes[offset]) ^ mask);
    write(name, bytes);
  }
  // Rewrites the metadata file with the single shard 963 replaced by `raw` (decompressed).
  void replace_shard(const std::string& raw) { write("metadata", test::metadata_file_bytes({{963, raw}}, 3)); }
  std::string shard_raw() const {
    std::string file_bytes = read("metadata");
    return test::unzstd(file_bytes.substr(14, 142));  // BIN 8 payload: bytes 14..155 (§14.4 framing)
  }

  // Decodes the candidate (must be rejected) and checks the restore path reports the same reason.
  std::string rejection() {
    RestoreOptions options;
    options.restore_time_ms = test::k_s7_restore_time_ms;
    auto state = decode_candidate(test::local_files(), snapshot_dir().string(), test::k_s7.snapshot_id, options);
    EXPECT_FALSE(state.ok()) << "the damaged candidate was restored";
    if (state.ok()) return {};
    StoreSelection selection;
    selection.store_dir = store().string();
    auto outcome = restore_master(test::local_files(), selection, options);
    EXPECT_TRUE(outcome.ok()) << outcome.status().message();
    if (outcome.ok()) {
      EXPECT_FALSE(outcome->state.has_value());
      EXPECT_EQ(outcome->empty_reason, "every snapshot candidate was rejected");
      EXPECT_EQ(outcome->attempts.size(), 1u);
      if (!outcome->attempts.empty()) {
        EXPECT_EQ(outcome->attempts[0].snapshot_id, test::k_s7.snapshot_id);
        EXPECT_FALSE(outcome->attempts[0].restored);
        EXPECT_EQ(outcome->attempts[0].reason, state.status().message());
      }
    }
    EXPECT_FALSE(state.status().message().empty());
    return state.status().message();
  }

  test::TempDir m_tmp;
};

TEST_F(Corruption, PristineCopyRestores) {
  RestoreOptions options;
  options.restore_time_ms = test::k_s7_restore_time_ms;
  auto state = decode_candidate(test::local_files(), snapshot_dir().string(), test::k_s7.snapshot_id, options);
  ASSERT_TRUE(state.ok()) << state.status().message();
  EXPECT_TRUE(state->tenants.at("default").charged_bytes == 1024);
  EXPECT_EQ(shard_raw().size(), 155u);
}

// --- metadata -------------------------------------------------------------------------------

TEST_F(Corruption, MetadataTruncatedInsideTheShardBin) {
  truncate("metadata", 100);
  EXPECT_EQ(rejection(), "metadata: truncated msgpack binary of 142 bytes at byte offset 12");
}

TEST_F(Corruption, MetadataTruncatedInsideAKey) {
  truncate("metadata", 160);
  EXPECT_EQ(rejection(), "metadata: truncated msgpack string of 18 bytes at byte offset 156");
}

TEST_F(Corruption, MetadataTruncatedAfterTheShards) {
  truncate("metadata", 156);
  EXPECT_EQ(rejection(),
            "metadata: '" + file("metadata").string() + "' ends at byte 156, 1 bytes needed at byte offset 156");
}

TEST_F(Corruption, MetadataTruncatedToOneByte) {
  truncate("metadata", 1);
  EXPECT_EQ(rejection(), "metadata: map of 3 elements at byte offset 0 exceeds the rest of the file");
}

TEST_F(Corruption, MetadataShardKeyRaisedTo1024) {
  std::string bytes = read("metadata");
  ASSERT_EQ(test::unhex("cd03c3"), bytes.substr(9, 3));
  bytes.replace(9, 3, test::unhex("cd0400"));
  write("metadata", bytes);
  EXPECT_EQ(rejection(), "metadata: shard key at byte offset 9 is 1024, not below 1024");
}

TEST_F(Corruption, MetadataShardValueTypeFlippedFromBinToStr) {
  flip("metadata", 12, 0xc4 ^ 0xd9);  // bin8 -> str8 with the same length byte
  EXPECT_EQ(rejection(), "metadata: shard 963 value at byte offset 12 is a string, not BIN");
}

TEST_F(Corruption, MetadataZstdMagicDamaged) {
  flip("metadata", 14);
  EXPECT_EQ(rejection(), "metadata: shard 963 (BIN at byte offset 14): not a zstd frame");
}

TEST_F(Corruption, MetadataZstdContentSizeDamaged) {
  flip("metadata", 19, 0x01);  // frame content size byte (single-segment frame: after magic + FHD)
  EXPECT_EQ(rejection(),
            "metadata: shard 963 (BIN at byte offset 14): zstd decompression failed: Destination buffer is too small");
}

TEST_F(Corruption, MetadataTopLevelOverwrittenWithText) {
  write("metadata", "corrupted");
  EXPECT_EQ(rejection(), "metadata: the top level is a positive integer, not a map");
}

TEST_F(Corruption, MetadataReplicaNextIdNegative) {
  std::string bytes = read("metadata");
  ASSERT_EQ(static_cast<unsigned char>(bytes.back()), 0x03);
  bytes.back() = static_cast<char>(0xff);  // -1
  write("metadata", bytes);
  EXPECT_EQ(rejection(),
            "metadata: \"replica_next_id\" at byte offset 192 is a negative integer, not an unsigned integer");
}

TEST_F(Corruption, ShardEntryWithNonStringClientId) {
  std::string raw = shard_raw();
  const std::size_t at = raw.find(test::unhex("a3312d32"));  // "1-2"
  ASSERT_EQ(at, 30u);
  raw.replace(at, 4, test::unhex("01"));
  replace_shard(raw);
  EXPECT_EQ(rejection(),
            "metadata: shard 963 (BIN at byte offset 14): entry 0: client_id: expected a string, found positive "
            "integer at byte "
            "offset 30 (offsets are inside the decompressed shard)");
}

TEST_F(Corruption, ShardEntryWithReplicaStatusOutsideInt16) {
  std::string raw = shard_raw();
  const std::size_t at = raw.find(test::unhex("94010300"));  // replica 1: [1, 3, 0, ...]
  ASSERT_NE(at, std::string::npos);
  raw.replace(at + 2, 1, test::unhex("ce00010000"));  // status 65536
  replace_shard(raw);
  EXPECT_EQ(
      rejection(),
      "metadata: shard 963 (BIN at byte offset 14): entry 0: replica status: expected a signed 16-bit integer, found "
      "positive integer at byte offset " +
          std::to_string(at + 2) + " (offsets are inside the decompressed shard)");
}

TEST_F(Corruption, ShardEntryThatIsAFourArrayRejects) {
  std::string raw = shard_raw();
  ASSERT_EQ(static_cast<unsigned char>(raw[11]), 0x93);
  raw[11] = static_cast<char>(0x94);
  replace_shard(raw + std::string(1, '\0'));
  EXPECT_EQ(rejection(),
            "metadata: shard 963 (BIN at byte offset 14): entry 0 at byte offset 11 is not an array of 2 or 3 elements "
            "(offsets are inside the decompressed shard)");
}

TEST_F(Corruption, ShardTruncatedInsideTheObject) {
  replace_shard(shard_raw().substr(0, 80));
  const std::string msg = rejection();
  EXPECT_EQ(msg.rfind("metadata: shard 963 (BIN at byte offset 14): entry 0: ", 0), 0u) << msg;
  EXPECT_NE(msg.find("at byte offset"), std::string::npos) << msg;
}

TEST_F(Corruption, SkippedObjectDoesNotRejectButIsUndecodable) {
  std::string raw = shard_raw();
  const std::size_t at = raw.find(test::unhex("a3332d34"));  // segment "3-4" in the MEMORY payload
  ASSERT_NE(at, std::string::npos);
  raw.replace(at, 4, test::unhex("a3392d39"));  // "9-9": not in the segment table
  replace_shard(raw);
  RestoreOptions options;
  options.restore_time_ms = test::k_s7_restore_time_ms;
  auto state = decode_candidate(test::local_files(), snapshot_dir().string(), test::k_s7.snapshot_id, options);
  ASSERT_TRUE(state.ok()) << state.status().message();
  EXPECT_EQ(state->objects, 0u);
  EXPECT_EQ(state->dropped.undecodable, 1u);
  EXPECT_TRUE(
      test::has_finding(state->findings,
                        "object skipped (tenant 'default', key 'demo-key'): replica 0: MEMORY replica on segment "
                        "9-9, which is not in the segment table"));
}

// --- segments, task_manager, manifest -------------------------------------------------------

TEST_F(Corruption, SegmentsTruncated) {
  truncate("segments", 4000);
  EXPECT_EQ(rejection(), "segments: truncated zstd frame");
}

TEST_F(Corruption, SegmentsMagicDamaged) {
  flip("segments", 0);
  EXPECT_EQ(rejection(), "segments: not a zstd frame");
}

TEST_F(Corruption, SegmentsAllocatorTypeChanged) {
  std::string raw = test::unzstd(read("segments"));
  ASSERT_EQ(raw.substr(0, 5), test::unhex("85a26d6101"));
  raw[4] = 2;
  write("segments", util::zstd_compress(raw));
  EXPECT_EQ(rejection(), "segments: \"ma\" at byte offset 4 is not the OFFSET allocator type (1)");
}

TEST_F(Corruption, SegmentsNodeTableBlobDamaged) {
  std::string raw = test::unzstd(read("segments"));
  // The node table BIN is the first bin16 (0xc5) of the payload; damage its zstd magic.
  const std::size_t at = raw.find('\xc5');
  ASSERT_NE(at, std::string::npos);
  raw[at + 3] = static_cast<char>(raw[at + 3] ^ 0xff);
  write("segments", util::zstd_compress(raw));
  EXPECT_EQ(rejection(), "segments: \"ms\"[3-4]: node table at byte offset 1465: not a zstd frame");
}

TEST_F(Corruption, SegmentsUsedBinsShortened) {
  std::string raw = test::unzstd(read("segments"));
  const std::size_t at = raw.find(test::unhex("dc0020"));
  ASSERT_NE(at, std::string::npos);
  raw.replace(at, 3, test::unhex("dc001f"));
  raw.erase(at + 3, 1);  // one element fewer: the rest of the payload stays aligned
  write("segments", util::zstd_compress(raw));
  EXPECT_EQ(rejection(), "segments: \"ms\"[3-4]: used_bins has 31 elements, expected 32");
}

TEST_F(Corruption, TaskManagerEmpty) {
  write("task_manager", "");
  EXPECT_EQ(rejection(), "task_manager: empty zstd input");
}

TEST_F(Corruption, TaskManagerTruncated) {
  truncate("task_manager", 9);
  EXPECT_EQ(rejection(), "task_manager: truncated or invalid zstd frame: Src size is incorrect");
}

TEST_F(Corruption, TaskManagerWithNonStringTaskId) {
  write("task_manager", util::zstd_compress(test::unhex("91980100000000000000")));
  EXPECT_EQ(rejection(), "task_manager task 0: task id: expected a string, found positive integer at byte offset 2");
}

TEST_F(Corruption, ManifestVersionFlipped) {
  std::string m = read("manifest.txt");
  m[16] = '1';  // messagepack|1.0.0 -> messagepack|1.0.1
  write("manifest.txt", m);
  EXPECT_EQ(rejection(), "manifest.txt serializer version is '1.0.1', expected '1.0.0'");
}

TEST_F(Corruption, DescriptorDamagedMakesTheStoreEmpty) {
  write("descriptor.txt", "0|0|1795953115173\n");
  StoreSelection selection;
  selection.store_dir = store().string();
  RestoreOptions options;
  options.restore_time_ms = test::k_s7_restore_time_ms;
  auto outcome = restore_master(test::local_files(), selection, options);
  ASSERT_TRUE(outcome.ok());
  EXPECT_TRUE(outcome->attempts.empty());  // neither latest nor listed
  EXPECT_EQ(outcome->empty_reason, "the catalog holds no snapshot candidate");
}

// --- the real binary ------------------------------------------------------------------------

std::vector<std::string> rebuild_args(const fs::path& store) {
  return {"--store", store.string(), "--restore-time", std::to_string(test::k_s7_restore_time_ms)};
}

TEST_F(Corruption, BinaryPristineCopyExitsZero) {
  auto run = test::run_tool("quota-rebuild", rebuild_args(store()));
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("default"), std::string::npos) << run.out;
}

TEST_F(Corruption, BinaryOnlyCandidateRejectedExitsOneAndSaysEmpty) {
  write("metadata", "corrupted");
  auto run = test::run_tool("quota-rebuild", rebuild_args(store()));
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_NE(run.err.find("the master would start with EMPTY metadata: every snapshot candidate was rejected"),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.out.find("metadata: the top level is a positive integer, not a map"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find(test::k_s7.snapshot_id), std::string::npos) << run.out;
}

TEST_F(Corruption, BinaryJsonReportNamesTheRejectedCandidate) {
  truncate("segments", 100);
  auto args = rebuild_args(store());
  args.insert(args.end(), {"--format", "json"});
  auto run = test::run_tool("quota-rebuild", args);
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_NE(run.out.find("\"restored\": false"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("segments: "), std::string::npos) << run.out;
}

TEST_F(Corruption, BinaryBadPolicyExitsThree) {
  const fs::path policy = m_tmp.path() / "policy.yaml";
  test::write_file(policy, "version: 99\ntenants: [\n");
  auto args = rebuild_args(store());
  args.insert(args.end(), {"--policy", policy.string()});
  auto run = test::run_tool("quota-rebuild", args);
  EXPECT_EQ(run.exit_code, 3) << run.err;
  EXPECT_EQ(run.err.rfind("quota-rebuild: ", 0), 0u) << run.err;
  EXPECT_TRUE(run.out.empty()) << run.out;
}

TEST_F(Corruption, BinaryMissingStoreExitsThree) {
  auto run = test::run_tool("quota-rebuild", rebuild_args(m_tmp.path() / "no-such-store"));
  EXPECT_EQ(run.exit_code, 3) << run.err;
  EXPECT_NE(run.err.find("no snapshot root"), std::string::npos) << run.err;
  EXPECT_TRUE(run.out.empty()) << run.out;
}

TEST_F(Corruption, BinaryWithoutStoreIsAUsageError) {
  auto run = test::run_tool("quota-rebuild", {"--restore-time", "1"});
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_NE(run.err.find("one of --store or --snapshot-dir is required"), std::string::npos) << run.err;
}

}  // namespace
}  // namespace moonquota::restore
