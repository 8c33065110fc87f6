// verify over golden stores: the clean sample passes; the findings store trips each rule it was
// built for; corrupt bytes are an error Status naming the shard; allocator handle checks.
#include "inspect/verify.hpp"

#include <gtest/gtest.h>

#include <random>

#include "forge/large_store.hpp"
#include "format/segments_encoder.hpp"
#include "inspect/allocator_check.hpp"
#include "inspect/snapshot_select.hpp"
#include "support/local_store.hpp"
#include "support/snapshot_test_support.hpp"
#include "util/atomic_file.hpp"

namespace moonquota::inspect {
namespace {

namespace fs = std::filesystem;

SelectedSnapshot select_store(const std::string& store) {
  restore::StoreSelection sel;
  sel.store_dir = store;
  auto s = select_snapshot(test::local_files(), sel);
  EXPECT_TRUE(s.ok()) << s.status().message();
  return *s;
}

util::Result<VerifyResult> verify_store(const std::string& store, unsigned threads) {
  const auto sel = select_store(store);
  VerifyOptions options;
  options.scan.restore_time_ms = 1787375520123ULL;
  options.threads = threads;
  return verify_snapshot(test::local_files(), sel.snapshot_dir, sel.snapshot_id, options, sel.catalog_findings);
}

TEST(Verify, SampleStorePasses) {
  auto r = verify_store(test::source_path("snapshots/sample/store"), 2);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_FALSE(r->failed());
  for (const auto& f : r->listed) EXPECT_NE(f.severity, model::Severity::error) << f.rule << ": " << f.message;
}

// A few large segments whose node tables grew past their initial 65,536 nodes (multiplier_bits
// above 0, node-table frames of more than 1 MiB, streamed through the decoder and compacted piece
// by piece): verify finds the allocator consistent, and the tables are what the forge wrote.
TEST(Verify, GrownNodeTablesOfLargeSegmentsPass) {
  const test::TempDir tmp;
  forge::LargeStoreOptions forge_options;
  forge_options.objects = 200000;
  forge_options.clients = 1;
  forge_options.segment_bytes = 1200000000000ULL;
  auto forged = forge::write_large_store(forge_options, tmp.path().string());
  ASSERT_TRUE(forged.ok()) << forged.status().message();
  EXPECT_EQ(forged->segments, 1u);

  const auto sel = select_store(tmp.path().string());
  restore::ScanOptions header;
  header.keep_allocator_blobs = true;
  header.decode_shards = false;
  auto snap = restore::scan_snapshot(test::local_files(), sel.snapshot_dir, sel.snapshot_id, header, {});
  ASSERT_TRUE(snap.ok()) << snap.status().message();
  ASSERT_EQ(snap->segments.mounted.size(), 1u);
  const auto& offset = snap->segments.mounted[0].allocator->offset;
  EXPECT_GT(offset.multiplier_bits, 0u);
  EXPECT_GE(offset.core.current_capacity, 262144u);

  auto r = verify_store(tmp.path().string(), 2);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_FALSE(r->failed());
  for (const auto& f : r->listed) EXPECT_NE(f.severity, model::Severity::error) << f.rule << ": " << f.message;
  EXPECT_EQ(r->findings.counts().count("allocator-totals"), 0u);
}

TEST(Verify, FindingsStoreTripsEveryRuleItWasBuiltFor) {
  auto r = verify_store(test::source_path("snapshots/inspect-findings/store"), 3);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_TRUE(r->failed());
  const auto& counts = r->findings.counts();
  for (const char* rule : {"shard-index", "shard-index-boost", "duplicate-key-across-shards", "replica-id-duplicate",
                           "replica-next-id", "buffer-size", "object-size", "skipped-object", "enum-range",
                           "segment-names", "master-rejects", "allocator-unchecked"}) {
    EXPECT_EQ(counts.count(rule), 1u) << "rule " << rule << " not reported";
  }
  // Object findings name shard, tenant and key; replica findings the replica.
  bool named = false;
  for (const auto& f : r->listed) {
    if (f.rule == "buffer-size") {
      named = true;
      EXPECT_TRUE(f.shard.has_value());
      EXPECT_EQ(f.key, "buffer-size");
      EXPECT_EQ(f.tenant_id, "default");
      EXPECT_TRUE(f.replica_id.has_value());
    }
  }
  EXPECT_TRUE(named);
}

TEST(Verify, ThreadCountDoesNotChangeFindings) {
  auto one = verify_store(test::source_path("snapshots/inspect-findings/store"), 1);
  auto four = verify_store(test::source_path("snapshots/inspect-findings/store"), 4);
  ASSERT_TRUE(one.ok() && four.ok());
  ASSERT_EQ(one->listed.size(), four->listed.size());
  for (std::size_t i = 0; i < one->listed.size(); ++i) EXPECT_EQ(one->listed[i].message, four->listed[i].message);
}

TEST(Verify, CorruptShardIsAnErrorNamingTheShard) {
  // snapshots/inspect-corrupt: the spec worked example with one byte of shard 963 inverted.
  auto r = verify_store(test::source_path("snapshots/inspect-corrupt/store"), 2);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), util::StatusCode::corruption);
  EXPECT_NE(r.status().message().find("metadata: shard 963"), std::string::npos) << r.status().message();
}

