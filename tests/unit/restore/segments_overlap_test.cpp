// The restore reads the segments payload on a thread of its own while it decodes the shards
// speculatively (ScanOptions::overlap_segments, format::SegmentSpeculation). Whatever the timing,
// the result must be the one of reading the payload first: the same tallies, findings, counts and
// errors, on every golden store and on stores built to refute the speculation (an object on a
// segment the table does not make usable), to stop it (entries the canonical reader leaves to the
// general decoder), and to fail both payloads at once.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "format/canonical_entry.hpp"
#include "format/shard_decoder.hpp"
#include "restore/scan_hooks.hpp"
#include "restore/snapshot_reader.hpp"
#include "support/local_store.hpp"
#include "support/snapshot_test_support.hpp"

namespace moonquota::restore {
namespace {

namespace fs = std::filesystem;

// A 128-bit count as its two 64-bit halves (exact, and all a comparison needs).
std::string u128_text(util::u128 v) {
  return std::to_string(static_cast<std::uint64_t>(v >> 64)) + ":" + std::to_string(static_cast<std::uint64_t>(v));
}

// Everything a reader of ScannedSnapshot uses from the shards and the segments payload, as text.
std::string describe(const util::Result<ScannedSnapshot>& scanned) {
  if (!scanned.ok()) return "error " + scanned.status().to_string();
  const ScannedSnapshot& s = *scanned;
  std::ostringstream out;
  out << "objects " << s.restored_objects << " entries " << s.entries << " dropped " << s.dropped.non_complete << "/"
      << s.dropped.lease_expired << "/" << s.dropped.undecodable << " shard_entries " << s.metadata.shard_entries
      << " duplicates " << s.duplicate_shard_blobs << " discarded " << s.metadata.discarded.size() << " segments "
      << s.segments.mounted.size() << " raw " << s.segments_raw_bytes << " decompressed "
      << s.metadata.decompressed_shard_bytes << " tasks " << s.tasks.size() << "\n";
  if (s.master_rejection) out << "rejection " << *s.master_rejection << "\n";
  for (const auto& [tenant, t] : s.restored_tenants) {
    out << "tenant " << tenant << " " << t.objects << " " << u128_text(t.charged_bytes) << " " << t.shards << " "
        << t.dropped.non_complete << "/" << t.dropped.lease_expired << "/" << t.dropped.undecodable << " in-flight "
        << u128_text(t.evidence.in_flight_bytes) << "/" << t.evidence.in_flight_objects << "/"
        << t.evidence.in_flight.size() << " removed " << u128_text(t.evidence.removed_bytes) << " upserts "
        << t.evidence.upserts.objects << "\n";
  }
  for (const auto& f : s.findings) {
    out << "finding " << static_cast<int>(f.severity) << " " << f.location << " | " << f.message << " | " << f.rule
        << "\n";
  }
  return out.str();
}

util::Result<ScannedSnapshot> scan(const std::string& dir, const std::string& id, std::uint64_t restore_time_ms,
                                   bool overlap, bool every_shard, unsigned threads = 2) {
  ScanOptions options;
  options.restore_time_ms = restore_time_ms;
  options.overlap_segments = overlap;
  ScanHooks hooks;
  hooks.speculate_every_shard = every_shard;
  return scan_snapshot_with_hooks(test::local_files(), dir, id, options, std::vector<ShardAnalyzer*>(threads, nullptr),
                                  hooks);
}

// The scan with the overlap (every shard speculative, or whatever the timing gives)
// equals the scan without it.
void expect_overlap_changes_nothing(const std::string& dir, const std::string& id, std::uint64_t restore_time_ms) {
  const std::string reference = describe(scan(dir, id, restore_time_ms, false, false));
  EXPECT_EQ(describe(scan(dir, id, restore_time_ms, true, true)), reference);
  EXPECT_EQ(describe(scan(dir, id, restore_time_ms, true, false)), reference);
  EXPECT_EQ(describe(scan(dir, id, restore_time_ms, true, true, 3)), reference);
}

TEST(SegmentsOverlap, EveryGoldenSnapshotReadsTheSameWithAndWithoutIt) {
  std::size_t dirs = 0;
  std::uint64_t speculative = 0;
  std::uint64_t redecoded = 0;
  for (const auto& entry : fs::recursive_directory_iterator(test::source_path("snapshots"))) {
    if (entry.path().filename() != "manifest.txt") continue;
    const fs::path dir = entry.path().parent_path();
    ++dirs;
    for (const std::uint64_t at : {std::uint64_t{0}, test::k_future_lease_ms}) {
      SCOPED_TRACE(dir.string() + " at " + std::to_string(at));
      expect_overlap_changes_nothing(dir.string(), dir.filename().string(), at);
    }
    auto speculated = scan(dir.string(), dir.filename().string(), 0, true, true);
    if (speculated.ok()) {
      speculative += speculated->overlap.speculative_shards;
      redecoded += speculated->overlap.redecoded_shards;
    }
  }
  EXPECT_GE(dirs, 10u);
  // Both speculative outcomes occur among the golden stores (the sweep tests something).
  EXPECT_GT(speculative, 0u);
  EXPECT_GT(redecoded, 0u);
}

class BuiltStore : public ::testing::Test {
 protected:
  static constexpr const char* k_id = "20260822_051200_123";
  static constexpr const char* k_seg_a = "3-4";
  static constexpr const char* k_seg_b = "5-6";

