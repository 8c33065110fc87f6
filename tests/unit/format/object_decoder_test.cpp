// ObjectMetadata decoding with the master's layout detection (snapshot-format.md §5.4-§5.7) and
// the exact skip-versus-reject matrix of §5.5 / §9.2: one case per bullet.
#include "format/object_decoder.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "support/snapshot_test_support.hpp"

namespace moonquota::format {
namespace {

using Element = std::function<void(MsgpackWriter&)>;

Element u(std::uint64_t v) {
  return [v](MsgpackWriter& w) { w.pack_uint(v); };
}
Element i(std::int64_t v) {
  return [v](MsgpackWriter& w) { w.pack_int(v); };
}
Element b(bool v) {
  return [v](MsgpackWriter& w) { w.pack_bool(v); };
}
Element s(std::string v) {
  return [v](MsgpackWriter& w) { w.pack_str(v); };
}
Element bin(std::string v) {
  return [v](MsgpackWriter& w) { w.pack_bin(v); };
}
Element nil() {
  return [](MsgpackWriter& w) { w.pack_nil(); };
}
Element arr(std::vector<Element> items) {
  return [items](MsgpackWriter& w) {
    w.pack_array_header(items.size());
    for (const auto& e : items) e(w);
  };
}

constexpr std::uint64_t k_addr = 0x300000000ULL;

Element handle() { return arr({u(k_addr), u(1024), arr({u(0), u(0)})}); }
Element memory_payload(const std::string& segment = "3-4") {
  return arr({u(1024), u(k_addr), s(segment), b(true), handle()});
}
Element replica(std::uint64_t id, std::int64_t status, std::int64_t type, Element payload) {
  return arr({u(id), i(status), i(type), std::move(payload)});
}
Element memory_replica(const std::string& segment = "3-4") { return replica(1, 3, 0, memory_payload(segment)); }
Element disk_replica() { return replica(2, 3, 1, arr({s("/mnt/fs/d/m/k"), u(1024)})); }

// The fixed prefix idx 0-6 for N replicas.
std::vector<Element> prefix(std::uint64_t n) {
  return {s("1-2"), u(1700000000000ULL), u(1024), u(4102444800000ULL), b(false), u(0), u(n)};
}

// The current writer's layout (v4): prefix, data_type, replicas, hard_pinned, group_id.
std::vector<Element> v4(std::vector<Element> replicas) {
  auto e = prefix(replicas.size());
  e.push_back(u(0));
  for (auto& r : replicas) e.push_back(std::move(r));
  e.push_back(b(false));
  e.push_back(s(""));
  return e;
}

constexpr unsigned char k_sentinel = 0xc0;  // a nil after the object: the reader must stop before it

std::string bytes_of(const std::vector<Element>& elements) {
  return test::msgpack([&](MsgpackWriter& w) {
    w.pack_array_header(elements.size());
    for (const auto& e : elements) e(w);
    w.pack_nil();
  });
}

SegmentTable segment_table() {
  SegmentTable t;
  t.add({3, 4}, {model::segment_status::ok, true});
  t.add({5, 6}, {model::segment_status::draining, true});
  t.add({7, 8}, {model::segment_status::ok, false});
  return t;
}

struct Decoded {
  ObjectDecodeResult result;
  model::ObjectRecord record;
  std::size_t end = 0;        // reader position after the call
  std::size_t value_end = 0;  // where the object's bytes end (the sentinel)
};

Decoded decode(const std::string& bytes) {
  MsgpackReader reader(bytes);
  ValueReader values(reader);
  ObjectView view;
  Decoded d;
  const SegmentTable table = segment_table();
  d.result = decode_object(values, table, view);
  if (d.result.outcome == DecodeOutcome::decoded) d.record = to_record(view);
  d.end = reader.position();
  d.value_end = bytes.size() - 1;
  EXPECT_EQ(static_cast<unsigned char>(bytes.back()), k_sentinel);
  return d;
}

Decoded decode(const std::vector<Element>& elements) { return decode(bytes_of(elements)); }

void expect_skipped(const std::vector<Element>& elements, const std::string& reason) {
  const Decoded d = decode(elements);
  EXPECT_EQ(d.result.outcome, DecodeOutcome::skipped) << d.result.reason;
  EXPECT_EQ(d.result.reason, reason);
  EXPECT_EQ(d.end, d.value_end) << "a skipped object must leave the reader after its value";
}

void expect_rejected(const std::vector<Element>& elements, const std::string& reason_prefix) {
  const Decoded d = decode(elements);
  EXPECT_EQ(d.result.outcome, DecodeOutcome::rejected) << d.result.reason;
  EXPECT_EQ(d.result.reason.rfind(reason_prefix, 0), 0u) << d.result.reason;
  EXPECT_NE(d.result.reason.find("at byte offset"), std::string::npos) << d.result.reason;
}

// --- layouts v1..v5 -------------------------------------------------------------------------

TEST(ObjectLayout, V4CurrentWriter) {
  const Decoded d = decode(v4({memory_replica(), disk_replica()}));
  ASSERT_EQ(d.result.outcome, DecodeOutcome::decoded) << d.result.reason;
  EXPECT_EQ(d.end, d.value_end);
  const auto& o = d.record;
  EXPECT_EQ(o.layout_version, 4);
  EXPECT_EQ(o.client_id, "1-2");
  EXPECT_EQ(o.put_start_time_ms, 1700000000000u);
  EXPECT_EQ(o.size, 1024u);
  EXPECT_EQ(o.lease_timeout_ms, 4102444800000u);
  EXPECT_EQ(o.data_type, 0);
  EXPECT_FALSE(o.hard_pinned);
  EXPECT_EQ(o.group_id, "");
  EXPECT_FALSE(o.checksum.has_value());
  ASSERT_EQ(o.replicas.size(), 2u);
  EXPECT_EQ(o.replicas[0].type, model::replica_type::memory);
  EXPECT_EQ(o.replicas[0].status, model::replica_status::complete);
  EXPECT_EQ(o.replicas[0].memory.segment_id, "3-4");
  EXPECT_EQ(o.replicas[0].memory.buffer_address, k_addr);
  EXPECT_TRUE(o.replicas[0].memory.has_offset_handle);
  EXPECT_EQ(o.replicas[0].memory.handle.real_base, k_addr);
  EXPECT_EQ(o.replicas[1].type, model::replica_type::disk);
  EXPECT_EQ(o.replicas[1].file_path, "/mnt/fs/d/m/k");
  EXPECT_EQ(o.replicas[1].object_size, 1024u);
}

TEST(ObjectLayout, V5WithChecksum) {
  auto e = v4({memory_replica()});
  e.push_back(u(0x123456789abcdef0ULL));
  const Decoded d = decode(e);
  ASSERT_EQ(d.result.outcome, DecodeOutcome::decoded) << d.result.reason;
  EXPECT_EQ(d.record.layout_version, 5);
  EXPECT_EQ(d.record.checksum, 0x123456789abcdef0ULL);
}

TEST(ObjectLayout, V1WithoutDataTypeAndHardPinned) {
  auto e = prefix(1);
  e.push_back(memory_replica());
  const Decoded d = decode(e);
  ASSERT_EQ(d.result.outcome, DecodeOutcome::decoded) << d.result.reason;
  EXPECT_EQ(d.record.layout_version, 1);
  EXPECT_EQ(d.record.data_type, 0);
  EXPECT_FALSE(d.record.hard_pinned);
  EXPECT_EQ(d.record.group_id, "");
}

TEST(ObjectLayout, V1WithoutReplicas) {
  const Decoded d = decode(prefix(0));
  ASSERT_EQ(d.result.outcome, DecodeOutcome::decoded) << d.result.reason;
  EXPECT_EQ(d.record.layout_version, 1);
  EXPECT_TRUE(d.record.replicas.empty());
}

TEST(ObjectLayout, V2WithDataType) {
  auto e = prefix(1);
  e.push_back(u(9));
  e.push_back(memory_replica());
  const Decoded d = decode(e);
  ASSERT_EQ(d.result.outcome, DecodeOutcome::decoded) << d.result.reason;
  EXPECT_EQ(d.record.layout_version, 2);
  EXPECT_EQ(d.record.data_type, 9);
}

TEST(ObjectLayout, V2WithHardPinnedOnly) {
  auto e = prefix(1);
  e.push_back(memory_replica());
  e.push_back(b(true));
  const Decoded d = decode(e);
  ASSERT_EQ(d.result.outcome, DecodeOutcome::decoded) << d.result.reason;
  EXPECT_EQ(d.record.layout_version, 2);
  EXPECT_TRUE(d.record.hard_pinned);
  EXPECT_EQ(d.record.group_id, "");  // legacy 8+N: ungrouped
}

TEST(ObjectLayout, V3WithDataTypeAndHardPinned) {
  auto e = prefix(1);
  e.push_back(u(2));
  e.push_back(memory_replica());
  e.push_back(b(true));
  const Decoded d = decode(e);
  ASSERT_EQ(d.result.outcome, DecodeOutcome::decoded) << d.result.reason;
  EXPECT_EQ(d.record.layout_version, 3);
  EXPECT_EQ(d.record.data_type, 2);
  EXPECT_TRUE(d.record.hard_pinned);
}

TEST(ObjectLayout, GroupIdAndReservedDataType) {
  auto e = prefix(1);
  e.push_back(u(255));
  e.push_back(memory_replica());
  e.push_back(b(false));
  e.push_back(s("group-7"));
  const Decoded d = decode(e);
  ASSERT_EQ(d.result.outcome, DecodeOutcome::decoded) << d.result.reason;
  EXPECT_EQ(d.record.data_type, 255);
  EXPECT_EQ(d.record.group_id, "group-7");
}

TEST(ObjectLayout, BinClientIdIsAcceptedAsAString) {
  auto e = v4({memory_replica()});
  e[0] = bin("1-2");
  const Decoded d = decode(e);
  ASSERT_EQ(d.result.outcome, DecodeOutcome::decoded) << d.result.reason;
  EXPECT_EQ(d.record.client_id, "1-2");
}

TEST(ObjectLayout, WideIntegerEncodingsAreClassifiedByValue) {
  // size written as int64 (0xd3) with a non-negative value: a positive integer for msgpack-c.
  auto e = v4({memory_replica()});
  e[2] = [](MsgpackWriter& w) { w.append_raw(test::unhex("d30000000000000400")); };
  const Decoded d = decode(e);
  ASSERT_EQ(d.result.outcome, DecodeOutcome::decoded) << d.result.reason;
  EXPECT_EQ(d.record.size, 1024u);
}

TEST(ObjectLayout, OtherReplicaTypes) {
  auto e = v4({replica(5, 3, 2, arr({s("11-12"), u(1024), s("10.0.0.1:1")})),
               replica(6, 2, 100, arr({s("/dfs/x"), u(8), u(1024), u(4096), i(-3)})), memory_replica()});
  const Decoded d = decode(e);
  ASSERT_EQ(d.result.outcome, DecodeOutcome::decoded) << d.result.reason;
  const auto& r = d.record.replicas;
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].type, model::replica_type::local_disk);
  EXPECT_EQ(r[0].client_id, "11-12");
  EXPECT_EQ(r[0].transport_endpoint, "10.0.0.1:1");
  EXPECT_EQ(r[1].type, model::replica_type::dfs);
  EXPECT_EQ(r[1].status, model::replica_status::processing);
  EXPECT_EQ(r[1].file_path, "/dfs/x");
  EXPECT_EQ(r[1].dfs_offset, 8u);
  EXPECT_EQ(r[1].object_size, 1024u);
  EXPECT_EQ(r[1].dfs_aligned_size, 4096u);
  EXPECT_EQ(r[1].dfs_shard_idx, -3);
}

