#include "format/metadata_encoder.hpp"

#include <gtest/gtest.h>

#include <string>

#include "util/text_encoding.hpp"
#include "util/zstd_codec.hpp"

namespace moonquota::format {
namespace {

using util::to_hex;

// snapshot-format.md §14.1.
model::ObjectRecord worked_example_object() {
  model::ObjectRecord o;
  o.tenant_id = "default";
  o.key = "demo-key";
  o.client_id = "1-2";
  o.put_start_time_ms = 1700000000000ULL;
  o.size = 1024;
  o.lease_timeout_ms = 4102444800000ULL;
  model::Replica mem;
  mem.id = 1;
  mem.type = model::replica_type::memory;
  mem.memory.size = 1024;
  mem.memory.buffer_address = 0x300000000ULL;
  mem.memory.segment_id = "3-4";
  mem.memory.has_offset_handle = true;
  mem.memory.handle = {0x300000000ULL, 1024, 0, 0};
  model::Replica disk;
  disk.id = 2;
  disk.type = model::replica_type::disk;
  disk.file_path = "/mnt/mooncake_fs/mooncake_cluster/d/m/demo-key";
  disk.object_size = 1024;
  o.replicas = {mem, disk};
  return o;
}

constexpr const char* k_encoded_spec_shard_hex =
    "81a86d657461646174619193a764656661756c74a864656d6f2d6b65799ca331"
    "2d32cf0000018bcfe56800cd0400cf000003bb2cc3d800c20002009401030095"
    "cd0400cf0000000300000000a3332d34c393cf0000000300000000cd04009200"
    "009402030192d92e2f6d6e742f6d6f6f6e63616b655f66732f6d6f6f6e63616b"
    "655f636c75737465722f642f6d2f64656d6f2d6b6579cd0400c2a0";

TEST(MetadataEncoder, SpecWorkedExampleShardIsByteExact) {
  const model::ObjectRecord o = worked_example_object();
  EXPECT_EQ(expected_shard_index(o), 963u);
  auto raw = encode_shard_raw({&o});
  ASSERT_TRUE(raw.ok()) << raw.status().to_string();
  EXPECT_EQ(raw->size(), 155u);
  EXPECT_EQ(to_hex(*raw), k_encoded_spec_shard_hex);
}

TEST(MetadataEncoder, SpecWorkedExampleFileFraming) {
  MetadataContent content;
  content.objects = {worked_example_object()};
  content.replica_next_id = 3;
  auto file = encode_metadata(content);
  ASSERT_TRUE(file.ok());
  // 83 a6"shards" 81 cd03c3 c4<len> <zstd frame> ... b2"discarded_replicas" 90 af"replica_next_id" 03
  EXPECT_EQ(to_hex(file->substr(0, 14)), "83a673686172647381cd03c3c4" + to_hex(file->substr(13, 1)));
  const std::size_t bin_len = static_cast<unsigned char>((*file)[13]);
  std::string shard;
  ASSERT_TRUE(util::zstd_decompress(std::string_view(*file).substr(14, bin_len), 1 << 20, shard).ok());
  EXPECT_EQ(to_hex(shard), k_encoded_spec_shard_hex);
  EXPECT_EQ(to_hex(file->substr(14 + bin_len)),
            "b26469736361726465645f7265706c6963617390af7265706c6963615f6e6578745f696403");
}

// §14.7: no objects, next id 1 (46 bytes).
TEST(MetadataEncoder, EmptyFixtureIsByteExact) {
  MetadataContent content;
  auto file = encode_metadata(content);
  ASSERT_TRUE(file.ok());
  EXPECT_EQ(to_hex(*file),
            "83a673686172647380b26469736361726465645f7265706c6963617390af7265706c6963615f6e6578745f696401");
}

// §14.5 variants.
TEST(MetadataEncoder, TenantAndChecksumVariants) {
  model::ObjectRecord o = worked_example_object();
  o.tenant_id = "tenant-a";
  o.checksum = 0x123456789abcdef0ULL;
  EXPECT_EQ(expected_shard_index(o), 55u);
  auto raw = encode_shard_raw({&o});
  ASSERT_TRUE(raw.ok());
  const std::string h = to_hex(*raw);
  EXPECT_NE(h.find("a874656e616e742d61a864656d6f2d6b65799d"), std::string::npos);
  EXPECT_EQ(h.substr(h.size() - 22), "c2a0cf123456789abcdef0");
}

TEST(MetadataEncoder, EntriesSortBytewiseAndDuplicatesAreRefused) {
  model::ObjectRecord a = worked_example_object();
  model::ObjectRecord b = a;
  b.key = "demo-kex";
  model::ObjectRecord high = a;
  high.tenant_id = "\xc3\xa9t";  // bytes >= 0x80 sort after ASCII
  auto raw = encode_shard_raw({&high, &a, &b});
  ASSERT_TRUE(raw.ok());
  const std::string h = to_hex(*raw);
  EXPECT_LT(h.find(to_hex("demo-kex")), h.find(to_hex("demo-key")));
  EXPECT_LT(h.find(to_hex("demo-key")), h.find(to_hex("\xc3\xa9t")));
  auto dup = encode_shard_raw({&a, &a});
  ASSERT_FALSE(dup.ok());
  EXPECT_NE(dup.status().message().find("duplicate"), std::string::npos);
}

TEST(MetadataEncoder, ShardsAscendAndForcedShardIsHonoured) {
  MetadataContent content;
  model::ObjectRecord a = worked_example_object();
  model::ObjectRecord b = a;
  b.key = "key-1";  // shard 238
  content.objects = {a, b};
  auto shards = encode_shards_raw(content);
  ASSERT_TRUE(shards.ok());
  ASSERT_EQ(shards->size(), 2u);
  EXPECT_EQ((*shards)[0].first, 238u);
  EXPECT_EQ((*shards)[1].first, 963u);
  content.shards = {7, 7};
  shards = encode_shards_raw(content);
  ASSERT_TRUE(shards.ok());
  ASSERT_EQ(shards->size(), 1u);
  EXPECT_EQ((*shards)[0].first, 7u);
  content.shards = {1024, 1};
  EXPECT_FALSE(encode_shards_raw(content).ok());
}

TEST(MetadataEncoder, UnencodableReplicaTypeIsAnError) {
  model::ObjectRecord o = worked_example_object();
  o.replicas[1].type = model::replica_type::nof_ssd;
  auto raw = encode_shard_raw({&o});
  ASSERT_FALSE(raw.ok());
  EXPECT_EQ(raw.status().code(), util::StatusCode::unsupported);
}

TEST(MetadataEncoder, DiscardedItemsAndStreamOrder) {
  std::string out;
  MetadataPayloadStream stream(1, out);
  ASSERT_TRUE(stream.add_shard(5, "x").ok());
  EXPECT_FALSE(stream.add_shard(4, "y").ok());
  model::DiscardedItem item;
  item.ttl_ms = 1795953700000;
  item.mem_size = 1024;
  item.replicas = {worked_example_object().replicas[0]};
  ASSERT_TRUE(stream.finish({item}, 9).ok());
  const std::string h = to_hex(out);
  // [ttl, mem_size, 1, Replica] after "discarded_replicas" array(1)
  EXPECT_NE(h.find("9194cf000001a2"), std::string::npos);
  EXPECT_EQ(h.substr(h.size() - 2), "09");
}

}  // namespace
}  // namespace moonquota::format
