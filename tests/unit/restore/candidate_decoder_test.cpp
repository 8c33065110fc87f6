// One candidate decoded with the master's rules (snapshot-format.md §3.1 step 3, §5.3, §10, §16):
// duplicates in a shard, the post-restore filter and its counters, the non-OK segment bug and
// --fixed-master, duplicate shard keys, thread-count independence, missing payloads.
#include "restore/candidate_decoder.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "support/local_store.hpp"
#include "support/snapshot_test_support.hpp"

namespace moonquota::restore {
namespace {

namespace fs = std::filesystem;
using test::make_object;
using test::memory_replica;

constexpr const char* k_id = "20260822_051200_123";
constexpr std::uint64_t k_now = 1800000000000ULL;  // restore time used by these tests

class CandidateDecoder : public ::testing::Test {
 protected:
  fs::path dir() const { return m_tmp.path() / k_id; }
  void write(const test::SnapshotFiles& files) { test::write_snapshot(m_tmp.path(), k_id, files); }
  void write_shards(const std::vector<std::pair<std::uint32_t, std::string>>& shards,
                    const std::vector<test::SegmentSpec>& segments = {{"3-4", "seg-a"}}) {
    write(test::snapshot_files(k_id, test::metadata_file_bytes(shards), test::make_segments_payload(segments)));
  }
  util::Result<RestoredState> decode(bool fixed_master = false, unsigned threads = 1,
                                     ChargeModel model = ChargeModel::restore) {
    RestoreOptions options;
    options.restore_time_ms = k_now;
    options.fixed_master = fixed_master;
    options.threads = threads;
    options.charge_model = model;
    return decode_candidate(test::local_files(), dir().string(), k_id, options);
  }
  test::TempDir m_tmp;
};

TEST_F(CandidateDecoder, GenuineS1MatchesTheRealMaster) {
  RestoreOptions options;
  options.restore_time_ms = test::k_s1_restore_time_ms;
  auto state = decode_candidate(test::local_files(),
                                test::cluster_root(test::source_path(test::k_s1.store)) + "/" + test::k_s1.snapshot_id,
                                test::k_s1.snapshot_id, options);
  ASSERT_TRUE(state.ok()) << state.status().message();
  EXPECT_EQ(state->objects, 4u);
  ASSERT_EQ(state->tenants.size(), 2u);
  EXPECT_EQ(state->tenants.at("tenant-a").objects, 2u);
  EXPECT_TRUE(state->tenants.at("tenant-a").charged_bytes == 562144);
  EXPECT_TRUE(state->tenants.at("tenant-b").charged_bytes == 1148576);
  EXPECT_EQ(state->mounted_capacity_bytes, 8388608u);
  EXPECT_EQ(state->dropped.non_complete + state->dropped.lease_expired + state->dropped.undecodable, 0u);
  ASSERT_TRUE(state->descriptor.has_value());
  EXPECT_EQ(state->descriptor->created_at_ms, 1795953100543);
}

TEST_F(CandidateDecoder, DuplicateKeepsFirstReplicasAndLastLease) {
  // First: 2 COMPLETE MEMORY replicas, size 100, lease in the past. Last: 1 replica, size 999,
  // lease in the future. The object survives (last lease) and is charged 100 x 2 (first replicas).
  auto first = make_object("t", "k", 100, {memory_replica(1, "3-4", 100), memory_replica(2, "3-4", 100)}, k_now - 1);
  auto last = make_object("t", "k", 999, {memory_replica(3, "3-4", 999)}, k_now + 1);
  write_shards({{17, test::shard_raw_in_order({first, last})}});
  auto state = decode();
  ASSERT_TRUE(state.ok()) << state.status().message();
  EXPECT_EQ(state->objects, 1u);
  EXPECT_TRUE(state->tenants.at("t").charged_bytes == 200);
  EXPECT_TRUE(test::has_finding(
      state->findings, "duplicate entry for tenant 't' key 'k' (2 entries; the first decoded one keeps its replicas)"));
}

TEST_F(CandidateDecoder, DuplicateLastLeaseCanExpireTheObject) {
  auto first = make_object("t", "k", 100, {memory_replica(1, "3-4", 100)}, k_now + 1000);
  auto last = make_object("t", "k", 100, {memory_replica(2, "3-4", 100)}, k_now);
  write_shards({{17, test::shard_raw_in_order({first, last})}});
  auto state = decode();
  ASSERT_TRUE(state.ok()) << state.status().message();
  EXPECT_EQ(state->objects, 0u);
  EXPECT_EQ(state->dropped.lease_expired, 1u);
  EXPECT_EQ(state->tenants.at("t").dropped.lease_expired, 1u);
}

TEST_F(CandidateDecoder, UndecodableLaterDuplicateKeepsTheFirst) {
  auto first = make_object("t", "k", 100, {memory_replica(1, "3-4", 100)}, k_now + 1000);
  auto bad = make_object("t", "k", 5, {memory_replica(2, "3-4", 5)}, k_now - 1000);
  bad.client_id = "not-a-uuid";  // skipped by the decoder: its lease must not be applied
  write_shards({{17, test::shard_raw_in_order({first, bad})}});
  auto state = decode();
  ASSERT_TRUE(state.ok()) << state.status().message();
  EXPECT_EQ(state->objects, 1u);
  EXPECT_TRUE(state->tenants.at("t").charged_bytes == 100);
  EXPECT_EQ(state->dropped.undecodable, 1u);
  EXPECT_EQ(state->dropped.lease_expired, 0u);
}

TEST_F(CandidateDecoder, NonCompleteIsCountedBeforeLeaseExpiry) {
  auto processing_and_expired = make_object(
      "t", "a", 10, {memory_replica(1, "3-4", 10), test::disk_replica(2, 10, model::replica_status::processing)},
      k_now - 1);
  auto undefined_status = make_object("t", "b", 10, {memory_replica(3, "3-4", 10, -7)});
  auto expired = make_object("t", "c", 10, {memory_replica(4, "3-4", 10)}, k_now - 1);
  auto at_now = make_object("t", "d", 10, {memory_replica(5, "3-4", 10)}, k_now);  // lease <= now drops
  auto just_after = make_object("t", "e", 10, {memory_replica(6, "3-4", 10)}, k_now + 1);
  auto disk_only = make_object("t", "f", 10, {test::disk_replica(7, 10)});  // survives, charged 0
  write_shards({{1, test::shard_raw_in_order(
                        {processing_and_expired, undefined_status, expired, at_now, just_after, disk_only})}});
  auto state = decode();
  ASSERT_TRUE(state.ok()) << state.status().message();
  EXPECT_EQ(state->dropped.non_complete, 2u);
  EXPECT_EQ(state->dropped.lease_expired, 2u);
  EXPECT_EQ(state->objects, 2u);
  EXPECT_TRUE(state->tenants.at("t").charged_bytes == 10);
  EXPECT_EQ(state->tenants.at("t").objects, 2u);
}

TEST_F(CandidateDecoder, NonOkSegmentRejectsByDefault) {
  write_shards({{1, test::shard_raw_in_order({make_object("t", "a", 10, {memory_replica(1, "3-4", 10)})})}},
               {{"3-4", "seg-a"}, {"5-6", "seg-b", 8ULL << 20, model::segment_status::draining, 0x400000000ULL}});
  auto state = decode();
  ASSERT_FALSE(state.ok());
  EXPECT_EQ(state.status().message(),
            "segment 5-6 ('seg-b') has status DRAINING: unmounting it during restore throws std::system_error "
            "(\"Resource deadlock avoided\") in the master at upstream 3b5a5941, so this candidate is rejected "
            "(use --fixed-master to see what a fixed master would serve)");
}

TEST_F(CandidateDecoder, FixedMasterDropsObjectsOnTheNonOkSegment) {
  const auto on_ok = make_object("t", "a", 10, {memory_replica(1, "3-4", 10)});
  // Also on the healthy segment: skipped all the same, because one replica fails to decode.
  const auto on_both = make_object("t", "b", 20, {memory_replica(2, "3-4", 20), memory_replica(3, "5-6", 20)});
  const auto on_bad = make_object("u", "c", 30, {memory_replica(4, "5-6", 30)});
  write_shards({{1, test::shard_raw_in_order({on_ok, on_both, on_bad})}},
               {{"3-4", "seg-a"}, {"5-6", "seg-b", 8ULL << 20, model::segment_status::unmounting, 0x400000000ULL}});
  auto state = decode(/*fixed_master=*/true);
  ASSERT_TRUE(state.ok()) << state.status().message();
  EXPECT_EQ(state->objects, 1u);
  EXPECT_EQ(state->dropped.undecodable, 2u);
  EXPECT_EQ(state->tenants.at("u").dropped.undecodable, 1u);
  EXPECT_TRUE(state->tenants.at("t").charged_bytes == 10);
  EXPECT_EQ(state->mounted_capacity_bytes, 16ULL << 20);  // seg-b is unmounted
  ASSERT_EQ(state->segments.size(), 2u);
  EXPECT_TRUE(test::has_finding(state->findings, "is not OK: unmounted after restore (modelling a fixed master)"));
}

// The live model (issue 10): the same candidate as a running master holds it. Nothing the restore
// erases is erased, and a non-OK segment does not reject it; objects the decoder skips stay
// uncharged and are said so.
TEST_F(CandidateDecoder, LiveModelKeepsWhatARestoreErasesAndIgnoresTheUnmountBug) {
  const auto mixed = make_object(
      "t", "a", 10, {memory_replica(1, "3-4", 10), test::disk_replica(2, 10, model::replica_status::processing)},
      k_now - 1);
  const auto expired = make_object("t", "c", 10, {memory_replica(4, "3-4", 10)}, k_now - 1);
  const auto on_bad = make_object("u", "d", 30, {memory_replica(5, "5-6", 30)});
  write_shards({{1, test::shard_raw_in_order({mixed, expired, on_bad})}},
               {{"3-4", "seg-a"}, {"5-6", "seg-b", 8ULL << 20, model::segment_status::draining, 0x400000000ULL}});
  ASSERT_FALSE(decode().ok()) << "the restore model rejects the candidate (the unmount bug)";
  auto live = decode(false, 1, ChargeModel::live);
  ASSERT_TRUE(live.ok()) << live.status().message();
  EXPECT_EQ(live->objects, 2u);
  EXPECT_TRUE(live->tenants.at("t").charged_bytes == 20);
  EXPECT_EQ(live->dropped.non_complete + live->dropped.lease_expired, 0u);
  EXPECT_EQ(live->dropped.undecodable, 1u);
  EXPECT_TRUE(test::has_finding(live->findings, "so their charge on a running master is not part of the live model"));
}

TEST_F(CandidateDecoder, DuplicateShardKeyLastOneWins) {
  write_shards({{9, test::shard_raw_in_order({make_object("t", "first", 10, {memory_replica(1, "3-4", 10)})})},
                {9, test::shard_raw_in_order({make_object("t", "second", 70, {memory_replica(2, "3-4", 70)})})}});
  auto state = decode();
  ASSERT_TRUE(state.ok()) << state.status().message();
  EXPECT_EQ(state->objects, 1u);
  EXPECT_TRUE(state->tenants.at("t").charged_bytes == 70);
  EXPECT_EQ(state->metadata_shards, 2u);
  EXPECT_TRUE(test::has_finding(state->findings, "1 duplicate shard keys (the last one of each wins)"));
}

TEST_F(CandidateDecoder, SameKeyInTwoShardsIsTwoObjects) {
  write_shards({{1, test::shard_raw_in_order({make_object("t", "k", 10, {memory_replica(1, "3-4", 10)})})},
                {2, test::shard_raw_in_order({make_object("t", "k", 10, {memory_replica(2, "3-4", 10)})})}});
  auto state = decode();
  ASSERT_TRUE(state.ok()) << state.status().message();
  EXPECT_EQ(state->objects, 2u);
  EXPECT_TRUE(state->tenants.at("t").charged_bytes == 20);
  EXPECT_EQ(state->tenants.at("t").shards, 2u);
}

TEST_F(CandidateDecoder, ThreadCountDoesNotChangeTheState) {
  std::vector<std::pair<std::uint32_t, std::string>> shards;
  for (std::uint32_t s = 0; s < 40; ++s) {
    std::vector<model::ObjectRecord> objects;
    for (std::uint32_t k = 0; k < 4; ++k) {
      auto o = make_object("tenant-" + std::to_string((s + k) % 3), "k" + std::to_string(s * 4 + k), 100 + s,
                           {memory_replica(s * 4 + k + 1, "3-4", 100 + s)}, k == 3 ? k_now : k_now + 1);
      if (s % 7 == 0 && k == 1) o.client_id = "junk";
      objects.push_back(o);
    }
    std::sort(objects.begin(), objects.end(),
              [](const auto& a, const auto& b) { return std::tie(a.tenant_id, a.key) < std::tie(b.tenant_id, b.key); });
    shards.emplace_back(s * 25, test::shard_raw_in_order(objects));
  }
  write_shards(shards);
  auto one = decode(false, 1);
  auto two = decode(false, 2);
  ASSERT_TRUE(one.ok() && two.ok());
  EXPECT_EQ(one->objects, two->objects);
  EXPECT_EQ(one->dropped.lease_expired, two->dropped.lease_expired);
  EXPECT_EQ(one->dropped.undecodable, two->dropped.undecodable);
  EXPECT_EQ(one->dropped.undecodable, 6u);
  EXPECT_EQ(one->dropped.lease_expired, 40u);
  ASSERT_EQ(one->tenants.size(), two->tenants.size());
  for (const auto& [tenant, tally] : one->tenants) {
    EXPECT_EQ(tally.objects, two->tenants.at(tenant).objects) << tenant;
    EXPECT_TRUE(tally.charged_bytes == two->tenants.at(tenant).charged_bytes) << tenant;
    EXPECT_EQ(tally.shards, two->tenants.at(tenant).shards) << tenant;
  }
  ASSERT_EQ(one->findings.size(), two->findings.size());
  for (std::size_t i = 0; i < one->findings.size(); ++i) {
    EXPECT_EQ(one->findings[i].location, two->findings[i].location);
    EXPECT_EQ(one->findings[i].message, two->findings[i].message);
  }
}

TEST_F(CandidateDecoder, EveryPayloadIsRequired) {
  for (const char* name : {"metadata", "segments", "task_manager", "manifest.txt"}) {
    write_shards({});
    fs::remove(dir() / name);
    auto state = decode();
    ASSERT_FALSE(state.ok()) << name;
    EXPECT_EQ(state.status().message(), std::string(name) + " is missing");
  }
}

// A payload that is there but not a regular file (a FIFO, a directory) is not called missing, and
// a FIFO without a writer no longer blocks the read (it hung open() before).
TEST_F(CandidateDecoder, APayloadThatIsNotARegularFileIsNamedAsSuch) {
  for (const char* name : {"metadata", "segments", "task_manager"}) {
    write_shards({});
    const fs::path path = dir() / name;
    fs::remove(path);
    ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0) << std::strerror(errno);
    auto state = decode();
    ASSERT_FALSE(state.ok()) << name;
    EXPECT_EQ(state.status().message(), std::string(name) + ": '" + path.string() + "' is not a regular file");
    fs::remove(path);
  }
}

TEST_F(CandidateDecoder, DescriptorIsOptionalForOneCandidate) {
  write_shards({});
  fs::remove(dir() / "descriptor.txt");
  auto state = decode();
  ASSERT_TRUE(state.ok()) << state.status().message();
  EXPECT_FALSE(state->descriptor.has_value());
}

TEST_F(CandidateDecoder, BadManifestRejects) {
  auto files = test::snapshot_files(k_id, test::metadata_file_bytes({}), test::make_segments_payload({}));
  files.manifest = "messagepack|1.0.1|" + std::string(k_id);
  write(files);
  auto state = decode();
  ASSERT_FALSE(state.ok());
  EXPECT_EQ(state.status().message(), "manifest.txt serializer version is '1.0.1', expected '1.0.0'");
}

TEST_F(CandidateDecoder, EmptyOrGarbageTaskManagerRejects) {
  auto files = test::snapshot_files(k_id, test::metadata_file_bytes({}), test::make_segments_payload({}));
  files.task_manager = "";
  write(files);
  auto state = decode();
  ASSERT_FALSE(state.ok());
  EXPECT_EQ(state.status().message(), "task_manager: empty zstd input");
  files.task_manager = util::zstd_compress(test::unhex("80"));  // a map, not an array
  write(files);
  state = decode();
  ASSERT_FALSE(state.ok());
  EXPECT_EQ(state.status().message(), "task_manager: task list: expected an array, found map at byte offset 0");
}

TEST_F(CandidateDecoder, SegmentsErrorsCarryContext) {
  auto files = test::snapshot_files(k_id, test::metadata_file_bytes({}), test::make_segments_payload({}));
  files.segments = util::zstd_compress(test::unhex("81a26d6102"));  // "ma": 2
  write(files);
  auto state = decode();
  ASSERT_FALSE(state.ok());
  EXPECT_EQ(state.status().message(), "segments: \"ma\" at byte offset 4 is not the OFFSET allocator type (1)");
}

}  // namespace
}  // namespace moonquota::restore
