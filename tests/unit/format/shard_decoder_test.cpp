// One decompressed metadata shard (snapshot-format.md §5.3): entry shapes, legacy 2-element
// entries, rejections naming shard / entry / offset, trailing bytes, and the genuine §14 shard.
#include "format/shard_decoder.hpp"

#include <gtest/gtest.h>

#include <string>

#include "support/snapshot_test_support.hpp"

namespace moonquota::format {
namespace {

using test::msgpack;
using test::RecordingVisitor;

// §14.3: the decompressed shard of the worked example (155 bytes).
const std::string k_spec_shard_hex =
    "81a86d657461646174619193a764656661756c74a864656d6f2d6b65799ca331"
    "2d32cf0000018bcfe56800cd0400cf000003bb2cc3d800c20002009401030095"
    "cd0400cf0000000300000000a3332d34c393cf0000000300000000cd04009200"
    "009402030192d92e2f6d6e742f6d6f6f6e63616b655f66732f6d6f6f6e63616b"
    "655f636c75737465722f642f6d2f64656d6f2d6b6579cd0400c2a0";

SegmentTable table_3_4() {
  SegmentTable t;
  t.add({3, 4}, {model::segment_status::ok, true});
  return t;
}

struct ShardRun {
  util::Status status;
  RecordingVisitor visitor;
  model::Findings findings;
};

ShardRun run(const std::string& raw, std::uint32_t shard = 5) {
  ShardRun r;
  ObjectView scratch;
  const SegmentTable table = table_3_4();
  r.status = decode_shard(raw, shard, table, scratch, r.visitor, r.findings);
  return r;
}

bool has(const model::Findings& findings, model::Severity severity, const std::string& location,
         const std::string& message) {
  for (const auto& f : findings)
    if (f.severity == severity && f.location == location && f.message == message) return true;
  return false;
}

// The finding whose message starts with `prefix` (the first), or nullptr.
const model::Finding* starting_with(const model::Findings& findings, const std::string& prefix) {
  for (const auto& f : findings)
    if (f.message.rfind(prefix, 0) == 0) return &f;
  return nullptr;
}

int count(const model::Findings& findings, const std::string& needle) {
  int n = 0;
  for (const auto& f : findings) n += f.message.find(needle) != std::string::npos ? 1 : 0;
  return n;
}

model::ObjectRecord object(const std::string& tenant, const std::string& key) {
  return test::make_object(tenant, key, 1024, {test::memory_replica(1, "3-4", 1024)});
}

TEST(ShardDecoder, SpecWorkedExample) {
  const std::string raw = test::unhex(k_spec_shard_hex);
  ASSERT_EQ(raw.size(), 155u);
  auto r = run(raw, 963);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ASSERT_EQ(r.visitor.entries.size(), 1u);
  const auto& e = r.visitor.entries[0];
  EXPECT_EQ(e.outcome, DecodeOutcome::decoded);
  EXPECT_EQ(e.entry_index, 0u);
  EXPECT_EQ(e.offset, 11u);  // 81, a8 "metadata", 91: the entry starts at byte 11
  EXPECT_EQ(e.record.tenant_id, "default");
  EXPECT_EQ(e.record.key, "demo-key");
  EXPECT_EQ(e.record.size, 1024u);
  EXPECT_EQ(e.record.put_start_time_ms, 1700000000000u);
  EXPECT_EQ(e.record.lease_timeout_ms, 4102444800000u);
  ASSERT_EQ(e.record.replicas.size(), 2u);
  EXPECT_EQ(e.record.replicas[1].file_path, "/mnt/mooncake_fs/mooncake_cluster/d/m/demo-key");
  EXPECT_TRUE(r.findings.empty());
}

TEST(ShardDecoder, GenuineS7Shard) {
  const std::string dir = test::cluster_root(test::source_path(test::k_s7.store)) + "/" + test::k_s7.snapshot_id;
  std::string file = test::read_file(dir + "/metadata");
  // The only shard BIN of the file: decompress it through the metadata scanner's grammar.
  auto shards = std::vector<std::pair<std::uint32_t, std::string>>{};
  MsgpackReader reader(file);
  MpHeader h;
  ASSERT_TRUE(reader.read_header(h));
  std::string_view key;
  ASSERT_TRUE(reader.read_header(h) && reader.read_payload(h.length, key));
  ASSERT_EQ(key, "shards");
  ASSERT_TRUE(reader.read_header(h));
  ASSERT_EQ(h.length, 1u);
  MpHeader k;
  MpHeader v;
  std::string_view blob;
  ASSERT_TRUE(reader.read_header(k) && reader.read_header(v) && reader.read_payload(v.length, blob));
  EXPECT_EQ(k.u, 963u);
  auto r = run(test::unzstd(std::string(blob)), 963);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ASSERT_EQ(r.visitor.entries.size(), 1u);
  EXPECT_EQ(r.visitor.entries[0].outcome, DecodeOutcome::decoded);
  EXPECT_EQ(r.visitor.entries[0].record.key, "demo-key");
  EXPECT_EQ(r.visitor.entries[0].record.layout_version, 4);
}

TEST(ShardDecoder, EntriesInFileOrderWithSkipsDelivered) {
  auto bad = object("tenant-a", "b");
  bad.client_id = "nope";
  auto raw = test::shard_raw_in_order({object("tenant-a", "a"), bad, object("", "c")});
  auto r = run(raw);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ASSERT_EQ(r.visitor.entries.size(), 3u);
  EXPECT_EQ(r.visitor.entries[0].outcome, DecodeOutcome::decoded);
  EXPECT_EQ(r.visitor.entries[1].outcome, DecodeOutcome::skipped);
  EXPECT_EQ(r.visitor.entries[1].reason, "client id 'nope' is not a UUID");
  EXPECT_EQ(r.visitor.entries[1].record.tenant_id, "tenant-a");  // tenant and key set for skips too
  EXPECT_EQ(r.visitor.entries[1].record.key, "b");
  EXPECT_EQ(r.visitor.entries[2].record.tenant_id, "default");  // "" becomes "default"
  EXPECT_EQ(r.visitor.entries[2].entry_index, 2u);
  EXPECT_LT(r.visitor.entries[0].offset, r.visitor.entries[1].offset);
  EXPECT_LT(r.visitor.entries[1].offset, r.visitor.entries[2].offset);
}

TEST(ShardDecoder, EntryRangesTileTheArrayOnBothPaths) {
  // [offset, end_offset) of each entry, decoded or skipped, fast path or general: consecutive
  // ranges with no gap, the last one ending where the shard map ends (before trailing bytes).
  auto bad = object("tenant-a", "b");
  bad.client_id = "nope";
  const std::string raw = test::shard_raw_in_order({object("tenant-a", "a"), bad, object("", "c")});
  const std::string with_trailing = raw + "\x01\x02";
  for (const DecodePath path : {DecodePath::canonical_first, DecodePath::general_only}) {
    ShardRun r;
    ObjectView scratch;
    const SegmentTable table = table_3_4();
    r.status = decode_shard(with_trailing, 5, table, scratch, r.visitor, r.findings, path);
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    ASSERT_EQ(r.visitor.entries.size(), 3u);
    EXPECT_EQ(r.visitor.entries[0].offset, 11u);
    for (std::size_t i = 0; i + 1 < r.visitor.entries.size(); ++i) {
      EXPECT_GT(r.visitor.entries[i].end_offset, r.visitor.entries[i].offset);
      EXPECT_EQ(r.visitor.entries[i].end_offset, r.visitor.entries[i + 1].offset);
    }
    EXPECT_EQ(r.visitor.entries[2].end_offset, raw.size());
  }
}

TEST(ShardDecoder, LegacyTwoElementEntriesMeanDefaultTenant) {
  const std::string object_bytes = msgpack([](MsgpackWriter& w) {
    w.pack_array_header(7);
    w.pack_str("1-2");
    w.pack_uint(1);
    w.pack_uint(10);
    w.pack_uint(4102444800000ULL);
    w.pack_bool(false);
    w.pack_uint(0);
    w.pack_uint(0);
  });
  const std::string raw = msgpack([&](MsgpackWriter& w) {
    w.pack_map_header(1);
    w.pack_str("metadata");
    w.pack_array_header(2);
    w.pack_array_header(2);
    w.pack_str("legacy-key");
    w.append_raw(object_bytes);
    w.pack_array_header(3);
    w.pack_str("tenant-x");
    w.pack_str("k");
    w.append_raw(object_bytes);
  });
  auto r = run(raw, 7);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ASSERT_EQ(r.visitor.entries.size(), 2u);
  EXPECT_EQ(r.visitor.entries[0].record.tenant_id, "default");
  EXPECT_EQ(r.visitor.entries[0].record.key, "legacy-key");
  EXPECT_TRUE(r.visitor.entries[0].record.legacy_entry);
  EXPECT_FALSE(r.visitor.entries[1].record.legacy_entry);
  // Exactly one legacy-entry finding, on entry 0; both objects are reported as layout v1.
  EXPECT_EQ(count(r.findings, "legacy 2-element entry (default tenant)"), 1);
  EXPECT_TRUE(has(r.findings, model::Severity::info, "shard 7 entry 0", "legacy 2-element entry (default tenant)"));
  EXPECT_TRUE(has(r.findings, model::Severity::info, "shard 7 entry 1", "ObjectMetadata layout v1"));
  const model::Finding* legacy = starting_with(r.findings, "legacy 2-element entry");
  ASSERT_NE(legacy, nullptr);
  EXPECT_EQ(legacy->rule, k_rule_legacy_entry);
  EXPECT_EQ(legacy->shard, 7u);
  EXPECT_EQ(legacy->entry, 0u);
}

TEST(ShardDecoder, EntryThatIsNotATwoOrThreeArrayRejects) {
  for (std::uint32_t len : {0u, 1u, 4u}) {
    const std::string raw = msgpack([&](MsgpackWriter& w) {
      w.pack_map_header(1);
      w.pack_str("metadata");
      w.pack_array_header(1);
      w.pack_array_header(len);
      for (std::uint32_t i = 0; i < len; ++i) w.pack_str("x");
    });
    auto r = run(raw, 9);
    ASSERT_FALSE(r.status.ok());
    EXPECT_EQ(r.status.code(), util::StatusCode::corruption);
    EXPECT_EQ(r.status.message(),
              "shard 9: entry 0 at byte offset 11 is not an array of 2 or 3 elements "
              "(offsets are inside the decompressed shard)")
        << len;
  }
  const std::string map_entry = msgpack([](MsgpackWriter& w) {
    w.pack_map_header(1);
    w.pack_str("metadata");
    w.pack_array_header(1);
    w.pack_map_header(0);
  });
  EXPECT_NE(run(map_entry).status.message().find("entry 0 at byte offset 11 is not an array of 2 or 3"),
            std::string::npos);
}

TEST(ShardDecoder, RejectionAfterDecodedEntriesNamesTheEntry) {
  auto raw = test::shard_raw_in_order({object("t", "a"), object("t", "b")});
  // Turn the second entry's client id (fixstr "1-2") into a positive fixint: a conversion throw.
  const std::string needle = test::unhex("a3312d32");
  const std::size_t second = raw.find(needle, raw.find(needle) + 1);
  ASSERT_NE(second, std::string::npos);
  raw.replace(second, 4, test::unhex("07"));
  auto r = run(raw, 3);
  ASSERT_FALSE(r.status.ok());
  EXPECT_EQ(r.status.message(),
            "shard 3: entry 1: client_id: expected a string, found positive integer at byte offset " +
                std::to_string(second) + " (offsets are inside the decompressed shard)");
  EXPECT_EQ(r.visitor.entries.size(), 1u);  // the walk stops at the rejection
}

TEST(ShardDecoder, NonStringTenantOrKeyRejects) {
  const std::string raw = msgpack([](MsgpackWriter& w) {
    w.pack_map_header(1);
    w.pack_str("metadata");
    w.pack_array_header(1);
    w.pack_array_header(3);
    w.pack_uint(1);
    w.pack_str("k");
    w.pack_array_header(0);
  });
  EXPECT_EQ(run(raw, 2).status.message(),
            "shard 2: entry 0: entry tenant: expected a string, found positive integer at byte offset 12 "
            "(offsets are inside the decompressed shard)");
}

TEST(ShardDecoder, ShardShapeRejections) {
  EXPECT_EQ(
      run(test::unhex("90"), 4).status.message(),
      "shard 4: shard value: expected a map, found array at byte offset 0 (offsets are inside the decompressed shard)");
  EXPECT_EQ(run(test::unhex("80"), 4).status.message(),
            "shard 4: shard map has no \"metadata\" array (offsets are inside the decompressed shard)");
  const std::string not_array = msgpack([](MsgpackWriter& w) {
    w.pack_map_header(1);
    w.pack_str("metadata");
    w.pack_map_header(0);
  });
  EXPECT_EQ(run(not_array, 4).status.message(),
            "shard 4: \"metadata\": expected an array, found map at byte offset 10 (offsets are inside the "
            "decompressed shard)");
  EXPECT_FALSE(run("", 4).status.ok());
}

TEST(ShardDecoder, OtherKeysAroundMetadata) {
  const std::string raw = msgpack([](MsgpackWriter& w) {
    w.pack_map_header(3);
    w.pack_uint(1);  // a non-string key before "metadata": skipped with its value
    w.pack_str("x");
    w.pack_str("metadata");
    w.pack_array_header(0);
    w.pack_str("later");
    w.pack_array_header(1);
    w.pack_uint(2);
  });
  auto r = run(raw, 1);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_TRUE(test::has_finding(r.findings, "1 extra keys after \"metadata\" ignored"));
  // A malformed value after "metadata" is still parsed by msgpack-c: truncation rejects.
  auto r2 = run(raw.substr(0, raw.size() - 1), 1);
  EXPECT_FALSE(r2.status.ok());
}

TEST(ShardDecoder, TrailingBytesAreIgnoredWithAWarning) {
  auto raw = test::shard_raw_in_order({object("t", "a")});
  raw += test::unhex("c1ffee");  // even an invalid byte: never parsed
  auto r = run(raw, 11);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.visitor.entries.size(), 1u);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].severity, model::Severity::warning);
  EXPECT_EQ(r.findings[0].location, "shard 11");
  EXPECT_EQ(r.findings[0].message, "3 trailing bytes after the shard map ignored");
  EXPECT_EQ(r.findings[0].shard, 11u);  // a shard finding: the shard as a field, no entry
  EXPECT_FALSE(r.findings[0].entry.has_value());
}