// NodeOffsets must give back every used node's dataOffset exactly, whatever the table holds.
void expect_round_trip(const std::vector<std::uint32_t>& offsets, const std::vector<bool>& used,
                       const std::string& what) {
  const auto t = NodeOffsets::build(
      offsets.size(), [&](std::size_t n) { return offsets[n]; }, [&](std::size_t n) { return bool(used[n]); });
  ASSERT_EQ(t.size(), offsets.size()) << what;
  for (std::size_t n = 0; n < offsets.size(); ++n) {
    if (used[n]) { ASSERT_EQ(t.at(n), offsets[n]) << what << " node " << n; }
  }
}

std::uint32_t bin_size(std::uint32_t code) {  // the allocator's small float, 3 mantissa bits
  return code < 8 ? code : (8u | (code & 7u)) << ((code >> 3) - 1);
}

// The allocation order of a segment that is only filled: node n + 1 starts where node n ends,
// a used node's size is a bin size; the split remainder and the never-used capacity are unused.
TEST(NodeOffsets, AllocationOrderPacksToAboutOneBytePerNode) {
  std::mt19937 rng(15);
  std::vector<std::uint32_t> offsets;
  std::vector<bool> used;
  std::uint32_t next = 0;
  for (int i = 0; i < 100000; ++i) {
    offsets.push_back(next);
    used.push_back(true);
    next += bin_size(8 + rng() % 120);
  }
  offsets.push_back(next);  // the free remainder
  used.push_back(false);
  offsets.resize(131072, 0);  // capacity never used
  used.resize(131072, false);
  const auto t = NodeOffsets::build(
      offsets.size(), [&](std::size_t n) { return offsets[n]; }, [&](std::size_t n) { return bool(used[n]); });
  EXPECT_TRUE(t.packed());
  EXPECT_LT(t.memory_bytes(), offsets.size() * 3 / 2);
  expect_round_trip(offsets, used, "allocation order");
}

TEST(NodeOffsets, EveryKindOfDifferenceRoundTrips) {
  // Every difference below 2^16, then random ones (most are exceptions), wrapping around 2^32.
  std::vector<std::uint32_t> offsets{0};
  std::vector<bool> used{true};
  for (std::uint32_t d = 0; d < 65536; ++d) {
    offsets.push_back(offsets.back() + d);
    used.push_back(true);
  }
  expect_round_trip(offsets, used, "small differences");
  std::mt19937 rng(7);
  for (std::uint32_t code = 0; code < 240; ++code) {
    offsets.push_back(offsets.back() + bin_size(code));
    used.push_back(true);
    offsets.push_back(offsets.back() - bin_size(code));
    used.push_back(rng() % 4 != 0);
    offsets.push_back(rng());
    used.push_back(rng() % 2 != 0);
  }
  expect_round_trip(offsets, used, "bin sizes, wrapping, random");
}

TEST(NodeOffsets, ReusedNodesFallBackToFourBytes) {
  std::mt19937 rng(3);
  for (std::size_t nodes : {0u, 1u, 2u, 15u, 16u, 17u, 33u, 1000u}) {
    std::vector<std::uint32_t> offsets(nodes);
    std::vector<bool> used(nodes);
    for (std::size_t n = 0; n < nodes; ++n) {
      offsets[n] = rng();
      used[n] = rng() % 3 != 0;
    }
    const auto t = NodeOffsets::build(
        nodes, [&](std::size_t n) { return offsets[n]; }, [&](std::size_t n) { return bool(used[n]); });
    EXPECT_LE(t.memory_bytes(), 4 * nodes + 64) << nodes;
    if (nodes >= 16) { EXPECT_FALSE(t.packed()) << nodes; }
    expect_round_trip(offsets, used, "random " + std::to_string(nodes));
  }
  // Blocks that start with unused nodes, and every pattern of used nodes in a block.
  for (std::uint32_t pattern = 0; pattern < 65536; pattern += 257) {
    std::vector<std::uint32_t> offsets(48);
    std::vector<bool> used(48);
    for (std::size_t n = 0; n < 48; ++n) {
      offsets[n] = static_cast<std::uint32_t>(n * 96 + (n % 5 == 0 ? 1 : 0));
      used[n] = ((pattern >> (n % 16)) & 1) != 0;
    }
    expect_round_trip(offsets, used, "pattern " + std::to_string(pattern));
  }
}