TEST(ObjectLayout, MemoryReplicaWithoutHandle) {
  auto e = v4({replica(1, 3, 0, arr({u(1024), u(k_addr), s("3-4"), b(false), nil()}))});
  const Decoded d = decode(e);
  ASSERT_EQ(d.result.outcome, DecodeOutcome::decoded) << d.result.reason;
  EXPECT_FALSE(d.record.replicas[0].memory.has_offset_handle);
}

TEST(ObjectLayout, OutOfRangeStatusIsKeptVerbatim) {
  auto e = v4({replica(1, -7, 0, memory_payload())});
  const Decoded d = decode(e);
  ASSERT_EQ(d.result.outcome, DecodeOutcome::decoded) << d.result.reason;
  EXPECT_EQ(d.record.replicas[0].status, -7);
}

TEST(ObjectLayout, TimestampAtTheLimitIsAccepted) {
  auto e = v4({memory_replica()});
  e[1] = u(k_max_time_point_ms);
  e[3] = u(k_max_time_point_ms);
  EXPECT_EQ(decode(e).result.outcome, DecodeOutcome::decoded);
}

// --- §9.2 "object skipped" ------------------------------------------------------------------

TEST(ObjectSkipped, NotAnArray) {
  const std::string bytes = test::msgpack([](MsgpackWriter& w) {
    w.pack_map_header(1);
    w.pack_str("a");
    w.pack_array_header(2);
    w.pack_uint(1);
    w.pack_uint(2);
    w.pack_nil();
  });
  const Decoded d = decode(bytes);
  EXPECT_EQ(d.result.outcome, DecodeOutcome::skipped);
  EXPECT_EQ(d.result.reason, "ObjectMetadata is not an array of at least 7 elements");
  EXPECT_EQ(d.end, d.value_end);
}

