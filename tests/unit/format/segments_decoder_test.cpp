// The `segments` payload decoder (snapshot-format.md §6): master rules (map required, non-STR
// keys ignored, first duplicate wins, every key optional, any error rejects) and the allocator
// shape checks (§6.3), on hand-built payloads, the §14.7 fixture and the genuine s7 store.
#include "format/segments_decoder.hpp"

#include <gtest/gtest.h>

#include <string>

#include "support/segments_stream_support.hpp"
#include "support/snapshot_test_support.hpp"

namespace moonquota::format {
namespace {

using test::msgpack;

// The knobs of one hand-packed MountedSegment with its allocator.
struct SegmentShape {
  std::string id = "3-4";
  std::int16_t status = model::segment_status::ok;
  std::uint32_t elements = 9;
  std::uint32_t core_elements = 10;
  std::uint32_t used_bins = 32;
  std::uint32_t bin_indices = 256;
  std::uint32_t current_capacity = 4;
  std::uint64_t nodes_bytes = 4 * 25;
  std::uint64_t free_nodes_bytes = 4 * 4;
  bool has_allocator = true;
};

void pack_segment(MsgpackWriter& w, const SegmentShape& s) {
  w.pack_array_header(s.elements);
  w.pack_str(s.id);
  w.pack_str("seg-a");
  w.pack_uint(test::k_segment_base);
  w.pack_uint(16 << 20);
  w.pack_str("127.0.0.1:17812");
  w.pack_int(s.status);
  w.pack_bool(s.has_allocator);
  if (!s.has_allocator) {
    w.pack_nil();
  } else {
    w.pack_array_header(6);
    w.pack_str("seg-a");
    w.pack_uint(test::k_segment_base);
    w.pack_uint(16 << 20);
    w.pack_uint(0);
    w.pack_str("127.0.0.1:17812");
    w.pack_array_header(6);
    for (std::uint64_t v :
         {test::k_segment_base, std::uint64_t{0}, std::uint64_t{16 << 20}, std::uint64_t{0}, std::uint64_t{0}}) {
      w.pack_uint(v);
    }
    w.pack_array_header(s.core_elements);
    for (std::uint32_t v : {16u << 20, s.current_capacity, 1048576u, 16u << 20, 0u}) w.pack_uint(v);
    w.pack_array_header(s.used_bins);
    for (std::uint32_t i = 0; i < s.used_bins; ++i) w.pack_uint(0);
    w.pack_array_header(s.bin_indices);
    for (std::uint32_t i = 0; i < s.bin_indices; ++i) w.pack_uint(0xffffffffU);
    w.pack_bin(util::zstd_compress(std::string(s.nodes_bytes, '\0')));
    w.pack_bin(util::zstd_compress(std::string(s.free_nodes_bytes, '\0')));
    w.pack_uint(0);
  }
  for (std::uint32_t i = 8; i < s.elements; ++i) w.pack_str("host");
}

// {"ma": 1, "an": ["seg-a"], "ms": {id: segment}, "cs": {"1-2": [id]}, "ld": {}}
std::string payload_with(const SegmentShape& s) {
  return msgpack([&](MsgpackWriter& w) {
    w.pack_map_header(5);
    w.pack_str("ma");
    w.pack_uint(1);
    w.pack_str("an");
    w.pack_array_header(1);
    w.pack_str("seg-a");
    w.pack_str("ms");
    w.pack_map_header(1);
    w.pack_str(s.id);
    pack_segment(w, s);
    w.pack_str("cs");
    w.pack_map_header(1);
    w.pack_str("1-2");
    w.pack_array_header(1);
    w.pack_str(s.id);
    w.pack_str("ld");
    w.pack_map_header(0);
  });
}

// Every payload of these tests is also decoded as a stream (from its zstd frame, through windows
// of 1 byte and of 64 bytes, releasing what was decoded at once): the outcome must be the same.
util::Result<model::SegmentsPayload> decode(const std::string& raw, model::Findings& findings,
                                            SegmentsDecodeOptions options = {}) {
  const std::string whole = test::decode_whole(raw, options);
  EXPECT_EQ(test::decode_streamed(raw, options, 1, 0), whole);
  EXPECT_EQ(test::decode_streamed(raw, options, 64, 0), whole);
  EXPECT_EQ(test::decode_streamed(raw, options, 1 << 20, 1 << 20), whole);
  return decode_segments(raw, options, findings);
}

std::string decode_error(const std::string& raw) {
  model::Findings findings;
  auto r = decode(raw, findings);
  EXPECT_FALSE(r.ok());
  if (r.ok()) return {};
  EXPECT_EQ(r.status().code(), util::StatusCode::corruption);
  return r.status().message();
}

TEST(SegmentsDecoder, EmptyFixtureOfSpec) {
  model::Findings findings;
  auto r = decode(test::unhex("85a26d6101a2616e90a26d7380a2637380a26c6480"), findings);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->allocator_type, 1);
  EXPECT_TRUE(r->has_allocator_names);
  EXPECT_TRUE(r->has_client_segments);
  EXPECT_TRUE(r->has_local_disk);
  EXPECT_TRUE(r->mounted.empty());
  EXPECT_TRUE(findings.empty());
}

// verify compacts node tables piece by piece: the callback sees each table's records once, in
// order and whole, and they are the table a kept decode holds.
TEST(SegmentsDecoder, NodeRecordCallbackSeesEachTableInOrder) {
  const auto raw = test::unzstd(
      test::read_file(test::source_path(std::string(test::k_s7.store) + "/mooncake_master_snapshot/mooncake_cluster/" +
                                        test::k_s7.snapshot_id + "/segments")));
  model::Findings findings;
  SegmentsDecodeOptions keep;
  keep.keep_allocator_blobs = true;
  auto kept = decode(raw, findings, keep);
  ASSERT_TRUE(kept.ok()) << kept.status().message();
  ASSERT_TRUE(kept->mounted[0].allocator.has_value());
  const std::string& expected = kept->mounted[0].allocator->offset.core.nodes;
  ASSERT_EQ(expected.size(), 4096u * 25);

  SegmentsDecodeOptions options;
  std::string seen;
  std::size_t pieces = 0;
  options.on_node_records = [&](std::string_view records, std::uint64_t first_node, std::uint64_t nodes) {
    EXPECT_EQ(first_node * 25, seen.size());
    EXPECT_EQ(records.size() % 25, 0u);
    EXPECT_EQ(nodes, 4096u);
    seen.append(records);
    ++pieces;
  };
  findings.clear();
  auto r = decode(raw, findings, options);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(seen, expected);
  EXPECT_GT(pieces, 1u);  // 100 KiB of records in 64 KiB pieces, never whole
  EXPECT_TRUE(r->mounted[0].allocator->offset.core.nodes.empty());
}

TEST(SegmentsDecoder, GenuineS7Segment) {
  const auto raw = test::unzstd(
      test::read_file(test::source_path(std::string(test::k_s7.store) + "/mooncake_master_snapshot/mooncake_cluster/" +
                                        test::k_s7.snapshot_id + "/segments")));
  ASSERT_EQ(raw.size(), 13072u);
  model::Findings findings;
  SegmentsDecodeOptions options;
  options.keep_allocator_blobs = true;
  auto r = decode(raw, findings, options);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->mounted.size(), 1u);
  const auto& seg = r->mounted[0];
  EXPECT_EQ(seg.map_key, "3-4");
  EXPECT_EQ(seg.id, "3-4");
  EXPECT_EQ(seg.name, "seg-a");
  EXPECT_EQ(seg.base, 0x300000000ULL);
  EXPECT_EQ(seg.size, 16777216u);
  EXPECT_EQ(seg.te_endpoint, "127.0.0.1:17812");
  EXPECT_EQ(seg.status, model::segment_status::ok);
  ASSERT_TRUE(seg.allocator.has_value());
  const auto& core = seg.allocator->offset.core;
  EXPECT_EQ(core.current_capacity, 4096u);
  EXPECT_EQ(core.max_capacity, 1048576u);
  EXPECT_EQ(core.free_storage, 16776192u);
  EXPECT_EQ(core.used_bins_top, 2097152u);
  EXPECT_EQ(core.used_bins[21], 0x80);
  EXPECT_EQ(core.bin_indices[175], 1u);
  EXPECT_EQ(core.free_offset, 2u);
  EXPECT_EQ(core.nodes.size(), 4096u * 25);
  EXPECT_EQ(core.free_nodes.size(), 4096u * 4);
  EXPECT_EQ(r->allocator_names, std::vector<std::string>{"seg-a"});
  ASSERT_EQ(r->client_segments.size(), 1u);
  EXPECT_EQ(r->client_segments[0].first, "1-2");
  EXPECT_TRUE(findings.empty()) << findings[0].message;
}

