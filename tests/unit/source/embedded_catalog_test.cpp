// The embedded catalog (snapshot-format.md §2.10, §3.1 step 2): latest.txt trimming and
// validation, List() order and filtering, and the master's candidate list.
#include "source/embedded_catalog.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/local_store.hpp"
#include "support/snapshot_test_support.hpp"

namespace moonquota::source {
namespace {

namespace fs = std::filesystem;
using test::TempDir;
using test::write_file;
using Ids = std::vector<std::string>;

class EmbeddedCatalog : public ::testing::Test {
 protected:
  fs::path root() const { return m_tmp.path() / "mooncake_master_snapshot" / "mooncake_cluster"; }
  // A published snapshot: a payload file and a descriptor.
  void publish(const std::string& id, const std::string& descriptor = "0|0|1787375520123") {
    write_file(root() / id / "metadata", "x");
    write_file(root() / id / "descriptor.txt", descriptor);
  }
  void set_latest(const std::string& text) { write_file(root() / "latest.txt", text); }
  CatalogListing read() {
    auto listing = read_embedded_catalog(test::local_files(), m_tmp.str(), "mooncake_cluster");
    EXPECT_TRUE(listing.ok()) << listing.status().message();
    return listing.ok() ? *listing : CatalogListing{};
  }

  TempDir m_tmp;
};

TEST_F(EmbeddedCatalog, RootPathHasClusterLevelOnlyWhenNonEmpty) {
  EXPECT_EQ(snapshot_root("/s", "mooncake_cluster"), "/s/mooncake_master_snapshot/mooncake_cluster/");
  EXPECT_EQ(snapshot_root("/s", ""), "/s/mooncake_master_snapshot/");
}

TEST_F(EmbeddedCatalog, MissingRootIsNotFound) {
  auto listing = read_embedded_catalog(test::local_files(), m_tmp.str(), "other_cluster");
  ASSERT_FALSE(listing.ok());
  EXPECT_EQ(listing.status().code(), util::StatusCode::not_found);
  EXPECT_NE(listing.status().message().find("mooncake_master_snapshot/other_cluster/"), std::string::npos);
}

// Audit item 19: a wrong --cluster-id names the cluster ids the store does hold.
TEST_F(EmbeddedCatalog, AWrongClusterIdNamesTheClustersPresent) {
  publish("20260822_051200_123");
  write_file(m_tmp.path() / "mooncake_master_snapshot" / "prod-s" / "latest.txt", "x");
  auto listing = read_embedded_catalog(test::local_files(), m_tmp.str(), "prod-x");
  ASSERT_FALSE(listing.ok());
  EXPECT_EQ(listing.status().code(), util::StatusCode::not_found);
  EXPECT_NE(listing.status().message().find(
                "(check --store and --cluster-id; the store holds cluster ids: mooncake_cluster, prod-s)"),
            std::string::npos)
      << listing.status().message();
  TempDir empty;
  auto none = read_embedded_catalog(test::local_files(), empty.str(), "prod-x");
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.status().message().find("(check --store and --cluster-id)"), std::string::npos)
      << none.status().message();
}

TEST_F(EmbeddedCatalog, ListsDescendingByString) {
  publish("20260822_051200_123");
  publish("20260822_061200_000");
  publish("20250101_000000_000");
  auto listing = read();
  EXPECT_EQ(listing.listed, (Ids{"20260822_061200_000", "20260822_051200_123", "20250101_000000_000"}));
  EXPECT_FALSE(listing.latest.has_value());
  EXPECT_TRUE(listing.latest_error.empty());
  // Without latest.txt every listed snapshot is a candidate, newest first.
  EXPECT_EQ(restore_candidates(listing), listing.listed);
}

TEST_F(EmbeddedCatalog, LatestIsTrimmedOfAsciiWhitespace) {
  publish("20260822_051200_123");
  set_latest(" \t\r\n\f\v20260822_051200_123\n\r\v\f\t ");
  auto listing = read();
  ASSERT_TRUE(listing.latest.has_value()) << listing.latest_error;
  EXPECT_EQ(*listing.latest, "20260822_051200_123");
  EXPECT_TRUE(listing.latest_error.empty());
}

TEST_F(EmbeddedCatalog, WhitespaceOnlyLatestMeansNoSnapshotWithoutError) {
  publish("20260822_051200_123");
  set_latest(" \n\t");
  auto listing = read();
  EXPECT_FALSE(listing.latest.has_value());
  EXPECT_TRUE(listing.latest_error.empty());
  EXPECT_EQ(restore_candidates(listing), Ids{"20260822_051200_123"});
}

TEST_F(EmbeddedCatalog, InvalidLatestFallsBackToListing) {
  publish("20260822_051200_123");
  publish("20260822_041200_123");
  set_latest("snapshot-000123");
  auto listing = read();
  EXPECT_FALSE(listing.latest.has_value());
  EXPECT_EQ(listing.latest_error, "latest.txt names 'snapshot-000123', not a valid snapshot id");
  EXPECT_EQ(restore_candidates(listing), (Ids{"20260822_051200_123", "20260822_041200_123"}));
}

TEST_F(EmbeddedCatalog, LatestWithoutDescriptorFallsBackToListing) {
  publish("20260822_041200_123");
  write_file(root() / "20260822_051200_123" / "metadata", "x");  // payload, no descriptor
  set_latest("20260822_051200_123");
  auto listing = read();
  EXPECT_FALSE(listing.latest.has_value());
  EXPECT_EQ(listing.latest_error.rfind("latest snapshot 20260822_051200_123: ", 0), 0u) << listing.latest_error;
  EXPECT_EQ(restore_candidates(listing), Ids{"20260822_041200_123"});
}

TEST_F(EmbeddedCatalog, LatestWithUnparsableDescriptorFallsBackToListing) {
  publish("20260822_041200_123");
  publish("20260822_051200_123", "0|0|1\n");
  set_latest("20260822_051200_123");
  auto listing = read();
  EXPECT_FALSE(listing.latest.has_value());
  EXPECT_EQ(listing.latest_error,
            "latest snapshot 20260822_051200_123: descriptor.txt created_at_ms '1\n' is not a signed decimal");
  EXPECT_EQ(listing.listed, Ids{"20260822_041200_123"});
  EXPECT_TRUE(test::has_finding(listing.findings, "descriptor.txt does not parse"));
}

TEST_F(EmbeddedCatalog, UnpublishedDirectoryIsSkippedAndReported) {
  publish("20260822_041200_123");
  write_file(root() / "20260822_051200_123" / "metadata", "x");
  write_file(root() / "20260822_051200_123" / "segments", "x");
  auto listing = read();
  EXPECT_EQ(listing.listed, Ids{"20260822_041200_123"});
  ASSERT_EQ(listing.findings.size(), 1u);
  EXPECT_EQ(listing.findings[0].severity, model::Severity::warning);
  EXPECT_EQ(listing.findings[0].message, "unpublished snapshot (no descriptor.txt): never restored");
  EXPECT_NE(listing.findings[0].location.find("20260822_051200_123"), std::string::npos);
}

TEST_F(EmbeddedCatalog, DirectoriesWithInvalidNamesAreInvisible) {
  publish("20260822_041200_123");
  for (const char* bad : {"snapshot-000123", "20260822_0512_123", "2026082a_051200_123"}) {
    write_file(root() / bad / "metadata", "x");
    write_file(root() / bad / "descriptor.txt", "0|0|1");
  }
  write_file(root() / "batch-oplog" / "1-2" / "segments.bin", "x");
  auto listing = read();
  EXPECT_EQ(listing.listed, Ids{"20260822_041200_123"});
  int invisible = 0;
  int batch = 0;
  for (const auto& f : listing.findings) {
    if (f.message == "directory name is not a valid snapshot id: invisible to the catalog") ++invisible;
    if (f.severity == model::Severity::info && f.message.find("batch-oplog") != std::string::npos) ++batch;
  }
  EXPECT_EQ(invisible, 3);
  EXPECT_EQ(batch, 1);
}

TEST_F(EmbeddedCatalog, EmptyDirectoryAndRootFilesAreNotSnapshots) {
  publish("20260822_041200_123");
  fs::create_directories(root() / "20260822_051200_123");  // no object under this prefix
  write_file(root() / "20260822_061200_123", "a regular file with a valid id name");
  auto listing = read();
  EXPECT_EQ(listing.listed, Ids{"20260822_041200_123"});
}

TEST_F(EmbeddedCatalog, CalendarInvalidIdIsListedWithAWarning) {
  publish("20261399_000000_000");
  auto listing = read();
  EXPECT_EQ(listing.listed, Ids{"20261399_000000_000"});
  EXPECT_TRUE(test::has_finding(listing.findings, "not a real calendar instant"));
}

TEST_F(EmbeddedCatalog, CandidatesExcludeIdsNewerThanLatest) {
  publish("20260822_071200_000");  // newer than latest: never a candidate
  publish("20260822_061200_000");
  publish("20260822_051200_000");
  publish("20260822_041200_000");
  set_latest("20260822_061200_000");
  auto listing = read();
  ASSERT_TRUE(listing.latest.has_value());
  EXPECT_EQ(restore_candidates(listing), (Ids{"20260822_061200_000", "20260822_051200_000", "20260822_041200_000"}));
}

TEST_F(EmbeddedCatalog, LatestNotInListingIsStillTheFirstCandidate) {
  CatalogListing listing;
  listing.latest = "20260822_061200_000";
  listing.listed = {"20260822_071200_000", "20260822_051200_000"};
  EXPECT_EQ(restore_candidates(listing), (Ids{"20260822_061200_000", "20260822_051200_000"}));
}

TEST_F(EmbeddedCatalog, EmptyClusterIdUsesTheBareRoot) {
  write_file(m_tmp.path() / "mooncake_master_snapshot" / "20260822_041200_123" / "descriptor.txt", "0|0|1");
  auto listing = read_embedded_catalog(test::local_files(), m_tmp.str(), "");
  ASSERT_TRUE(listing.ok()) << listing.status().message();
  EXPECT_EQ(listing->listed, Ids{"20260822_041200_123"});
}

TEST_F(EmbeddedCatalog, ReadDescriptorParsesAndReportsMissing) {
  publish("20260822_041200_123", "5|-2|1787375520123");
  auto d = read_descriptor(test::local_files(), (root() / "20260822_041200_123").string());
  ASSERT_TRUE(d.ok()) << d.status().message();
  EXPECT_EQ(d->last_included_seq, 5u);
  EXPECT_EQ(d->producer_view_version, -2);
  auto missing = read_descriptor(test::local_files(), (root() / "20990101_000000_000").string());
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), util::StatusCode::not_found);
}