// Handles pointing at the wrong node: the sample's first segment, first used node.
// The sample store's segments with their allocator node tables, metadata not decoded.
util::Result<restore::ScannedSnapshot> scan_sample_segments() {
  const auto sel = select_store(test::source_path("snapshots/sample/store"));
  restore::ScanOptions options;
  options.keep_allocator_blobs = true;
  options.decode_shards = false;
  return restore::scan_snapshot(test::local_files(), sel.snapshot_dir, sel.snapshot_id, options, {});
}

// A MEMORY replica of 100 bytes on `segment_key` at `address` with the handle {address, 100,
// offset, node}.
format::ReplicaView handle_replica(std::uint64_t id, std::string_view segment_key, std::uint64_t address,
                                   std::uint32_t offset, std::uint32_t node) {
  format::ReplicaView r;
  r.type = model::replica_type::memory;
  r.id = id;
  r.segment_id = segment_key;
  r.mem_size = 100;
  r.mem_address = address;
  r.has_offset_handle = true;
  r.handle = {address, 100, offset, node};
  return r;
}

TEST(AllocatorIndex, HandleChecks) {
  auto snap = scan_sample_segments();
  ASSERT_TRUE(snap.ok()) << snap.status().message();
  const auto seg = snap->segments.mounted.front();
  const std::uint32_t capacity = seg.allocator->offset.core.current_capacity;
  AllocatorIndex index(snap->segments);
  format::ReplicaView r = handle_replica(42, seg.map_key, seg.base, 0, capacity + 5);
  FindingCollector out;
  VerifyFinding proto;
  proto.shard = 1;
  index.check_replica(r, 100, proto, out);
  EXPECT_EQ(out.counts().count("handle-node-range"), 1u);
  r.handle.node_index = capacity - 1;  // never used in a lightly filled segment
  index.check_replica(r, 100, proto, out);
  EXPECT_EQ(out.counts().count("handle-node-unused"), 1u);
  r.mem_address = seg.base - 1;
  index.check_replica(r, 100, proto, out);
  EXPECT_EQ(out.counts().count("buffer-address"), 1u);
  EXPECT_EQ(out.counts().count("handle-base"), 1u);
}

// Every used node of the sample's node tables reads back its dataOffset, and a handle whose
// offset differs from it names that dataOffset (the value the node table holds).
TEST(AllocatorIndex, PackedOffsetsMatchTheNodeTables) {
  auto snap = scan_sample_segments();
  ASSERT_TRUE(snap.ok()) << snap.status().message();
  std::size_t checked = 0;
  auto check_table = [&](const model::AllocatorCore& core, const std::string& what) {
    const auto& nodes = core.nodes;
    const auto table = compact_node_table(core);
    ASSERT_EQ(table.data_offset.size(), nodes.size() / 25);
    for (std::size_t n = 0; n < table.data_offset.size(); ++n) {
      if (nodes[n * 25] == 0) continue;
      std::uint32_t raw = 0;
      for (int i = 4; i >= 1; --i) raw = (raw << 8) | static_cast<unsigned char>(nodes[n * 25 + i]);
      ASSERT_EQ(table.data_offset.at(n), raw) << what << " node " << n;
      ++checked;
    }
  };
  std::mt19937 rng(21);
  for (const auto& ms : snap->segments.mounted) {
    if (!ms.allocator) continue;
    check_table(ms.allocator->offset.core, ms.map_key);
    // Damaged copies: used flags set and cleared, dataOffset bytes overwritten, at every density.
    for (unsigned density : {1u, 4u, 16u, 64u}) {
      model::AllocatorCore core = ms.allocator->offset.core;
      for (std::size_t n = 0; n < core.nodes.size() / 25; ++n) {
        if (rng() % density != 0) continue;
        const auto what = rng() % 3;
        if (what == 0) core.nodes[n * 25] = static_cast<char>(rng() % 3);
        if (what == 1) core.nodes[n * 25 + 1 + rng() % 4] = static_cast<char>(rng());
        if (what == 2) core.nodes[n * 25 + 4] = static_cast<char>(0xff);
      }
      check_table(core, ms.map_key + " damaged 1/" + std::to_string(density));
    }
  }
  EXPECT_GT(checked, 0u);

  const auto seg = snap->segments.mounted.front();
  const auto& nodes = seg.allocator->offset.core.nodes;
  std::size_t used = 0;
  while (nodes[used * 25] == 0) ++used;
  std::uint32_t stored = 0;
  for (int i = 4; i >= 1; --i) stored = (stored << 8) | static_cast<unsigned char>(nodes[used * 25 + i]);
  AllocatorIndex index(snap->segments);
  format::ReplicaView r = handle_replica(9, seg.map_key, seg.base, stored + 1, static_cast<std::uint32_t>(used));
  FindingCollector out;
  index.check_replica(r, 100, VerifyFinding{}, out);
  bool named = false;
  for (const auto& f : out.sorted()) {
    named = named || f.message.find("differs from node " + std::to_string(used) + "'s dataOffset " +
                                    std::to_string(stored) + " on segment") != std::string::npos;
  }
  EXPECT_TRUE(named);
}