TEST(SegmentsDecoder, BlobsAreDroppedUnlessAsked) {
  model::Findings findings;
  auto r = decode(payload_with({}), findings);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_TRUE(r->mounted.at(0).allocator->offset.core.nodes.empty());
}

TEST(SegmentsDecoder, MissingAnCsLdAreAcceptedWithFindings) {
  model::Findings findings;
  auto r = decode(msgpack([](MsgpackWriter& w) {
                    w.pack_map_header(1);
                    w.pack_str("ma");
                    w.pack_uint(1);
                  }),
                  findings);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_FALSE(r->has_allocator_names);
  EXPECT_FALSE(r->has_client_segments);
  EXPECT_FALSE(r->has_local_disk);
  ASSERT_EQ(findings.size(), 3u);
  EXPECT_EQ(findings[0].message, "no \"an\": no restored segment is allocatable");
  EXPECT_EQ(findings[0].severity, model::Severity::warning);
  EXPECT_EQ(findings[1].message, "no \"cs\": client lookups will fail");
  EXPECT_EQ(findings[2].message, "no \"ld\": local-disk state is empty");
}

TEST(SegmentsDecoder, EmptyMapIsAccepted) {
  model::Findings findings;
  auto r = decode(test::unhex("80"), findings);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->allocator_type.has_value());
}