TEST(ShardDecoder, NofReplicaAndAmbiguousSkipFindings) {
  const std::string raw = msgpack([](MsgpackWriter& w) {
    w.pack_map_header(1);
    w.pack_str("metadata");
    w.pack_array_header(2);
    // [t, k, [cid, put, size, lease, false, 0, 1, [1, 3, 3, -1]]]: an NOF_SSD replica
    w.pack_array_header(3);
    w.pack_str("t");
    w.pack_str("nof");
    w.pack_array_header(8);
    w.pack_str("1-2");
    for (std::uint64_t v : {1ULL, 10ULL, 4102444800000ULL}) w.pack_uint(v);
    w.pack_bool(false);
    w.pack_uint(0);
    w.pack_uint(1);
    w.pack_array_header(4);
    w.pack_uint(1);
    w.pack_uint(3);
    w.pack_uint(3);
    w.pack_int(-1);
    // an invalid client id with a data_type that would throw
    w.pack_array_header(3);
    w.pack_str("t");
    w.pack_str("amb");
    w.pack_array_header(8);
    w.pack_str("bad");
    for (std::uint64_t v : {1ULL, 10ULL, 4102444800000ULL}) w.pack_uint(v);
    w.pack_bool(false);
    w.pack_uint(0);
    w.pack_uint(0);
    w.pack_uint(999);
  });
  auto r = run(raw, 6);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ASSERT_EQ(r.visitor.entries.size(), 2u);
  EXPECT_EQ(r.visitor.entries[0].outcome, DecodeOutcome::skipped);
  EXPECT_EQ(r.visitor.entries[1].outcome, DecodeOutcome::skipped);
  EXPECT_TRUE(r.visitor.entries[1].ambiguous);
  EXPECT_TRUE(has(r.findings, model::Severity::error, "shard 6 entry 0", "unsupported snapshot: NOF_SSD replica"));
  EXPECT_TRUE(has(r.findings, model::Severity::error, "shard 6 entry 0",
                  "object skipped (tenant 't', key 'nof'): replica 0: unsupported snapshot: NOF_SSD replica (type 3)"));
  EXPECT_TRUE(has(r.findings, model::Severity::error, "shard 6 entry 1",
                  "object skipped (tenant 't', key 'amb'): client id 'bad' is not a UUID"));
  EXPECT_EQ(count(r.findings, "not verified against a Mooncake build"), 1);
  EXPECT_TRUE(has(r.findings, model::Severity::warning, "shard 6 entry 1",
                  "skipped (client id 'bad' is not a UUID) although a later value would make the master reject "
                  "the snapshot; the order of these checks is not verified against a Mooncake build"));
  // The same in fields: every finding names shard 6 and its entry; the rules are fields too.
  for (const auto& f : r.findings) {
    EXPECT_EQ(f.shard, 6u) << f.message;
    EXPECT_EQ(f.entry, f.location == "shard 6 entry 0" ? 0u : 1u) << f.message;
  }
  const model::Finding* nof = starting_with(r.findings, "unsupported snapshot: NOF_SSD replica");
  const model::Finding* skipped = starting_with(r.findings, "object skipped (tenant 't', key 'amb')");
  const model::Finding* ambiguous = starting_with(r.findings, "skipped (client id 'bad'");
  ASSERT_TRUE(nof != nullptr && skipped != nullptr && ambiguous != nullptr);
  EXPECT_EQ(nof->rule, k_rule_nof_replica);
  EXPECT_EQ(skipped->rule, k_rule_skipped_object);
  EXPECT_EQ(ambiguous->rule, "");
}

TEST(ShardDecoder, EmptyMetadataArray) {
  auto r = run(test::unhex("81a86d6574616461746190"), 0);
  ASSERT_TRUE(r.status.ok());
  EXPECT_TRUE(r.visitor.entries.empty());
}

}  // namespace
}  // namespace moonquota::format
