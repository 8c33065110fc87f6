#include "inspect/snapshot_fingerprint.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "inspect/msgpack_shape.hpp"
#include "report/inspect/fingerprint_report.hpp"
#include "support/local_store.hpp"
#include "support/run_tool.hpp"
#include "support/snapshot_test_support.hpp"
#include "util/hashing.hpp"

namespace moonquota::inspect {
namespace {

using test::TempDir;

util::Result<SnapshotFingerprint> fingerprint_of(const std::string& store_dir, unsigned threads = 2) {
  restore::StoreSelection selection;
  selection.store_dir = store_dir;
  auto selected = select_snapshot(test::local_files(), selection);
  if (!selected.ok()) return selected.status();
  FingerprintOptions options;
  options.threads = threads;
  return fingerprint_snapshot(test::local_files(), *selected, options);
}

const ShapeFeature* find_feature(const SnapshotFingerprint& fp, const std::string& section, const std::string& needle) {
  auto s = fp.shape.sections.find(section);
  if (s == fp.shape.sections.end()) return nullptr;
  for (const auto& [feature, f] : s->second) {
    if (feature.find(needle) != std::string::npos) return &f;
  }
  return nullptr;
}

// A store of one snapshot whose metadata holds `shards` (raw) and no segments.
std::string store_with_shards(const TempDir& dir, const std::vector<std::pair<std::uint32_t, std::string>>& shards) {
  const auto store = dir.path() / "store";
  test::write_snapshot(
      test::cluster_root(store), "20260822_051200_123",
      test::snapshot_files("20260822_051200_123", test::metadata_file_bytes(shards), test::make_segments_payload({})));
  return store.string();
}

model::ObjectRecord disk_object(const std::string& tenant, const std::string& key, std::uint64_t size) {
  return test::make_object(tenant, key, size, {test::disk_replica(1, size)});
}

std::uint32_t shard_of(const model::ObjectRecord& o) { return util::metadata_shard_index(o.tenant_id, o.key, ""); }

// The master (genuine s7) and our forge (the spec's worked example, the same scenario) write the
// same format: one fingerprint.
TEST(SnapshotFingerprint, AGenuineMasterStoreAndItsForgedTwinHaveOneFingerprint) {
  auto genuine = fingerprint_of(test::source_path(test::k_s7.store));
  auto forged = fingerprint_of(test::source_path("snapshots/spec-worked-example/store"));
  ASSERT_TRUE(genuine.ok()) << genuine.status().to_string();
  ASSERT_TRUE(forged.ok()) << forged.status().to_string();
  EXPECT_EQ(genuine->fingerprint_id, forged->fingerprint_id);
  EXPECT_EQ(canonical_shape_text(genuine->shape), canonical_shape_text(forged->shape));
  EXPECT_EQ(genuine->unknown_features, 0u);
  EXPECT_NE(find_feature(*genuine, "manifest", "version: 1.0.0"), nullptr);
  EXPECT_NE(find_feature(*genuine, "segments", "top level: {\"ma\",\"an\",\"ms\",\"cs\",\"ld\"}"), nullptr);
}

TEST(SnapshotFingerprint, CountsChangeButTheIdDoesNot) {
  TempDir a, b;
  const auto one = disk_object("t", "k1", 100);
  const auto two = disk_object("t", "k2", 200);
  auto small = fingerprint_of(store_with_shards(a, {{shard_of(one), test::shard_raw_in_order({one})}}));
  auto large = fingerprint_of(store_with_shards(
      b, {{shard_of(one), test::shard_raw_in_order({one})},
          {shard_of(two) == shard_of(one) ? 1023U : shard_of(two), test::shard_raw_in_order({two})}}));
  ASSERT_TRUE(small.ok()) << small.status().to_string();
  ASSERT_TRUE(large.ok()) << large.status().to_string();
  EXPECT_EQ(small->fingerprint_id, large->fingerprint_id);
  const auto* objects_small = find_feature(*small, "metadata", "object: v4");
  const auto* objects_large = find_feature(*large, "metadata", "object: v4");
  ASSERT_NE(objects_small, nullptr);
  ASSERT_NE(objects_large, nullptr);
  EXPECT_EQ(objects_small->count, 1u);
  EXPECT_EQ(objects_large->count, 2u);
}

// The mutation: an object with one element more than v5 is a layout the format does not
// have (the master skips it); the fingerprint names it and where it was seen.
TEST(SnapshotFingerprint, AnObjectOneElementPastV5IsUnknownWithItsPlace) {
  TempDir dir;
  auto o = disk_object("t", "k", 100);
  o.checksum = 7;  // v5: 11 + N elements
  std::string raw = test::shard_raw_in_order({o});
  const std::size_t header = 1 + 9 + 1 + 1 + 2 + 2;  // map, "metadata", array, entry, "t", "k"
  ASSERT_EQ(static_cast<unsigned char>(raw[header]), 0x90U + 12U);
  raw[header] = static_cast<char>(0x90U + 13U);
  raw.push_back('\x05');  // the object is the shard's last value
  auto fp = fingerprint_of(store_with_shards(dir, {{shard_of(o), raw}}));
  ASSERT_TRUE(fp.ok()) << fp.status().to_string();
  const auto* past = find_feature(*fp, "metadata", "object: (12+N)");
  ASSERT_NE(past, nullptr);
  EXPECT_TRUE(past->unknown);
  EXPECT_EQ(past->first_seen, "shard " + std::to_string(shard_of(o)) + " entry 0");
  EXPECT_EQ(find_feature(*fp, "metadata", "object: v5"), nullptr);
  EXPECT_EQ(fp->unknown_features, 1u);
}

TEST(SnapshotFingerprint, AnUnknownSegmentsKeyIsFormatOnlyAndNamed) {
  TempDir dir;
  const auto store = test::copy_genuine_store(test::k_s7, dir.path() / "store");
  const auto segments = test::fs::path(test::cluster_root(store)) / test::k_s7.snapshot_id / "segments";
  std::string raw = test::unzstd(test::read_file(segments));
  ASSERT_EQ(static_cast<unsigned char>(raw[0]), 0x85U);  // the 5-entry map
  raw[0] = static_cast<char>(0x86U);
  raw += test::msgpack([](format::MsgpackWriter& w) {
    w.pack_str("zz");
    w.pack_uint(1);
  });
  test::write_file(segments, util::zstd_compress(raw));
  auto before = fingerprint_of(test::source_path(test::k_s7.store));
  auto after = fingerprint_of(store.string());
  ASSERT_TRUE(before.ok());
  ASSERT_TRUE(after.ok()) << after.status().to_string();
  EXPECT_NE(before->fingerprint_id, after->fingerprint_id);
  const auto* key = find_feature(*after, "segments", "key \"zz\": uint");
  ASSERT_NE(key, nullptr);
  EXPECT_TRUE(key->unknown);
  EXPECT_EQ(key->first_seen, "segments \"zz\"");
  EXPECT_NE(find_feature(*after, "segments", "top level: {\"ma\",\"an\",\"ms\",\"cs\",\"ld\",\"zz\"}"), nullptr);
}

// A snapshot the master decodes but rejects (a DRAINING segment) is fingerprinted, and says so.
TEST(SnapshotFingerprint, ADecodableSnapshotTheMasterRejectsSaysWhy) {
  auto rejected = fingerprint_of(test::source_path("snapshots/inspect-diff-b/store"));
  ASSERT_TRUE(rejected.ok()) << rejected.status().to_string();
  ASSERT_TRUE(rejected->master_rejection.has_value());
  EXPECT_NE(rejected->master_rejection->find("DRAINING"), std::string::npos);
  auto restored = fingerprint_of(test::source_path("snapshots/sample/store"));
  ASSERT_TRUE(restored.ok());
  EXPECT_FALSE(restored->master_rejection.has_value());
}

TEST(SnapshotFingerprint, AManifestVersionTheMasterRejectsIsAnError) {
  TempDir dir;
  const auto store = test::copy_genuine_store(test::k_s7, dir.path() / "store");
  test::write_file(test::fs::path(test::cluster_root(store)) / test::k_s7.snapshot_id / "manifest.txt",
                   std::string("messagepack|1.0.1|") + test::k_s7.snapshot_id);
  auto fp = fingerprint_of(store.string());
  ASSERT_FALSE(fp.ok());
  EXPECT_NE(fp.status().message().find("1.0.1"), std::string::npos) << fp.status().to_string();
}

TEST(MsgpackShape, RunsOfEqualElementsAndZstdBins) {
  const std::string bytes = test::msgpack([](format::MsgpackWriter& w) {
    w.pack_array_header(7);
    w.pack_str("a");
    for (int i = 0; i < 4; ++i) w.pack_uint(static_cast<std::uint64_t>(i));
    w.pack_bin(util::zstd_compress("xyz"));
    w.pack_map_header(1);
    w.pack_str("k\x01");
    w.pack_int(-1);
  });
  format::MsgpackReader reader(bytes);
  EXPECT_EQ(describe_shape(reader, 3), "[str,4×uint,bin(zstd),{\"k\\x01\":int}]");
  EXPECT_TRUE(reader.at_end());
  format::MsgpackReader shallow(bytes);
  EXPECT_EQ(describe_shape(shallow, 0), "[...]");
  EXPECT_EQ(quoted_name("\xff"), "0xff");
}

// The first places are the first in file order whatever thread walked which shard (found by the
// S3 replay of the golden cases, where shards arrive in another order).
TEST(FingerprintReport, TheReportIsTheSameOnOneThreadAndOnMany) {
  std::string texts[3];
  const unsigned threads[3] = {1, 2, 7};
  for (int i = 0; i < 3; ++i) {
    auto fp = fingerprint_of(test::source_path("snapshots/sample/store"), threads[i]);
    ASSERT_TRUE(fp.ok());
    std::ostringstream out;
    report::render_fingerprint(*fp, report::OutputFormat::json, out);
    texts[i] = out.str();
  }
  EXPECT_EQ(texts[0], texts[1]);
  EXPECT_EQ(texts[0], texts[2]);
  EXPECT_NE(texts[0].find("\"first_seen\": \"shard 0 entry 0\""), std::string::npos);
}

TEST(FingerprintReport, TheJsonReadsBackToTheSameShape) {
  auto fp = fingerprint_of(test::source_path("snapshots/sample/store"));
  ASSERT_TRUE(fp.ok());
  std::ostringstream out;
  report::render_fingerprint(*fp, report::OutputFormat::json, out);
  auto back = report::parse_fingerprint_json(out.str(), "fp.json");
  ASSERT_TRUE(back.ok()) << back.status().to_string();
  EXPECT_EQ(fingerprint_id_of(back->shape), fp->fingerprint_id);
  EXPECT_EQ(back->fingerprint_id, fp->fingerprint_id);
  EXPECT_FALSE(report::parse_fingerprint_json("{\"schema\":\"other/1\"}", "fp.json").ok());
  EXPECT_FALSE(report::parse_fingerprint_json("not json", "fp.json").ok());
}

TEST(SnapshotInspectTool, FingerprintWritesTextOrJsonOnly) {
  const std::string sample = test::source_path("snapshots/sample/store");
  auto json = test::run_tool("snapshot-inspect", {"fingerprint", "--store", sample, "--format", "json"});
  EXPECT_EQ(json.exit_code, 0) << json.err;
  EXPECT_NE(json.out.find("\"schema\": \"snapshot-inspect-fingerprint/1\""), std::string::npos);
  auto ndjson = test::run_tool("snapshot-inspect", {"fingerprint", "--store", sample, "--format", "ndjson"});
  EXPECT_EQ(ndjson.exit_code, 2);
  EXPECT_NE(ndjson.err.find("text or json"), std::string::npos) << ndjson.err;
}

}  // namespace
}  // namespace moonquota::inspect