TEST(SegmentsDecoder, NotAMapRejects) {
  EXPECT_EQ(decode_error(test::unhex("90")), "segments payload: expected a map, found array at byte offset 0");
  EXPECT_EQ(decode_error(test::unhex("01")),
            "segments payload: expected a map, found positive integer at byte offset 0");
}

TEST(SegmentsDecoder, MaOtherThanOneRejects) {
  for (int ma : {0, 2, -1}) {
    const auto raw = msgpack([&](MsgpackWriter& w) {
      w.pack_map_header(1);
      w.pack_str("ma");
      w.pack_int(ma);
    });
    EXPECT_EQ(decode_error(raw), "\"ma\" at byte offset 4 is not the OFFSET allocator type (1)") << ma;
  }
  const auto as_string = msgpack([&](MsgpackWriter& w) {
    w.pack_map_header(1);
    w.pack_str("ma");
    w.pack_str("1");
  });
  EXPECT_EQ(decode_error(as_string), "\"ma\" at byte offset 4 is not the OFFSET allocator type (1)");
}

TEST(SegmentsDecoder, MaInWideEncodingIsAccepted) {
  // int64 0xd3 holding 1: classified by value, a positive integer.
  model::Findings findings;
  auto wide = decode(test::unhex("81a26d61d30000000000000001"), findings);
  ASSERT_TRUE(wide.ok()) << wide.status().message();
  EXPECT_EQ(wide->allocator_type, 1);
}

TEST(SegmentsDecoder, BadUsedBinsSizeRejects) {
  SegmentShape s;
  s.used_bins = 31;
  EXPECT_EQ(decode_error(payload_with(s)), "\"ms\"[3-4]: used_bins has 31 elements, expected 32");
  s.used_bins = 33;
  EXPECT_EQ(decode_error(payload_with(s)), "\"ms\"[3-4]: used_bins has 33 elements, expected 32");
}

TEST(SegmentsDecoder, BadBinIndicesSizeRejects) {
  SegmentShape s;
  s.bin_indices = 255;
  EXPECT_EQ(decode_error(payload_with(s)), "\"ms\"[3-4]: bin_indices has 255 elements, expected 256");
}

TEST(SegmentsDecoder, BadCoreSizeRejects) {
  SegmentShape s;
  s.core_elements = 11;
  EXPECT_EQ(decode_error(payload_with(s)), "\"ms\"[3-4]: allocator core has 11 elements, expected 10");
}

TEST(SegmentsDecoder, NodeBlobLengthMismatchRejects) {
  SegmentShape s;
  s.nodes_bytes = 4 * 25 - 1;
  const std::string msg = decode_error(payload_with(s));
  EXPECT_NE(msg.find("\"ms\"[3-4]: node table at byte offset "), std::string::npos) << msg;
  EXPECT_NE(msg.find("zstd content size 99, expected 100"), std::string::npos) << msg;
}

TEST(SegmentsDecoder, FreeNodeBlobLengthMismatchRejects) {
  SegmentShape s;
  s.free_nodes_bytes = 4 * 4 + 4;
  const std::string msg = decode_error(payload_with(s));
  EXPECT_NE(msg.find("\"ms\"[3-4]: free-node list at byte offset "), std::string::npos) << msg;
  EXPECT_NE(msg.find("zstd content size 20, expected 16"), std::string::npos) << msg;
}

