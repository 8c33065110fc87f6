// The S3 client and the S3 ObjectStore against a real S3-compatible server (s3rver, started by
// scripts/with-services.sh, which exports MOONQUOTA_S3_ENDPOINT and the credentials).
#include "source/s3_client.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "source/s3_object_store.hpp"
#include "support/s3_test_env.hpp"
#include "support/snapshot_test_support.hpp"
#include "util/crc32c.hpp"

namespace moonquota::source {
namespace {

using test::fresh_bucket;

S3Config test_config(const std::string& endpoint) { return test::s3_test_config(endpoint); }

std::string pattern(std::size_t bytes, unsigned seed) {
  std::string out(bytes, '\0');
  std::uint64_t x = 0x9E3779B97F4A7C15ull * (seed + 1);
  for (auto& c : out) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    c = static_cast<char>(x & 0xFF);
  }
  return out;
}

TEST(S3Client, PutGetHeadAndRangedGets) {
  MQ_REQUIRE_S3(endpoint);
  S3Client client(test_config(endpoint), {});
  const std::string bucket = fresh_bucket("basic");
  ASSERT_TRUE(client.ensure_bucket(bucket).ok());
  ASSERT_TRUE(client.ensure_bucket(bucket).ok()) << "an existing bucket is fine";
  const std::string body = pattern(100000, 1);
  util::Crc32c crc;
  crc.update(body);
  const S3Location where{bucket, "dir/with space/obj.bin"};
  ASSERT_TRUE(client.put(where, body, crc.base64()).ok());

  auto head = client.head(where);
  ASSERT_TRUE(head.ok()) << head.status().message();
  EXPECT_EQ(head->size, body.size());
  EXPECT_FALSE(head->etag.empty());
  if (head->crc32c) { EXPECT_EQ(*head->crc32c, crc.base64()); }

  S3ObjectInfo info;
  auto got = client.get(where, body.size(), &info);
  ASSERT_TRUE(got.ok()) << got.status().message();
  EXPECT_EQ(*got, body);
  EXPECT_EQ(info.size, body.size());
  EXPECT_EQ(info.etag, head->etag);

  auto too_big = client.get(where, body.size() - 1);
  ASSERT_FALSE(too_big.ok());
  EXPECT_EQ(too_big.status().code(), util::StatusCode::limit_exceeded);

  util::ByteBuffer range;
  ASSERT_TRUE(client.get_range(where, 0, 10, range).ok());
  EXPECT_EQ(std::string(range.data(), range.size()), body.substr(0, 10));
  ASSERT_TRUE(client.get_range(where, 12345, 54321, range).ok());
  EXPECT_EQ(std::string(range.data(), range.size()), body.substr(12345, 54321));
  ASSERT_TRUE(client.get_range(where, body.size() - 7, 7, range).ok());
  EXPECT_EQ(std::string(range.data(), range.size()), body.substr(body.size() - 7));
  // Past the end: the object is shorter than the read needs.
  util::Status past = client.get_range(where, body.size() - 7, 8, range);
  ASSERT_FALSE(past.ok());
  EXPECT_EQ(past.code(), util::StatusCode::corruption) << past.message();
}

TEST(S3Client, ListsEveryPage) {
  MQ_REQUIRE_S3(endpoint);
  S3Client client(test_config(endpoint), {});
  const std::string bucket = fresh_bucket("pages");
  ASSERT_TRUE(client.ensure_bucket(bucket).ok());
  constexpr int k_objects = 1100;  // more than one ListObjectsV2 page of 1000
  for (int i = 0; i < k_objects; ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "p/%05d", i);
    ASSERT_TRUE(client.put({bucket, name}, std::to_string(i)).ok()) << name;
  }
  ASSERT_TRUE(client.put({bucket, "other/x"}, "x").ok());
  auto listed = client.list(bucket, "p/");
  ASSERT_TRUE(listed.ok()) << listed.status().message();
  ASSERT_EQ(listed->size(), static_cast<std::size_t>(k_objects));
  for (int i = 0; i < k_objects; ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "p/%05d", i);
    ASSERT_EQ((*listed)[static_cast<std::size_t>(i)].key, name);
    EXPECT_EQ((*listed)[static_cast<std::size_t>(i)].size, std::to_string(i).size());
  }
  auto all = client.list(bucket, "");
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), static_cast<std::size_t>(k_objects + 1));
  auto none = client.list(bucket, "nothing/");
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());

  // The ObjectStore view lists the same, as URLs, and knows the sizes without a request.
  S3ObjectStore store(test_config(endpoint));
  auto keys = store.list("s3://" + bucket + "/p");
  ASSERT_TRUE(keys.ok()) << keys.status().message();
  ASSERT_EQ(keys->size(), static_cast<std::size_t>(k_objects));
  EXPECT_EQ(keys->front(), "s3://" + bucket + "/p/00000");
  auto size = store.size("s3://" + bucket + "/p/01099");
  ASSERT_TRUE(size.ok());
  EXPECT_EQ(*size, 4u);
  auto details = store.details("s3://" + bucket + "/p/01099");
  ASSERT_TRUE(details.has_value());
  EXPECT_EQ(details->size, 4u);
  EXPECT_FALSE(details->etag.empty());
  auto empty = store.list("s3://" + bucket + "/nothing");
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.status().code(), util::StatusCode::not_found);
}

