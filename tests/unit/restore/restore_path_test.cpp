// The master restore path over a store (snapshot-format.md §3): candidates in order, fallback to
// an older snapshot, the report of every rejected candidate, and the empty outcome.
#include "restore/restore_path.hpp"

#include <gtest/gtest.h>

#include <string>

#include "support/local_store.hpp"
#include "support/snapshot_test_support.hpp"

namespace moonquota::restore {
namespace {

namespace fs = std::filesystem;

constexpr const char* k_old = "20260822_041200_000";
constexpr const char* k_new = "20260822_051200_000";
constexpr std::uint64_t k_restore_time_ms = 1800000000000ULL;

class RestorePath : public ::testing::Test {
 protected:
  fs::path root() const { return test::cluster_root(m_tmp.path()); }
  // A healthy snapshot whose single tenant `tenant` holds one 10-byte object.
  void add(const std::string& id, const std::string& tenant) {
    format::MetadataContent content;
    content.objects.push_back(test::make_object(tenant, "k", 10, {test::memory_replica(1, "3-4", 10)}));
    content.replica_next_id = 2;
    test::write_snapshot(root(), id,
                         test::snapshot_files(id, content, test::make_segments_payload({{"3-4", "seg-a"}})));
  }
  void set_latest(const std::string& id) { test::write_file(root() / "latest.txt", id); }
  util::Result<RestoreOutcome> restore(StoreSelection selection = {}) {
    if (selection.store_dir.empty() && selection.snapshot_dir.empty()) selection.store_dir = m_tmp.str();
    RestoreOptions options;
    options.restore_time_ms = k_restore_time_ms;
    return restore_master(test::local_files(), selection, options);
  }
  test::TempDir m_tmp;
};

TEST_F(RestorePath, LatestWins) {
  add(k_old, "old");
  add(k_new, "new");
  set_latest(k_new);
  auto outcome = restore();
  ASSERT_TRUE(outcome.ok()) << outcome.status().message();
  ASSERT_EQ(outcome->attempts.size(), 1u);
  EXPECT_TRUE(outcome->attempts[0].restored);
  ASSERT_TRUE(outcome->state.has_value());
  EXPECT_EQ(outcome->state->snapshot_id, k_new);
  EXPECT_EQ(outcome->state->tenants.count("new"), 1u);
}

TEST_F(RestorePath, FallsBackWhenLatestMetadataIsCorrupted) {
  add(k_old, "old");
  add(k_new, "new");
  set_latest(k_new);
  test::write_file(root() / k_new / "metadata", "corrupted snapshot metadata");  // upstream's own test
  auto outcome = restore();
  ASSERT_TRUE(outcome.ok()) << outcome.status().message();
  ASSERT_EQ(outcome->attempts.size(), 2u);
  EXPECT_EQ(outcome->attempts[0].snapshot_id, k_new);
  EXPECT_FALSE(outcome->attempts[0].restored);
  EXPECT_EQ(outcome->attempts[0].reason, "metadata: the top level is a positive integer, not a map");
  EXPECT_EQ(outcome->attempts[1].snapshot_id, k_old);
  EXPECT_TRUE(outcome->attempts[1].restored);
  ASSERT_TRUE(outcome->state.has_value());
  EXPECT_EQ(outcome->state->snapshot_id, k_old);
  EXPECT_EQ(outcome->state->objects, 1u);
  EXPECT_TRUE(outcome->empty_reason.empty());
}

TEST_F(RestorePath, FallsBackPastANonOkSegmentSnapshot) {
  add(k_old, "old");
  format::MetadataContent content;
  test::write_snapshot(
      root(), k_new,
      test::snapshot_files(
          k_new, content,
          test::make_segments_payload({{"3-4", "seg-a"}, {"5-6", "seg-b", 1 << 20, model::segment_status::drained}})));
  set_latest(k_new);
  auto outcome = restore();
  ASSERT_TRUE(outcome.ok());
  ASSERT_EQ(outcome->attempts.size(), 2u);
  EXPECT_NE(outcome->attempts[0].reason.find("Resource deadlock avoided"), std::string::npos);
  EXPECT_EQ(outcome->state->snapshot_id, k_old);
}

TEST_F(RestorePath, AllCandidatesRejectedMeansAnEmptyMaster) {
  add(k_old, "old");
  add(k_new, "new");
  fs::remove(root() / k_old / "task_manager");
  test::write_file(root() / k_new / "segments", "garbage");
  auto outcome = restore();
  ASSERT_TRUE(outcome.ok()) << outcome.status().message();
  EXPECT_FALSE(outcome->state.has_value());
  EXPECT_EQ(outcome->empty_reason, "every snapshot candidate was rejected");
  ASSERT_EQ(outcome->attempts.size(), 2u);
  EXPECT_EQ(outcome->attempts[0].reason, "segments: not a zstd frame");
  EXPECT_EQ(outcome->attempts[1].reason, "task_manager is missing");
}

TEST_F(RestorePath, NoCandidateMeansAnEmptyMaster) {
  fs::create_directories(root());
  auto outcome = restore();
  ASSERT_TRUE(outcome.ok());
  EXPECT_TRUE(outcome->attempts.empty());
  EXPECT_FALSE(outcome->state.has_value());
  EXPECT_EQ(outcome->empty_reason, "the catalog holds no snapshot candidate");
}

TEST_F(RestorePath, SnapshotNewerThanLatestIsNeverTried) {
  add(k_old, "old");
  add(k_new, "new");
  set_latest(k_old);
  test::write_file(root() / k_old / "metadata", "x");  // latest rejected: the newer one is still not a candidate
  auto outcome = restore();
  ASSERT_TRUE(outcome.ok());
  ASSERT_EQ(outcome->attempts.size(), 1u);
  EXPECT_EQ(outcome->attempts[0].snapshot_id, k_old);
  EXPECT_FALSE(outcome->state.has_value());
}

TEST_F(RestorePath, BrokenLatestPointerFallsBackToTheListing) {
  add(k_old, "old");
  set_latest("20991231_000000_000");  // no such snapshot (no descriptor)
  auto outcome = restore();
  ASSERT_TRUE(outcome.ok());
  ASSERT_TRUE(outcome->state.has_value());
  EXPECT_EQ(outcome->state->snapshot_id, k_old);
  EXPECT_TRUE(test::has_finding(outcome->catalog_findings, "the master falls back to the listing"));
}

TEST_F(RestorePath, ExplicitSnapshotIdIsTheOnlyCandidate) {
  add(k_old, "old");
  add(k_new, "new");
  set_latest(k_new);
  StoreSelection selection;
  selection.store_dir = m_tmp.str();
  selection.snapshot = k_old;
  auto outcome = restore(selection);
  ASSERT_TRUE(outcome.ok());
  ASSERT_EQ(outcome->attempts.size(), 1u);
  EXPECT_EQ(outcome->state->snapshot_id, k_old);
  selection.snapshot = "old";
  auto bad = restore(selection);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), util::StatusCode::invalid_argument);
  selection.snapshot = "20200101_000000_000";
  auto missing = restore(selection);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), util::StatusCode::not_found);
}