TEST(SegmentsDecoder, BlobMismatchAlsoRejectsWhenBlobsAreKept) {
  SegmentShape s;
  s.nodes_bytes = 4 * 25 + 25;
  model::Findings findings;
  SegmentsDecodeOptions options;
  options.keep_allocator_blobs = true;
  auto r = decode(payload_with(s), findings, options);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("node table"), std::string::npos) << r.status().message();
}

TEST(SegmentsDecoder, BlobAboveMemoryLimitRejects) {
  model::Findings findings;
  SegmentsDecodeOptions options;
  options.max_blob_bytes = 50;
  auto unchecked = decode(payload_with({}), findings, options);  // streamed check: no memory needed
  ASSERT_TRUE(unchecked.ok()) << unchecked.status().message();
  options.keep_allocator_blobs = true;
  auto r = decode(payload_with({}), findings, options);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), util::StatusCode::limit_exceeded);
  EXPECT_EQ(r.status().message(), "\"ms\"[3-4]: node table of 100 bytes exceeds the memory limit of 50");
}

TEST(SegmentsDecoder, SegmentWithEightElementsIsAcceptedSevenRejects) {
  SegmentShape s;
  s.elements = 8;
  model::Findings findings;
  auto r = decode(payload_with(s), findings);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_FALSE(r->mounted[0].host_id.has_value());
  s.elements = 10;  // extra elements after host_id are skipped
  r = decode(payload_with(s), findings);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->mounted[0].host_id, "host");

  const auto seven = msgpack([](MsgpackWriter& w) {
    w.pack_map_header(1);
    w.pack_str("ms");
    w.pack_map_header(1);
    w.pack_str("3-4");
    w.pack_array_header(7);
    for (int i = 0; i < 7; ++i) w.pack_uint(0);
  });
  EXPECT_EQ(decode_error(seven), "\"ms\"[3-4]: mounted segment has 7 elements, needs at least 8");
}

TEST(SegmentsDecoder, SegmentWithoutAllocator) {
  SegmentShape s;
  s.has_allocator = false;
  model::Findings findings;
  auto r = decode(payload_with(s), findings);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_FALSE(r->mounted[0].has_allocator);
  EXPECT_FALSE(r->mounted[0].allocator.has_value());
}

TEST(SegmentsDecoder, NonOkSegmentIsKeptWithWarning) {
  SegmentShape s;
  s.status = model::segment_status::draining;
  model::Findings findings;
  auto r = decode(payload_with(s), findings);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->mounted[0].status, model::segment_status::draining);
  EXPECT_TRUE(test::has_finding(findings, "has status DRAINING (2)"));
}

TEST(SegmentsDecoder, MapKeyDifferentFromIdIsAnErrorFinding) {
  const auto raw = msgpack([](MsgpackWriter& w) {
    w.pack_map_header(1);
    w.pack_str("ms");
    w.pack_map_header(1);
    w.pack_str("9-9");
    SegmentShape s;
    pack_segment(w, s);
  });
  model::Findings findings;
  auto r = decode(raw, findings);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->mounted[0].map_key, "9-9");
  EXPECT_EQ(r->mounted[0].id, "3-4");
  ASSERT_FALSE(findings.empty());
  EXPECT_EQ(findings[0].severity, model::Severity::error);
  EXPECT_EQ(findings[0].message, "\"ms\"[9-9]: map key differs from the segment id '3-4'");
}

TEST(SegmentsDecoder, InvalidSegmentUuidRejects) {
  SegmentShape s;
  s.id = "abc";
  const std::string msg = decode_error(payload_with(s));
  EXPECT_EQ(msg.rfind("\"ms\": \"ms\" key: 'abc' is not a UUID at byte offset ", 0), 0u) << msg;
}

TEST(SegmentsDecoder, BinMsKeyRejectsBecauseTheMasterRequiresStr) {
  const auto raw = msgpack([](MsgpackWriter& w) {
    w.pack_map_header(1);
    w.pack_str("ms");
    w.pack_map_header(1);
    w.pack_bin("3-4");
  });
  EXPECT_EQ(decode_error(raw), "\"ms\": \"ms\" key: expected a msgpack STR, found binary at byte offset 5");
}