TEST(ObjectSkipped, FewerThanSevenElements) {
  auto e = prefix(0);
  e.pop_back();
  expect_skipped(e, "ObjectMetadata is not an array of at least 7 elements");
}

TEST(ObjectSkipped, InvalidClientUuid) {
  auto e = v4({memory_replica()});
  e[0] = s("not-a-uuid");
  expect_skipped(e, "client id 'not-a-uuid' is not a UUID");
  e[0] = s("12");
  expect_skipped(e, "client id '12' is not a UUID");
  e[0] = s("-1");
  expect_skipped(e, "client id '-1' is not a UUID");
}

TEST(ObjectSkipped, LenientClientUuidIsAccepted) {
  auto e = v4({memory_replica()});
  e[0] = s(" +1-2junk");  // std::stoull accepts leading space, '+', trailing garbage
  EXPECT_EQ(decode(e).result.outcome, DecodeOutcome::decoded);
}

TEST(ObjectSkipped, PutStartTimeBeyondClockRange) {
  auto e = v4({memory_replica()});
  e[1] = u(k_max_time_point_ms + 1);
  expect_skipped(e, "a timestamp exceeds the largest system-clock time point (9223372036854 ms)");
}

TEST(ObjectSkipped, LeaseBeyondClockRange) {
  auto e = v4({memory_replica()});
  e[3] = u(9223372036855ULL);
  expect_skipped(e, "a timestamp exceeds the largest system-clock time point (9223372036854 ms)");
}

