// decode_shard's canonical fast path against the general decoder (DecodePath::general_only) on
// the writers' layout and on mutants of it: every byte truncated, replaced, widened to another
// msgpack form; the comparison itself is fuzz::run_canonical_entry (aborts on a difference).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "format/metadata_encoder.hpp"
#include "format/shard_decoder.hpp"
#include "fuzz/canonical_entry_entry.hpp"
#include "support/snapshot_test_support.hpp"

namespace moonquota::format {
namespace {

constexpr const char* k_client = "00000001-0000-0000-0000-000000000002";

// The shard a writer produces: MEMORY with a handle, DISK, LOCAL_DISK, v5 with a checksum, the
// default tenant written as "", duplicates, a long key.
std::string canonical_shard() {
  std::vector<model::ObjectRecord> objects;
  objects.push_back(test::make_object("tenant-00", "k1", 1024, {test::memory_replica(1, "3-4", 1024)}));
  objects.push_back(test::make_object("tenant-00", "k2", 300000,
                                      {test::memory_replica(2, "3-4", 300000), test::disk_replica(3, 300000)}));
  model::ObjectRecord local = test::make_object("tenant-01", "k3", 70000, {});
  model::Replica r;
  r.id = 4;
  r.status = model::replica_status::complete;
  r.type = model::replica_type::local_disk;
  r.client_id = k_client;
  r.object_size = 70000;
  r.transport_endpoint = "10.0.1.1:15000";
  local.replicas.push_back(r);
  objects.push_back(local);
  model::ObjectRecord v5 = test::make_object("", std::string(40, 'k'), 5, {test::memory_replica(5, "3-4", 5)});
  v5.checksum = 0xdeadbeefcafeULL;
  v5.data_type = 3;
  v5.hard_pinned = true;
  v5.group_id = "g";
  objects.push_back(v5);
  objects.push_back(test::make_object("", std::string(40, 'k'), 6, {test::memory_replica(6, "3-4", 6)}));
  for (auto& o : objects) {
    o.client_id = k_client;
    o.lease_timeout_ms = 1787375520123ULL + 60000;
    o.put_start_time_ms = 1787375520123ULL;
  }
  std::string out;
  MsgpackWriter w(out);
  w.pack_map_header(1);
  w.pack_str("metadata");
  w.pack_array_header(objects.size());
  for (const auto& o : objects) EXPECT_TRUE(encode_object_entry(w, o).ok());
  return out;
}

SegmentTable table() {
  SegmentTable t;
  t.add({3, 4}, {model::segment_status::ok, true});
  return t;
}

void compare(const std::string& raw) {
  const std::string input = std::string(1, '\0') + raw;  // mode 0: the shard as is
  fuzz::run_canonical_entry(reinterpret_cast<const std::uint8_t*>(input.data()), input.size());
}

TEST(CanonicalEntry, AcceptsTheWritersLayout) {
  const std::string raw = canonical_shard();
  const SegmentTable segments = table();
  ObjectView view;
  std::size_t pos = 11;  // 81, a8 "metadata", 95
  for (int i = 0; i < 5; ++i) {
    std::size_t end = 0;
    ASSERT_TRUE(decode_canonical_entry(raw, pos, segments, view, end)) << "entry " << i;
    ASSERT_GT(end, pos);
    pos = end;
  }
  EXPECT_EQ(pos, raw.size());
  EXPECT_EQ(view.tenant_id, "default");
  EXPECT_EQ(view.layout_version, 4);
  compare(raw);
}

TEST(CanonicalEntry, FallsBackOnOtherLayoutsWithTheSameResults) {
  // Objects the general decoder skips or reports: the fast path declines each of them.
  const SegmentTable segments = table();
  auto first_entry_accepted = [&](model::ObjectRecord o) {
    std::string out;
    MsgpackWriter w(out);
    w.pack_map_header(1);
    w.pack_str("metadata");
    w.pack_array_header(1);
    EXPECT_TRUE(encode_object_entry(w, o).ok());
    compare(out);
    ObjectView view;
    std::size_t end = 0;
    return decode_canonical_entry(out, 11, segments, view, end);
  };
  model::ObjectRecord good = test::make_object("t", "k", 1, {test::memory_replica(1, "3-4", 1)});
  good.client_id = k_client;
  EXPECT_TRUE(first_entry_accepted(good));
  model::ObjectRecord o = good;
  o.client_id = "nope";
  EXPECT_FALSE(first_entry_accepted(o));
  o = good;
  o.lease_timeout_ms = k_max_time_point_ms + 1;
  EXPECT_FALSE(first_entry_accepted(o));
  o = good;
  o.replicas[0].memory.segment_id = "9-9";
  EXPECT_FALSE(first_entry_accepted(o));
  o = good;
  o.replicas[0].memory.has_offset_handle = false;  // nil handle: accepted
  EXPECT_TRUE(first_entry_accepted(o));
  o = good;
  o.replicas[0].type = model::replica_type::dfs;
  o.replicas[0].file_path = "/dfs";
  EXPECT_FALSE(first_entry_accepted(o));
}

// Every byte of the canonical shard truncated, replaced by each interesting byte, and (where it
// starts a fixint or fixstr) re-encoded in every wider msgpack form.
TEST(CanonicalEntry, EveryMutantDecodesAlikeOnBothPaths) {
  const std::string raw = canonical_shard();
  const unsigned char replacements[] = {0x00, 0x01, 0x7f, 0x80, 0x90, 0x91, 0x93, 0x94, 0x95, 0x9f, 0xa0,
                                        0xa4, 0xbf, 0xc0, 0xc1, 0xc2, 0xc3, 0xc4, 0xcc, 0xcd, 0xce, 0xcf,
                                        0xd0, 0xd3, 0xd9, 0xda, 0xdb, 0xdc, 0xdd, 0xe0, 0xff};
  for (std::size_t i = 0; i < raw.size(); ++i) {
    compare(raw.substr(0, i));
    const auto b = static_cast<unsigned char>(raw[i]);
    for (unsigned char v : replacements) {
      std::string m = raw;
      m[i] = static_cast<char>(v);
      compare(m);
    }
    for (unsigned char v : {b ^ 1u, b + 1u, b - 1u}) {
      std::string m = raw;
      m[i] = static_cast<char>(v);
      compare(m);
    }
    const std::string head = raw.substr(0, i);
    const std::string tail = raw.substr(i + 1);
    if (b <= 0x7f) {  // an integer (or a count) in every other form of the same value
      const std::string c(1, static_cast<char>(b));
      for (const std::string& wide :
           {"\xcc" + c, std::string("\xcd\x00", 2) + c, std::string("\xce\x00\x00\x00", 4) + c,
            std::string("\xcf\x00\x00\x00\x00\x00\x00\x00", 8) + c, "\xd0" + c, std::string("\xd1\x00", 2) + c,
            std::string("\xd2\x00\x00\x00", 4) + c, std::string("\xd3\x00\x00\x00\x00\x00\x00\x00", 8) + c}) {
        compare(head + wide + tail);
      }
    }
    if ((b & 0xe0) == 0xa0) {  // a string as str8, str16, str32, bin8
      const char n = static_cast<char>(b & 0x1f);
      for (const std::string& wide : {std::string("\xd9", 1) + n, std::string("\xda\x00", 2) + n,
                                      std::string("\xdb\x00\x00\x00", 4) + n, std::string("\xc4", 1) + n}) {
        compare(head + wide + tail);
      }
    }
    if ((b & 0xf0) == 0x90) {  // an array as array16, array32
      const char n = static_cast<char>(b & 0x0f);
      compare(head + std::string("\xdc\x00", 2) + n + tail);
      compare(head + std::string("\xdd\x00\x00\x00", 4) + n + tail);
    }
  }
}

TEST(CanonicalEntry, GeneratedShardsDecodeAlike) {
  // Mode 1 of the fuzz entry from a fixed pseudo-random sequence (the stress driver runs millions).
  std::uint64_t state = 0x9e3779b97f4a7c15ULL;
  std::string input;
  for (int n = 0; n < 20000; ++n) {
    input.assign(1, '\x01');
    const std::size_t len = 8 + n % 120;
    for (std::size_t i = 0; i < len; ++i) {
      state ^= state << 13;
      state ^= state >> 7;
      state ^= state << 17;
      input.push_back(static_cast<char>(state));
    }
    fuzz::run_canonical_entry(reinterpret_cast<const std::uint8_t*>(input.data()), input.size());
  }
}

}  // namespace
}  // namespace moonquota::format