  // Three shards of objects on `segment_of_last` (the last object of shard 9) and on A.
  void write(const std::string& segment_of_last, std::int16_t status_b = model::segment_status::ok) {
    std::vector<std::pair<std::uint32_t, std::string>> shards;
    for (std::uint32_t shard : {2u, 5u, 9u}) {
      std::vector<model::ObjectRecord> objects;
      for (int k = 0; k < 4; ++k) {
        const std::string key = "k" + std::to_string(shard) + "-" + std::to_string(k);
        const std::string seg = shard == 9 && k == 3 ? segment_of_last : k_seg_a;
        objects.push_back(test::make_object("t" + std::to_string(k % 2), key, 1000 + k,
                                            {test::memory_replica(shard * 10 + k, seg, 1000 + k)}));
      }
      std::sort(objects.begin(), objects.end(), [](const auto& x, const auto& y) {
        return std::tie(x.tenant_id, x.key) < std::tie(y.tenant_id, y.key);
      });
      shards.emplace_back(shard, test::shard_raw_in_order(objects));
    }
    const auto segments = test::make_segments_payload(
        {{k_seg_a, "seg-a"}, {k_seg_b, "seg-b", 16ULL << 20, status_b, test::k_segment_base + (1ULL << 30)}});
    test::write_snapshot(m_dir.path(), k_id, test::snapshot_files(k_id, test::metadata_file_bytes(shards), segments));
  }
  [[nodiscard]] std::string dir() const { return (m_dir.path() / k_id).string(); }