TEST(ObjectSkipped, CountBelowSevenPlusN) {
  auto e = prefix(2);
  e.push_back(memory_replica());  // 8 elements, N = 2 needs at least 9
  expect_skipped(e, "ObjectMetadata has 8 elements for 2 replicas (allowed 9..13)");
}

TEST(ObjectSkipped, CountAboveElevenPlusN) {
  auto e = v4({memory_replica()});
  e.push_back(u(1));
  e.push_back(u(2));  // 13 elements, N = 1 allows at most 12
  expect_skipped(e, "ObjectMetadata has 13 elements for 1 replicas (allowed 8..12)");
}

TEST(ObjectSkipped, HostileReplicaCountWithSevenElements) {
  auto e = prefix(0);
  e[6] = u(0xffffffffULL);
  expect_skipped(e, "ObjectMetadata has 7 elements for 4294967295 replicas (allowed 4294967302..4294967306)");
}

TEST(ObjectSkipped, LeftoverElements) {
  auto e = v4({memory_replica()});
  e.push_back(nil());  // 11 + N elements but the last is not a checksum
  expect_skipped(e, "ObjectMetadata has 1 unexpected trailing elements");
}

TEST(ObjectSkipped, OptionalFieldsInTheWrongOrderLeaveLeftovers) {
  auto e = prefix(1);
  e.push_back(memory_replica());
  e.push_back(s("group"));
  e.push_back(b(true));  // a bool after the group id is not consumed
  expect_skipped(e, "ObjectMetadata has 1 unexpected trailing elements");
}

TEST(ObjectSkipped, ReplicaNotAFourArray) {
  expect_skipped(v4({arr({u(1), i(3), i(0)})}), "replica 0: replica is not an array of 4");
  expect_skipped(v4({u(7)}), "replica 0: replica is not an array of 4");
}

TEST(ObjectSkipped, BadMemoryPayloadShape) {
  expect_skipped(v4({replica(1, 3, 0, arr({u(1024), u(k_addr), s("3-4"), b(false)}))}),
                 "replica 0: MEMORY payload is not an array of 5");
  expect_skipped(v4({replica(1, 3, 0, u(5))}), "replica 0: MEMORY payload is not an array of 5");
}

