// The one reader and the restore candidate agree on every golden snapshot: the same error for
// bytes the master cannot decode, the same rejection for a non-OK segment, the same tallies and
// findings otherwise. This is what makes every tool report the same master verdict.
#include "restore/snapshot_reader.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "restore/candidate_decoder.hpp"
#include "support/local_store.hpp"
#include "support/snapshot_test_support.hpp"

namespace moonquota::restore {
namespace {

namespace fs = std::filesystem;

struct SnapshotDir {
  std::string dir;
  std::string id;
};

// Every snapshot directory of every golden store under snapshots/.
std::vector<SnapshotDir> golden_snapshot_dirs() {
  std::vector<SnapshotDir> out;
  for (const auto& entry : fs::recursive_directory_iterator(test::source_path("snapshots"))) {
    if (entry.path().filename() != "manifest.txt") continue;
    const fs::path dir = entry.path().parent_path();
    out.push_back({dir.string(), dir.filename().string()});
  }
  std::sort(out.begin(), out.end(), [](const SnapshotDir& a, const SnapshotDir& b) { return a.dir < b.dir; });
  return out;
}

ScannedSnapshot expect_scan(const SnapshotDir& s, std::uint64_t restore_time_ms, util::Status& error) {
  ScanOptions options;
  options.restore_time_ms = restore_time_ms;
  options.descriptor_finding = false;
  auto scanned = scan_snapshot(test::local_files(), s.dir, s.id, options, {nullptr, nullptr});
  if (!scanned.ok()) {
    error = scanned.status();
    return {};
  }
  return std::move(scanned).value();
}

TEST(SnapshotReader, TheCandidateDecoderReportsTheReadersVerdictOnEveryGoldenSnapshot) {
  const auto dirs = golden_snapshot_dirs();
  ASSERT_GE(dirs.size(), 10u);
  std::size_t rejected_bytes = 0, rejected_segment = 0, restored = 0;
  for (const std::uint64_t restore_time_ms : {std::uint64_t{0}, test::k_future_lease_ms}) {
    for (const auto& s : dirs) {
      SCOPED_TRACE(s.dir + " at " + std::to_string(restore_time_ms));
      util::Status scan_error;
      const ScannedSnapshot snap = expect_scan(s, restore_time_ms, scan_error);
      RestoreOptions options;
      options.restore_time_ms = restore_time_ms;
      options.threads = 2;
      auto candidate = decode_candidate(test::local_files(), s.dir, s.id, options);
      if (!scan_error.ok()) {
        ++rejected_bytes;
        ASSERT_FALSE(candidate.ok());
        EXPECT_EQ(candidate.status().code(), scan_error.code());
        EXPECT_EQ(candidate.status().message(), scan_error.message());
        continue;
      }
      if (snap.non_ok_segment) {
        ++rejected_segment;
        ASSERT_FALSE(candidate.ok());
        EXPECT_EQ(candidate.status().message().rfind(non_ok_segment_reason(*snap.non_ok_segment), 0), 0u)
            << candidate.status().message();
        EXPECT_EQ(*snap.master_rejection,
                  non_ok_segment_reason(*snap.non_ok_segment) + ", so the master rejects this snapshot");
        options.fixed_master = true;
        candidate = decode_candidate(test::local_files(), s.dir, s.id, options);
      } else {
        ++restored;
        EXPECT_TRUE(snap.metadata_checked());
      }
      ASSERT_TRUE(candidate.ok()) << candidate.status().message();
      EXPECT_EQ(candidate->objects, snap.restored_objects);
      EXPECT_EQ(candidate->dropped.lease_expired, snap.dropped.lease_expired);
      EXPECT_EQ(candidate->dropped.non_complete, snap.dropped.non_complete);
      EXPECT_EQ(candidate->dropped.undecodable, snap.dropped.undecodable);
      EXPECT_EQ(candidate->metadata_shards, snap.metadata.shard_entries);
      EXPECT_EQ(candidate->tasks, snap.tasks.size());
      ASSERT_EQ(candidate->tenants.size(), snap.restored_tenants.size());
      for (const auto& [tenant, tally] : snap.restored_tenants) {
        const auto it = candidate->tenants.find(tenant);
        ASSERT_NE(it, candidate->tenants.end()) << tenant;
        EXPECT_TRUE(it->second.charged_bytes == tally.charged_bytes) << tenant;
        EXPECT_EQ(it->second.objects, tally.objects) << tenant;
      }
    }
  }
  EXPECT_GT(rejected_bytes, 0u) << "snapshots/inspect-corrupt is among the golden stores";
  EXPECT_GT(rejected_segment, 0u) << "snapshots/inspect-findings has a DRAINING segment";
  EXPECT_GT(restored, 0u);
}

TEST(SnapshotReader, AHeaderOnlyReadHasNotCheckedTheMetadata) {
  const SnapshotDir s{test::source_path("snapshots/inspect-corrupt/store/mooncake_master_snapshot/mooncake_cluster/"
                                        "20260822_051200_123"),
                      "20260822_051200_123"};
  ScanOptions header;
  header.decode_shards = false;
  auto snap = scan_snapshot(test::local_files(), s.dir, s.id, header, {nullptr});
  ASSERT_TRUE(snap.ok()) << snap.status().message();
  EXPECT_FALSE(snap->metadata_checked()) << "the corrupt shard was never decompressed: no verdict of 'restores'";
  ScanOptions full;
  auto checked = scan_snapshot(test::local_files(), s.dir, s.id, full, {nullptr});
  ASSERT_FALSE(checked.ok());
  EXPECT_NE(checked.status().message().find("shard 963"), std::string::npos) << checked.status().message();
}

}  // namespace
}  // namespace moonquota::restore