  test::TempDir m_dir;
};

TEST_F(BuiltStore, ObjectsOnUsableSegmentsAreDecodedOnceSpeculatively) {
  write(k_seg_b);
  auto speculated = scan(dir(), k_id, 0, true, true);
  ASSERT_TRUE(speculated.ok()) << speculated.status().message();
  EXPECT_EQ(speculated->overlap.speculative_shards, 3u);
  EXPECT_EQ(speculated->overlap.redecoded_shards, 0u);
  EXPECT_FALSE(speculated->overlap.read_again);
  EXPECT_EQ(speculated->restored_objects, 12u);
  expect_overlap_changes_nothing(dir(), k_id, 0);
}

TEST_F(BuiltStore, AnObjectOnAnUnknownSegmentRefutesTheSpeculation) {
  write("7-8");  // in no table: the object is skipped
  auto speculated = scan(dir(), k_id, 0, true, true);
  ASSERT_TRUE(speculated.ok()) << speculated.status().message();
  EXPECT_TRUE(speculated->overlap.read_again);
  EXPECT_EQ(speculated->restored_objects, 11u);
  EXPECT_EQ(speculated->dropped.undecodable, 1u);
  expect_overlap_changes_nothing(dir(), k_id, 0);
}

TEST_F(BuiltStore, AnObjectOnANonOkSegmentRefutesTheSpeculation) {
  write(k_seg_b, model::segment_status::unmounting);
  auto speculated = scan(dir(), k_id, 0, true, true);
  ASSERT_TRUE(speculated.ok()) << speculated.status().message();
  EXPECT_TRUE(speculated->overlap.read_again);
  expect_overlap_changes_nothing(dir(), k_id, 0);
}

TEST_F(BuiltStore, AnEntryLeftToTheGeneralDecoderIsDecodedAgainWithTheTable) {
  write("not-a-uuid");  // the canonical reader takes it as usable; the table refutes it
  expect_overlap_changes_nothing(dir(), k_id, 0);
  // A shard the canonical reader cannot read at all (a legacy 2-element entry).
  std::string legacy = test::msgpack([](format::MsgpackWriter& w) {
    w.pack_map_header(1);
    w.pack_str("metadata");
    w.pack_array_header(1);
    w.pack_array_header(2);
    w.pack_str("legacy-key");
  });
  format::SegmentTable table;
  format::SegmentSpeculation speculation;
  format::ObjectView scratch;
  test::RecordingVisitor visitor;
  model::Findings findings;
  // The entry's ObjectMetadata is missing: only the general decoder can say so, with the table.
  EXPECT_TRUE(format::decode_shard(legacy, 4, table, scratch, visitor, findings, format::DecodePath::canonical_first,
                                   &speculation)
                  .ok());
  EXPECT_TRUE(speculation.needs_table);
  EXPECT_TRUE(visitor.entries.empty());
  EXPECT_TRUE(findings.empty());
}

TEST_F(BuiltStore, ADamagedSegmentsPayloadIsTheErrorWhateverTheShards) {
  write(k_seg_b);
  const fs::path segments = fs::path(dir()) / "segments";
  const std::string bytes = test::read_file(segments);
  test::write_file(segments, bytes.substr(0, bytes.size() / 2));
  auto reference = scan(dir(), k_id, 0, false, false);
  ASSERT_FALSE(reference.ok());
  EXPECT_EQ(describe(scan(dir(), k_id, 0, true, true)), describe(reference));
  EXPECT_EQ(describe(scan(dir(), k_id, 0, true, false)), describe(reference));
  // And with a damaged metadata file too: the segments payload's error comes first, as before.
  const fs::path metadata = fs::path(dir()) / "metadata";
  std::string meta = test::read_file(metadata);
  meta[meta.size() / 2] = static_cast<char>(meta[meta.size() / 2] ^ 0x5a);
  test::write_file(metadata, meta);
  EXPECT_EQ(describe(scan(dir(), k_id, 0, true, true)), describe(reference));
  EXPECT_EQ(describe(scan(dir(), k_id, 0, true, false)), describe(reference));
}

TEST(SegmentSpeculation, HoldsExactlyWhenEveryRememberedSegmentIsUsable) {
  format::SegmentTable table;
  const util::Uuid a{3, 4};
  const util::Uuid b{5, 6};
  table.add(a, {model::segment_status::ok, true});
  table.add(b, {model::segment_status::ok, false});  // no allocator
  format::SegmentSpeculation speculation;
  EXPECT_TRUE(speculation.holds_under(table));
  speculation.remember(a.to_string());
  speculation.remember(a.to_string());
  EXPECT_EQ(speculation.remembered(), 1u);
  EXPECT_TRUE(speculation.holds_under(table));
  speculation.remember(b.to_string());
  EXPECT_FALSE(speculation.holds_under(table));
  EXPECT_TRUE(format::segment_usable(table, a.to_string()));
  EXPECT_FALSE(format::segment_usable(table, b.to_string()));
  EXPECT_FALSE(format::segment_usable(table, "0-0"));
  EXPECT_FALSE(format::segment_usable(table, "garbage"));
}

}  // namespace
}  // namespace moonquota::restore