TEST(ObjectSkipped, BadDiskAndLocalDiskPayloadShape) {
  expect_skipped(v4({replica(2, 3, 1, arr({s("/p")}))}), "replica 0: DISK payload is not an array of 2");
  expect_skipped(v4({replica(2, 3, 2, arr({s("1-2"), u(1)}))}), "replica 0: LOCAL_DISK payload is not an array of 3");
  expect_skipped(v4({replica(2, 3, 100, arr({s("/p")}))}), "replica 0: DFS payload is not an array of 5");
}

TEST(ObjectSkipped, UnknownReplicaType) {
  expect_skipped(v4({replica(1, 3, 4, arr({}))}), "replica 0: unknown replica type 4");
  expect_skipped(v4({replica(1, 3, -128, nil())}), "replica 0: unknown replica type -128");
  expect_skipped(v4({replica(1, 3, 127, nil())}), "replica 0: unknown replica type 127");
}

TEST(ObjectSkipped, NofSsdReplica) {
  const Decoded d = decode(v4({replica(1, 3, 3, i(-1))}));
  EXPECT_EQ(d.result.outcome, DecodeOutcome::skipped);
  EXPECT_EQ(d.result.reason, "replica 0: unsupported snapshot: NOF_SSD replica (type 3)");
  EXPECT_TRUE(d.result.nof_replica);
  EXPECT_EQ(d.end, d.value_end);
}

TEST(ObjectSkipped, BadLocalDiskUuid) {
  expect_skipped(v4({replica(5, 3, 2, arr({s("local"), u(1024), s("ep")}))}),
                 "replica 0: LOCAL_DISK client id 'local' is not a UUID");
}

TEST(ObjectSkipped, MissingSegment) {
  expect_skipped(v4({memory_replica("9-9")}),
                 "replica 0: MEMORY replica on segment 9-9, which is not in the segment table");
}

TEST(ObjectSkipped, NonOkSegment) {
  expect_skipped(v4({memory_replica("5-6")}),
                 "replica 0: MEMORY replica on segment 5-6 whose status is DRAINING, not OK");
}

TEST(ObjectSkipped, SegmentWithoutAllocator) {
  expect_skipped(v4({memory_replica("7-8")}), "replica 0: MEMORY replica on segment 7-8 without an allocator");
}

TEST(ObjectSkipped, ZeroSegmentUuid) {
  expect_skipped(v4({memory_replica("0-0")}), "replica 0: MEMORY replica segment id '0-0' is not a valid UUID");
}

TEST(ObjectSkipped, InvalidSegmentUuid) {
  expect_skipped(v4({memory_replica("seg")}), "replica 0: MEMORY replica segment id 'seg' is not a valid UUID");
}

TEST(ObjectSkipped, BadHandleShape) {
  expect_skipped(v4({replica(1, 3, 0, arr({u(1024), u(k_addr), s("3-4"), b(true), arr({u(k_addr), u(1024)})}))}),
                 "replica 0: offset handle is not an array of 3");
  expect_skipped(v4({replica(1, 3, 0, arr({u(1024), u(k_addr), s("3-4"), b(true), nil()}))}),
                 "replica 0: offset handle is not an array of 3");
  expect_skipped(
      v4({replica(1, 3, 0, arr({u(1024), u(k_addr), s("3-4"), b(true), arr({u(k_addr), u(1024), arr({u(0)})})}))}),
      "replica 0: offset handle position is not an array of 2");
}

TEST(ObjectSkipped, SecondReplicaFailureNamesItsIndex) {
  expect_skipped(v4({memory_replica(), memory_replica("9-9")}),
                 "replica 1: MEMORY replica on segment 9-9, which is not in the segment table");
}

TEST(ObjectSkipped, InvalidUuidWinsOverALaterThrowAndIsAmbiguous) {
  auto e = v4({memory_replica()});
  e[0] = s("bad");
  e[7] = u(300);  // data_type > 255 would throw
  const Decoded d = decode(e);
  EXPECT_EQ(d.result.outcome, DecodeOutcome::skipped);
  EXPECT_EQ(d.result.reason, "client id 'bad' is not a UUID");
  EXPECT_TRUE(d.result.ambiguous);
  EXPECT_EQ(d.end, d.value_end);
}