TEST(SegmentsDecoder, NonStringKeysAreIgnoredWithTheirValues) {
  const auto raw = msgpack([](MsgpackWriter& w) {
    w.pack_map_header(3);
    w.pack_uint(7);          // non-STR key
    w.pack_array_header(2);  // its value, skipped whole
    w.pack_str("an");
    w.pack_str("x");
    w.pack_bin("an");  // BIN key: not STR either
    w.pack_uint(5);
    w.pack_str("an");
    w.pack_array_header(1);
    w.pack_str("seg-a");
  });
  model::Findings findings;
  auto r = decode(raw, findings);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->allocator_names, std::vector<std::string>{"seg-a"});
  EXPECT_TRUE(test::has_finding(findings, "non-string key at byte offset 1 ignored"));
  EXPECT_TRUE(test::has_finding(findings, "non-string key at byte offset 8 ignored"));
}

TEST(SegmentsDecoder, DuplicateKeysFirstWins) {
  const auto raw = msgpack([](MsgpackWriter& w) {
    w.pack_map_header(2);
    w.pack_str("an");
    w.pack_array_header(1);
    w.pack_str("first");
    w.pack_str("an");
    w.pack_array_header(2);
    w.pack_str("second");
    w.pack_str("third");
  });
  model::Findings findings;
  auto r = decode(raw, findings);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->allocator_names, std::vector<std::string>{"first"});
  EXPECT_TRUE(test::has_finding(findings, "duplicate key \"an\" ignored (the first one wins)"));
}

TEST(SegmentsDecoder, DuplicateBadValueIsNotDecoded) {
  // The second "ma" would reject, but only the first occurrence is looked at.
  const auto raw = msgpack([](MsgpackWriter& w) {
    w.pack_map_header(2);
    w.pack_str("ma");
    w.pack_uint(1);
    w.pack_str("ma");
    w.pack_uint(2);
  });
  model::Findings findings;
  auto r = decode(raw, findings);
  ASSERT_TRUE(r.ok()) << r.status().message();
}

TEST(SegmentsDecoder, AnMustHoldStrings) {
  const auto raw = msgpack([](MsgpackWriter& w) {
    w.pack_map_header(1);
    w.pack_str("an");
    w.pack_array_header(2);
    w.pack_str("ok");
    w.pack_bin("seg");
  });
  EXPECT_EQ(decode_error(raw), "\"an\"[1]: \"an\" element: expected a msgpack STR, found binary at byte offset 8");
}

TEST(SegmentsDecoder, UnknownKeyIsAnInfoFinding) {
  const auto raw = msgpack([](MsgpackWriter& w) {
    w.pack_map_header(1);
    w.pack_str("zz");
    w.pack_map_header(1);
    w.pack_uint(1);
    w.pack_uint(2);
  });
  model::Findings findings;
  auto r = decode(raw, findings);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(test::has_finding(findings, "unknown key \"zz\" ignored"));
}

std::string ld_payload(const std::function<void(MsgpackWriter&)>& entry) {
  return msgpack([&](MsgpackWriter& w) {
    w.pack_map_header(1);
    w.pack_str("ld");
    w.pack_map_header(1);
    w.pack_str("1-2");
    entry(w);
  });
}

TEST(SegmentsDecoder, LocalDiskCurrentAndLegacyTasks) {
  const auto raw = ld_payload([](MsgpackWriter& w) {
    w.pack_array_header(2 + 2 * 3 + 1);
    w.pack_bool(true);
    w.pack_uint(3);
    w.pack_str(std::string("tenant-a\0k1", 11));
    w.pack_array_header(3);
    w.pack_str("tenant-a");
    w.pack_str("k1");
    w.pack_int(4096);
    w.pack_str(std::string("tenant-b\0k/2", 12));  // legacy: a bare integer size
    w.pack_int(-5);
    w.pack_str("plain-key");  // legacy without NUL: default tenant
    w.pack_uint(77);
    w.pack_int(1 << 30);
  });
  model::Findings findings;
  auto r = decode(raw, findings);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->local_disk.size(), 1u);
  const auto& c = r->local_disk[0];
  EXPECT_EQ(c.client_id, "1-2");
  EXPECT_TRUE(c.enable_offloading);
  ASSERT_EQ(c.tasks.size(), 3u);
  EXPECT_FALSE(c.tasks[0].legacy_integer_form);
  EXPECT_EQ(c.tasks[0].tenant_id, "tenant-a");
  EXPECT_EQ(c.tasks[0].key, "k1");
  EXPECT_EQ(c.tasks[0].size, 4096);
  EXPECT_TRUE(c.tasks[1].legacy_integer_form);
  EXPECT_EQ(c.tasks[1].tenant_id, "tenant-b");
  EXPECT_EQ(c.tasks[1].key, "k/2");
  EXPECT_EQ(c.tasks[1].size, -5);
  EXPECT_TRUE(c.tasks[2].legacy_integer_form);
  EXPECT_EQ(c.tasks[2].tenant_id, "default");
  EXPECT_EQ(c.tasks[2].key, "plain-key");
  EXPECT_EQ(c.tasks[2].size, 77);
  EXPECT_EQ(c.total_capacity_bytes, 1 << 30);
}