TEST(S3ObjectStore, OpenStreamsAnObjectOfManyChunks) {
  MQ_REQUIRE_S3(endpoint);
  S3Config config = test_config(endpoint);
  config.chunk_bytes = 64 << 10;  // the smallest chunk the stream uses
  config.window_bytes = 128 << 10;
  S3ObjectStore store(config);
  S3Client client(config, {});
  const std::string bucket = fresh_bucket("stream");
  ASSERT_TRUE(client.ensure_bucket(bucket).ok());
  const std::string body = pattern((1 << 20) + 12345, 2);  // 17 chunks, the last one short
  ASSERT_TRUE(client.put({bucket, "big"}, body).ok());
  const std::string url = "s3://" + bucket + "/big";
  auto source = store.open(url);
  ASSERT_TRUE(source.ok()) << source.status().message();
  EXPECT_EQ((*source)->size(), body.size());
  EXPECT_EQ((*source)->name(), url);
  std::string read;
  std::size_t step = 1;
  while ((*source)->remaining() > 0) {
    const std::uint64_t n = std::min<std::uint64_t>(step, (*source)->remaining());
    ASSERT_TRUE((*source)->read_exact(n, &read).ok());
    step = step * 2 + 3;
    if (step > 300000) step = 5;
  }
  EXPECT_EQ(read.size(), body.size());
  EXPECT_TRUE(read == body);
  util::Status beyond = (*source)->read_exact(1, nullptr);
  EXPECT_EQ(beyond.code(), util::StatusCode::corruption);
  // Read whole and in order: the bytes' CRC32C is recorded.
  auto details = store.details(url);
  ASSERT_TRUE(details.has_value());
  util::Crc32c crc;
  crc.update(body);
  EXPECT_EQ(details->read_crc32c, crc.base64());
  EXPECT_EQ(details->size, body.size());

  // A stream dropped half-way stops its download without a hang.
  auto half = store.open(url);
  ASSERT_TRUE(half.ok());
  ASSERT_TRUE((*half)->read_exact(100, nullptr).ok());
}