TEST(ObjectSkipped, TimestampSkipIsAmbiguousWhenAReplicaWouldThrow) {
  auto e = v4({replica(1, 40000, 0, memory_payload())});
  e[3] = u(k_max_time_point_ms + 1);
  const Decoded d = decode(e);
  EXPECT_EQ(d.result.outcome, DecodeOutcome::skipped);
  EXPECT_TRUE(d.result.ambiguous);
  EXPECT_EQ(d.end, d.value_end);
}

TEST(ObjectSkipped, PlainSkipIsNotAmbiguous) {
  auto e = v4({memory_replica()});
  e[0] = s("bad");
  EXPECT_FALSE(decode(e).result.ambiguous);
}

// --- §9.2 "candidate rejected" (msgpack-c conversion throws) --------------------------------

TEST(ObjectRejected, NonStringClientId) {
  auto e = v4({memory_replica()});
  e[0] = u(12);
  expect_rejected(e, "client_id: expected a string, found positive integer at byte offset 1");
}

TEST(ObjectRejected, NegativePutStartTime) {
  auto e = v4({memory_replica()});
  e[1] = i(-1);
  expect_rejected(e, "put_start_time: expected an unsigned integer, found negative integer at byte offset 5");
}

TEST(ObjectRejected, NegativeSizeAndLease) {
  auto e = v4({memory_replica()});
  e[2] = i(-5);
  expect_rejected(e, "size: expected an unsigned integer, found negative integer");
  e = v4({memory_replica()});
  e[3] = s("soon");
  expect_rejected(e, "lease_timeout: expected an unsigned integer, found string");
}

TEST(ObjectRejected, NonBoolLegacyFlag) {
  auto e = v4({memory_replica()});
  e[4] = u(0);
  expect_rejected(e, "legacy soft-pin flag: expected a boolean, found positive integer");
}

TEST(ObjectRejected, NegativeLegacyDeadline) {
  auto e = v4({memory_replica()});
  e[5] = i(-1);
  expect_rejected(e, "legacy soft-pin deadline: expected an unsigned integer, found negative integer");
}

TEST(ObjectRejected, ReplicaCountAboveU32) {
  auto e = prefix(0);
  e[6] = u(0x100000000ULL);
  expect_rejected(e, "replica_count: expected an unsigned 32-bit integer, found positive integer");
}

TEST(ObjectRejected, DataTypeAbove255) {
  auto e = v4({memory_replica()});
  e[7] = u(256);
  expect_rejected(e, "data_type: expected an unsigned 8-bit integer, found positive integer");
}

TEST(ObjectRejected, ReplicaType200) {
  expect_rejected(v4({replica(1, 3, 200, memory_payload())}),
                  "replica type: expected a signed 8-bit integer, found positive integer");
  expect_rejected(v4({replica(1, 3, -129, memory_payload())}),
                  "replica type: expected a signed 8-bit integer, found negative integer");
}

TEST(ObjectRejected, ReplicaStatus40000) {
  expect_rejected(v4({replica(1, 40000, 0, memory_payload())}),
                  "replica status: expected a signed 16-bit integer, found positive integer");
  expect_rejected(v4({replica(1, -40000, 0, memory_payload())}),
                  "replica status: expected a signed 16-bit integer, found negative integer");
}

TEST(ObjectRejected, NegativeReplicaId) {
  auto e = v4({arr({i(-1), i(3), i(0), memory_payload()})});
  expect_rejected(e, "replica id: expected an unsigned integer, found negative integer");
}

TEST(ObjectRejected, ConversionFailureInsidePayload) {
  expect_rejected(v4({replica(1, 3, 0, arr({i(-1), u(k_addr), s("3-4"), b(true), handle()}))}),
                  "buffer size: expected an unsigned integer, found negative integer");
  expect_rejected(v4({replica(1, 3, 0, arr({u(1024), u(k_addr), u(34), b(true), handle()}))}),
                  "buffer segment id: expected a string, found positive integer");
  expect_rejected(v4({replica(1, 3, 0, arr({u(1024), u(k_addr), s("3-4"), u(1), handle()}))}),
                  "has_offset_handle: expected a boolean, found positive integer");
  expect_rejected(v4({replica(1, 3, 0,
                              arr({u(1024), u(k_addr), s("3-4"), b(true),
                                   arr({u(k_addr), u(1024), arr({u(1ULL << 32), u(0)})})}))}),
                  "handle offset: expected an unsigned 32-bit integer, found positive integer");
  expect_rejected(v4({replica(2, 3, 1, arr({s("/p"), i(-1)}))}),
                  "disk object size: expected an unsigned integer, found negative integer");
  expect_rejected(v4({replica(2, 3, 100, arr({s("/p"), u(0), u(1), u(1), u(1ULL << 31)}))}),
                  "dfs shard index: expected a signed 32-bit integer, found positive integer");
}