// A forged store whose node tables all moved by one unit: every MEMORY replica is a handle-offset
// finding naming its node's (damaged) dataOffset. With --max-findings above the default 1000,
// every one is listed, and the listing does not depend on the threads (each worker used to keep
// only 1000 per rule, so which were listed depended on which worker decoded which shard).
TEST(Verify, ManyHandleFindingsAreListedWhateverTheThreads) {
  test::TempDir dir;
  forge::LargeStoreOptions forge_options;
  forge_options.objects = 3000;
  const std::string store = (dir.path() / "store").string();
  ASSERT_TRUE(forge::write_large_store(forge_options, store).ok());
  const auto sel = select_store(store);
  restore::ScanOptions scan;
  scan.keep_allocator_blobs = true;
  scan.decode_shards = false;
  auto snap = restore::scan_snapshot(test::local_files(), sel.snapshot_dir, sel.snapshot_id, scan, {});
  ASSERT_TRUE(snap.ok()) << snap.status().message();
  std::size_t moved = 0;
  for (auto& ms : snap->segments.mounted) {
    if (!ms.allocator) continue;
    auto& nodes = ms.allocator->offset.core.nodes;
    for (std::size_t n = 0; n < nodes.size() / 25; ++n) {
      if (nodes[n * 25] == 0) continue;
      nodes[n * 25 + 1] = static_cast<char>(nodes[n * 25 + 1] + 1);
      ++moved;
    }
  }
  auto bytes = format::encode_segments(snap->segments);
  ASSERT_TRUE(bytes.ok()) << bytes.status().message();
  ASSERT_TRUE(util::write_file_atomically(sel.snapshot_dir + "/segments", *bytes).ok());

  std::vector<std::vector<VerifyFinding>> listed;
  for (unsigned threads : {1u, 2u}) {
    VerifyOptions options;
    options.threads = threads;
    options.findings_per_rule = 100000;
    auto r = verify_snapshot(test::local_files(), sel.snapshot_dir, sel.snapshot_id, options, sel.catalog_findings);
    ASSERT_TRUE(r.ok()) << r.status().message();
    const std::uint64_t count = r->findings.counts().at("handle-offset").count;
    EXPECT_GE(count, moved);
    EXPECT_GT(count, 1000u);
    std::uint64_t shown = 0;
    for (const auto& f : r->listed) shown += f.rule == "handle-offset" ? 1 : 0;
    EXPECT_EQ(shown, count) << threads << " threads";
    listed.push_back(r->listed);
  }
  ASSERT_EQ(listed[0].size(), listed[1].size());
  for (std::size_t i = 0; i < listed[0].size(); ++i) {
    EXPECT_EQ(listed[0][i].message, listed[1][i].message) << i;
    EXPECT_EQ(listed[0][i].replica_id, listed[1][i].replica_id) << i;
  }
}

// Regression (found by the damage sweep under UBSan): a corrupt multiplier_bits of 64 or more
// made the offset check shift a 64-bit value by that much (undefined behaviour). It is now one
// allocator-multiplier finding per segment and the address-derived offset check is skipped.
TEST(AllocatorIndex, MultiplierBitsTooWideIsAFindingNotAShift) {
  auto snap = scan_sample_segments();
  ASSERT_TRUE(snap.ok()) << snap.status().message();
  auto& seg = snap->segments.mounted.front();
  ASSERT_TRUE(seg.allocator.has_value());
  seg.allocator->offset.multiplier_bits = 90;
  const std::string key = seg.map_key;
  const std::uint64_t base = seg.base;
  AllocatorIndex index(snap->segments);
  const format::ReplicaView r = handle_replica(7, key, base + 4096, 12345, 0);
  FindingCollector out;
  index.check_replica(r, 100, VerifyFinding{}, out);
  index.check_totals(out);
  EXPECT_EQ(out.counts().count("allocator-multiplier"), 1u);
  for (const auto& f : out.sorted()) {
    EXPECT_FALSE(f.rule == "handle-offset" && f.message.find("does not match real_base") != std::string::npos)
        << f.message;
  }
}

}  // namespace
}  // namespace moonquota::inspect