TEST_F(RestorePath, SnapshotDirWithoutDescriptor) {
  add(k_old, "old");
  fs::remove(root() / k_old / "descriptor.txt");
  StoreSelection selection;
  selection.snapshot_dir = (root() / k_old).string() + "/";
  auto outcome = restore(selection);
  ASSERT_TRUE(outcome.ok()) << outcome.status().message();
  ASSERT_TRUE(outcome->state.has_value());
  EXPECT_EQ(outcome->state->snapshot_id, k_old);
  EXPECT_TRUE(test::has_finding(outcome->catalog_findings, "no descriptor.txt: last_included_seq taken as 0"));
}

TEST_F(RestorePath, MissingStoreIsAnError) {
  StoreSelection selection;
  selection.store_dir = (m_tmp.path() / "nothing").string();
  auto outcome = restore(selection);
  ASSERT_FALSE(outcome.ok());
  EXPECT_EQ(outcome.status().code(), util::StatusCode::not_found);
  StoreSelection dir_selection;
  dir_selection.snapshot_dir = (m_tmp.path() / "nothing").string();
  EXPECT_EQ(restore(dir_selection).status().code(), util::StatusCode::not_found);
}

TEST_F(RestorePath, MemoryGuardStopsTheWalkInsteadOfFallingBack) {
  add(k_old, "old");
  add(k_new, "new");
  set_latest(k_new);
  StoreSelection selection;
  selection.store_dir = m_tmp.str();
  RestoreOptions options;
  options.restore_time_ms = k_restore_time_ms;
  options.max_payload_bytes = 64;  // the segments payload is larger: our limit, not a master rejection
  auto outcome = restore_master(test::local_files(), selection, options);
  ASSERT_FALSE(outcome.ok());
  EXPECT_EQ(outcome.status().code(), util::StatusCode::limit_exceeded);
  EXPECT_NE(outcome.status().message().find("raise --max-payload-bytes"), std::string::npos);
}

}  // namespace
}  // namespace moonquota::restore