TEST(ObjectRejected, TruncatedInput) {
  const std::string bytes = bytes_of(v4({memory_replica()}));
  for (std::size_t cut = 1; cut + 1 < bytes.size(); cut += 7) {
    MsgpackReader reader(std::string_view(bytes).substr(0, cut));
    ValueReader values(reader);
    ObjectView view;
    const SegmentTable table = segment_table();
    auto r = decode_object(values, table, view);
    EXPECT_EQ(r.outcome, DecodeOutcome::rejected) << "cut at " << cut;
    EXPECT_FALSE(r.reason.empty());
  }
}

TEST(ObjectRejected, ReplicaZeroIdStillDecodes) {
  EXPECT_EQ(decode(v4({replica(0, 3, 0, memory_payload())})).result.outcome, DecodeOutcome::decoded);
}

// --- decode_replica on its own (also used for discarded replicas) ---------------------------

TEST(ReplicaDecoder, DecodesAndSkipsWithReason) {
  const SegmentTable table = segment_table();
  for (const auto& [element, expected, reason] : std::vector<std::tuple<Element, DecodeOutcome, std::string>>{
           {memory_replica(), DecodeOutcome::decoded, ""},
           {memory_replica("5-6"), DecodeOutcome::skipped,
            "MEMORY replica on segment 5-6 whose status is DRAINING, not OK"},
           {replica(1, 3, 3, nil()), DecodeOutcome::skipped, "unsupported snapshot: NOF_SSD replica (type 3)"},
           {replica(1, 3, 300, nil()), DecodeOutcome::rejected, ""}}) {
    const std::string bytes = test::msgpack([&](MsgpackWriter& w) { element(w); });
    MsgpackReader reader(bytes);
    ValueReader values(reader);
    ReplicaView view;
    std::string why;
    bool nof = false;
    EXPECT_EQ(decode_replica(values, table, view, why, nof), expected);
    EXPECT_EQ(why, reason);
  }
}

// snapshot-inspect diff lets side B take side A's decodes when this holds (shard_diff_reuse.hpp).
TEST(SegmentTable, UsableSegmentsUsableInAnotherTable) {
  SegmentTable a;
  a.add({3, 4}, {model::segment_status::ok, true});
  a.add({5, 6}, {2, true});                           // not OK: not usable
  a.add({7, 8}, {model::segment_status::ok, false});  // no allocator: not usable
  EXPECT_TRUE(a.usable_segments_usable_in(a));
  SegmentTable mounted = a;  // one more segment
  mounted.add({9, 10}, {model::segment_status::ok, true});
  EXPECT_TRUE(a.usable_segments_usable_in(mounted));
  EXPECT_FALSE(mounted.usable_segments_usable_in(a));
  SegmentTable only_usable;  // the unusable ones gone
  only_usable.add({3, 4}, {model::segment_status::ok, true});
  EXPECT_TRUE(a.usable_segments_usable_in(only_usable));
  SegmentTable not_ok;  // 3-4 no longer OK
  not_ok.add({3, 4}, {2, true});
  EXPECT_FALSE(a.usable_segments_usable_in(not_ok));
  SegmentTable no_allocator;
  no_allocator.add({3, 4}, {model::segment_status::ok, false});
  EXPECT_FALSE(a.usable_segments_usable_in(no_allocator));
  EXPECT_FALSE(a.usable_segments_usable_in(SegmentTable{}));
  // First wins: a second key for 3-4 that is not OK changes nothing.
  SegmentTable twice = a;
  twice.add("003-4", {3, 4}, {2, true});
  EXPECT_TRUE(a.usable_segments_usable_in(twice));
}

}  // namespace
}  // namespace moonquota::format