TEST(S3Client, MissingKeyAndMissingBucketAreNotFound) {
  MQ_REQUIRE_S3(endpoint);
  S3Client client(test_config(endpoint), {});
  const std::string bucket = fresh_bucket("missing");
  ASSERT_TRUE(client.ensure_bucket(bucket).ok());
  auto key = client.get({bucket, "no/such/key"}, 100);
  ASSERT_FALSE(key.ok());
  EXPECT_EQ(key.status().code(), util::StatusCode::not_found);
  EXPECT_NE(key.status().message().find("s3://" + bucket + "/no/such/key"), std::string::npos)
      << key.status().message();
  auto head = client.head({bucket, "no/such/key"});
  ASSERT_FALSE(head.ok());
  EXPECT_EQ(head.status().code(), util::StatusCode::not_found);

  const std::string absent = fresh_bucket("absent");
  auto listed = client.list(absent, "");
  ASSERT_FALSE(listed.ok());
  EXPECT_EQ(listed.status().code(), util::StatusCode::not_found);
  EXPECT_NE(listed.status().message().find("no bucket '" + absent + "'"), std::string::npos)
      << listed.status().message();
  auto got = client.get({absent, "k"}, 100);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().code(), util::StatusCode::not_found);
  EXPECT_NE(got.status().message().find(absent), std::string::npos) << got.status().message();
}

TEST(S3Client, WrongAccessKeyIsUnavailableWithTheHintAndNoSecret) {
  MQ_REQUIRE_S3(endpoint);
  S3Config config = test_config(endpoint);
  config.access_key_id = "AKIDNOTKNOWNHERE";
  config.secret_access_key = "the-secret-never-shown";
  S3Client client(config, {});
  auto listed = client.list(fresh_bucket("denied"), "");
  ASSERT_FALSE(listed.ok());
  const std::string& message = listed.status().message();
  EXPECT_EQ(listed.status().code(), util::StatusCode::unavailable) << message;
  EXPECT_NE(message.find("InvalidAccessKeyId"), std::string::npos) << message;
  EXPECT_NE(message.find("MOONCAKE_AWS_ACCESS_KEY_ID"), std::string::npos) << message;
  EXPECT_NE(message.find("AWS_SECRET_ACCESS_KEY"), std::string::npos) << message;
  EXPECT_EQ(message.find("the-secret-never-shown"), std::string::npos) << message;
}

TEST(S3Client, PutFileMultipartReadsBackEqual) {
  MQ_REQUIRE_S3(endpoint);
  S3Config config = test_config(endpoint);
  config.multipart_threshold = 6 << 20;
  config.part_bytes = 5 << 20;  // 12 MiB: parts of 5, 5 and 2 MiB
  S3Client client(config, {});
  const std::string bucket = fresh_bucket("multipart");
  ASSERT_TRUE(client.ensure_bucket(bucket).ok());
  test::TempDir dir;
  const std::string body = pattern(12 << 20, 3);
  const std::string path = dir.str() + "/big.bin";
  std::ofstream(path, std::ios::binary).write(body.data(), static_cast<std::streamsize>(body.size()));
  ASSERT_TRUE(client.put_file({bucket, "multi/big.bin"}, path).ok());
  auto got = client.get({bucket, "multi/big.bin"}, body.size());
  ASSERT_TRUE(got.ok()) << got.status().message();
  EXPECT_EQ(got->size(), body.size());
  EXPECT_TRUE(*got == body);
  auto head = client.head({bucket, "multi/big.bin"});
  ASSERT_TRUE(head.ok());

  // Below the threshold: one PUT, of the whole file.
  const std::string small_path = dir.str() + "/small.bin";
  const std::string small = pattern(3000, 4);
  std::ofstream(small_path, std::ios::binary).write(small.data(), static_cast<std::streamsize>(small.size()));
  ASSERT_TRUE(client.put_file({bucket, "small.bin"}, small_path).ok());
  auto small_got = client.get({bucket, "small.bin"}, 1 << 20);
  ASSERT_TRUE(small_got.ok());
  EXPECT_EQ(*small_got, small);
  util::Status missing = client.put_file({bucket, "x"}, dir.str() + "/absent");
  EXPECT_EQ(missing.code(), util::StatusCode::io_error);
}

}  // namespace
}  // namespace moonquota::source