TEST(SegmentsDecoder, LocalDiskCapacityIsOptional) {
  const auto raw = ld_payload([](MsgpackWriter& w) {
    w.pack_array_header(2);
    w.pack_bool(false);
    w.pack_uint(0);
  });
  model::Findings findings;
  auto r = decode(raw, findings);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_FALSE(r->local_disk.at(0).total_capacity_bytes.has_value());
}

TEST(SegmentsDecoder, LocalDiskTaskCountBeyondArrayRejects) {
  const auto raw = ld_payload([](MsgpackWriter& w) {
    w.pack_array_header(3);
    w.pack_bool(false);
    w.pack_uint(1);
    w.pack_str("k");
  });
  EXPECT_EQ(decode_error(raw), "\"ld\"[1-2]: task count 1 runs beyond the array of 3 elements");
}

TEST(SegmentsDecoder, LocalDiskBadHeaderAndTaskShapeReject) {
  const auto short_entry = ld_payload([](MsgpackWriter& w) {
    w.pack_array_header(1);
    w.pack_bool(false);
  });
  EXPECT_EQ(decode_error(short_entry), "\"ld\"[1-2]: local-disk entry has 1 elements, needs 2");
  const auto not_bool = ld_payload([](MsgpackWriter& w) {
    w.pack_array_header(2);
    w.pack_uint(1);
    w.pack_uint(0);
  });
  EXPECT_EQ(
      decode_error(not_bool).rfind("\"ld\"[1-2]: enable_offloading: expected a boolean, found positive integer", 0),
      0u);
  const auto bad_task = ld_payload([](MsgpackWriter& w) {
    w.pack_array_header(4);
    w.pack_bool(false);
    w.pack_uint(1);
    w.pack_str("k");
    w.pack_array_header(2);
    w.pack_str("t");
    w.pack_str("k");
  });
  EXPECT_NE(decode_error(bad_task).find("local-disk task: expected a [tenant, key, size] array or an integer"),
            std::string::npos);
  const auto not_map = msgpack([](MsgpackWriter& w) {
    w.pack_map_header(1);
    w.pack_str("ld");
    w.pack_array_header(0);
  });
  EXPECT_EQ(decode_error(not_map), "\"ld\": \"ld\": expected a map, found array at byte offset 4");
}

TEST(SegmentsDecoder, TruncatedPayloadRejectsWithOffset) {
  const auto raw = payload_with({});
  for (std::size_t cut : {std::size_t{1}, raw.size() / 2, raw.size() - 1}) {
    model::Findings findings;
    auto r = decode(raw.substr(0, cut), findings);
    ASSERT_FALSE(r.ok()) << "cut at " << cut;
    EXPECT_NE(r.status().message().find("byte offset"), std::string::npos) << r.status().message();
  }
}

TEST(SegmentsDecoder, TrailingBytesAreIgnoredWithWarning) {
  model::Findings findings;
  auto r = decode(test::unhex("80c0c0"), findings);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(test::has_finding(findings, "2 trailing bytes after the payload"));
}

TEST(SegmentsDecoder, EncoderOutputRoundTrips) {
  auto payload = test::make_segments_payload({{"3-4", "seg-a"}, {"5-6", "seg-b", 8ULL << 20}});
  auto raw = encode_segments_raw(payload);
  ASSERT_TRUE(raw.ok());
  model::Findings findings;
  auto r = decode(*raw, findings);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->mounted.size(), 2u);
  EXPECT_EQ(r->mounted[1].name, "seg-b");
  EXPECT_EQ(r->mounted[1].size, 8ULL << 20);
  EXPECT_EQ(r->allocator_names, (std::vector<std::string>{"seg-a", "seg-b"}));
}

}  // namespace
}  // namespace moonquota::format