// Audit item 19: a --store that already names the snapshot root (or a cluster under it) doubles
// the suffix; the error says which --store (and --cluster-id) was meant.
TEST_F(EmbeddedCatalog, AStoreInsideTheSnapshotRootGetsAHint) {
  EXPECT_EQ(doubled_root_hint("s3://demo/sample/mooncake_master_snapshot/mooncake_cluster"),
            "; --store names the folder that holds mooncake_master_snapshot/: try --store 's3://demo/sample' "
            "--cluster-id 'mooncake_cluster'");
  EXPECT_EQ(doubled_root_hint("/data/store/mooncake_master_snapshot/"),
            "; --store names the folder that holds mooncake_master_snapshot/: try --store '/data/store'");
  EXPECT_EQ(doubled_root_hint("mooncake_master_snapshot"),
            "; --store names the folder that holds mooncake_master_snapshot/: try --store '.'");
  EXPECT_EQ(doubled_root_hint("/data/store"), "");
  EXPECT_EQ(doubled_root_hint("/data/my_mooncake_master_snapshot_copy"), "");  // only a whole component
  EXPECT_EQ(doubled_root_hint("s3://mooncake_master_snapshot/x"), "");         // a bucket of that name

  write_file(m_tmp.path() / "mooncake_master_snapshot" / "c" / "20260822_041200_123" / "descriptor.txt", "0|0|1");
  auto missing =
      read_embedded_catalog(test::local_files(), (m_tmp.path() / "mooncake_master_snapshot" / "c").string(), "c");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("try --store '" + m_tmp.str() + "' --cluster-id 'c'"), std::string::npos)
      << missing.status().message();
}

}  // namespace
}  // namespace moonquota::source