namespace moonquota::inspect {
namespace {

// A crafted container of a million alternating elements: the shape text stops near its limit
// and the reader still ends after the value.
TEST(MsgpackShape, AHugeContainerIsCutAtTheTextLimit) {
  const std::string bytes = test::msgpack([](format::MsgpackWriter& w) {
    w.pack_array_header(1'000'000);
    for (int i = 0; i < 500'000; ++i) {
      w.pack_uint(1);
      w.pack_str("s");
    }
  });
  format::MsgpackReader reader(bytes);
  const std::string shape = describe_shape(reader, 2);
  EXPECT_TRUE(reader.at_end());
  EXPECT_LE(shape.size(), k_max_shape_chars + 16);
  EXPECT_EQ(shape.substr(shape.size() - 5), ",…]");  // "…" is 3 bytes of UTF-8
}

}  // namespace
}  // namespace moonquota::inspect

namespace moonquota::inspect {
namespace {

// An object of 100,000 trailing elements (and a replica as long): its feature is cut like an
// array's, not a shape per element (found by fuzz_snapshot_decoders).
TEST(ShardShape, ALongRecordTailIsCutAtTheTextLimit) {
  const std::string raw = test::msgpack([](format::MsgpackWriter& w) {
    w.pack_map_header(1);
    w.pack_str("metadata");
    w.pack_array_header(1);
    w.pack_array_header(3);
    w.pack_str("t");
    w.pack_str("k");
    w.pack_array_header(7 + 1 + 100'000);
    w.pack_str("1-2");
    for (int i = 0; i < 5; ++i) w.pack_uint(0);
    w.pack_uint(1);  // one replica
    w.pack_array_header(3 + 100'000);
    for (int i = 0; i < 3; ++i) w.pack_uint(1);
    for (int i = 0; i < 100'000; ++i) i % 2 == 0 ? w.pack_uint(1) : w.pack_str("s");
    for (int i = 0; i < 100'000; ++i) i % 2 == 0 ? w.pack_bool(true) : w.pack_str("s");
  });
  SnapshotShape shape;
  add_shard_shape(raw, 5, shape);
  const auto& features = shape.sections["metadata"];
  ASSERT_EQ(features.size(), 4u);  // the shard, the entry, the object, the replica
  for (const auto& [feature, f] : features) {
    EXPECT_LE(feature.size(), 2 * k_max_shape_chars + 200) << feature.substr(0, 80);
    EXPECT_EQ(f.count, 1u);
    EXPECT_EQ(f.first_seen.rfind("shard 5", 0), 0u);
  }
}

}  // namespace
}  // namespace moonquota::inspect
