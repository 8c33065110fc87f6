#include "source/s3_url.hpp"

#include <gtest/gtest.h>

#include <string>

namespace moonquota::source {
namespace {

TEST(S3Url, ParsesBucketAndKey) {
  auto root = parse_s3_url("s3://store");
  ASSERT_TRUE(root.ok()) << root.status().message();
  EXPECT_EQ(root->bucket, "store");
  EXPECT_EQ(root->key, "");
  auto nested = parse_s3_url("s3://store/copies/a/mooncake_master_snapshot/c1/latest.txt");
  ASSERT_TRUE(nested.ok());
  EXPECT_EQ(nested->bucket, "store");
  EXPECT_EQ(nested->key, "copies/a/mooncake_master_snapshot/c1/latest.txt");
  EXPECT_EQ(s3_url(*nested), "s3://store/copies/a/mooncake_master_snapshot/c1/latest.txt");
  EXPECT_EQ(s3_url({"b", ""}), "s3://b/");
}

TEST(S3Url, ParseErrors) {
  auto not_s3 = parse_s3_url("/var/lib/store");
  ASSERT_FALSE(not_s3.ok());
  EXPECT_EQ(not_s3.status().code(), util::StatusCode::invalid_argument);
  EXPECT_EQ(not_s3.status().message(), "'/var/lib/store' is not an s3:// URL");
  auto no_bucket = parse_s3_url("s3:///prefix");
  ASSERT_FALSE(no_bucket.ok());
  EXPECT_EQ(no_bucket.status().message(), "'s3:///prefix' names no bucket (s3://BUCKET[/PREFIX])");
  auto bad_bucket = parse_s3_url("s3://my bucket/x");
  ASSERT_FALSE(bad_bucket.ok());
  EXPECT_EQ(bad_bucket.status().message(), "'s3://my bucket/x': 'my bucket' is not a bucket name");
  EXPECT_FALSE(parse_s3_url("S3://upper").ok());
  EXPECT_FALSE(parse_s3_url("s3:/one-slash").ok());
}

TEST(S3Url, IsS3Url) {
  EXPECT_TRUE(is_s3_url("s3://"));
  EXPECT_TRUE(is_s3_url("s3://b/p"));
  EXPECT_FALSE(is_s3_url("s3:/"));
  EXPECT_FALSE(is_s3_url("./s3://b"));
  EXPECT_FALSE(is_s3_url(""));
}

TEST(S3Url, ResolveStoreLocation) {
  EXPECT_EQ(*resolve_store_location("/data/store", "ignored"), "/data/store");
  EXPECT_EQ(*resolve_store_location("s3://b", ""), "s3://b");
  EXPECT_EQ(*resolve_store_location("s3://b/", ""), "s3://b");
  EXPECT_EQ(*resolve_store_location("s3://b/copies/x//", ""), "s3://b/copies/x");
  // "s3://" and "s3:///PREFIX" take the configured bucket.
  EXPECT_EQ(*resolve_store_location("s3://", "master-bucket"), "s3://master-bucket");
  EXPECT_EQ(*resolve_store_location("s3:///copies/x", "master-bucket"), "s3://master-bucket/copies/x");
  auto none = resolve_store_location("s3://", "");
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.status().code(), util::StatusCode::invalid_argument);
  EXPECT_EQ(none.status().message(), "'s3://' names no bucket and MOONCAKE_AWS_BUCKET_NAME (--s3-bucket) is not set");
  auto bad = resolve_store_location("s3://bad bucket", "");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), util::StatusCode::invalid_argument);
  // Audit item 19: near misses were read as local paths ("no snapshot root 'S3://demo/...'").
  for (const char* near : {"S3://demo/sample", "s3:/demo", "s3:demo", "S3:"}) {
    auto miss = resolve_store_location(near, "");
    ASSERT_FALSE(miss.ok()) << near;
    EXPECT_EQ(miss.status().message(), std::string("'") + near +
                                           "' is neither a local path nor an S3 URL: an S3 location is written "
                                           "s3://BUCKET/PREFIX (lower case, two slashes)");
  }
  EXPECT_EQ(*resolve_store_location("s3-copies/store", ""), "s3-copies/store");  // a local path
}

TEST(S3Url, UriEncoding) {
  EXPECT_EQ(s3_uri_encode("AZaz09-_.~", false), "AZaz09-_.~");
  EXPECT_EQ(s3_uri_encode("a/b c+d=e&f", false), "a%2Fb%20c%2Bd%3De%26f");
  EXPECT_EQ(s3_uri_encode("a/b c+d=e&f", true), "a/b%20c%2Bd%3De%26f");
  EXPECT_EQ(s3_uri_encode("\xC3\xA9*", true), "%C3%A9%2A");  // bytes, upper-case hex
  EXPECT_EQ(s3_uri_encode("", true), "");
}

S3Config config_for(std::string endpoint, bool virtual_addressing, bool https = true) {
  S3Config c;
  c.endpoint = std::move(endpoint);
  c.virtual_addressing = virtual_addressing;
  c.use_https = https;
  return c;
}

TEST(S3Url, PathStyleRequestUrls) {
  const S3Config c = config_for("http://127.0.0.1:9000", false);
  EXPECT_EQ(s3_request_url(c, "store", "a b/latest.txt"), "http://127.0.0.1:9000/store/a%20b/latest.txt");
  EXPECT_EQ(s3_request_url(c, "store", ""), "http://127.0.0.1:9000/store");
  EXPECT_EQ(s3_request_url(c, "store", "", "list-type=2&prefix=x"), "http://127.0.0.1:9000/store?list-type=2&prefix=x");
  // An endpoint without a scheme takes it from use_https; a trailing '/' is dropped.
  EXPECT_EQ(s3_request_url(config_for("minio.local:9000/", false, false), "b", "k"), "http://minio.local:9000/b/k");
  EXPECT_EQ(s3_request_url(config_for("minio.local", false, true), "b", "k"), "https://minio.local/b/k");
}

TEST(S3Url, VirtualHostedRequestUrls) {
  const S3Config c = config_for("https://s3.example.com", true);
  EXPECT_TRUE(uses_virtual_host(c, "store"));
  EXPECT_EQ(s3_request_url(c, "store", "dir/key"), "https://store.s3.example.com/dir/key");
  EXPECT_EQ(s3_request_url(c, "store", "", "list-type=2"), "https://store.s3.example.com/?list-type=2");
  // No endpoint: AWS in the configured region.
  S3Config aws;
  aws.region = "eu-west-1";
  EXPECT_EQ(s3_request_url(aws, "store", "k"), "https://store.s3.eu-west-1.amazonaws.com/k");
}

TEST(S3Url, IpEndpointsAndDottedBucketsFallBackToPathStyle) {
  const S3Config ip = config_for("http://127.0.0.1:9000", true);
  EXPECT_FALSE(uses_virtual_host(ip, "store"));
  EXPECT_EQ(s3_request_url(ip, "store", "k"), "http://127.0.0.1:9000/store/k");
  const S3Config ipv6 = config_for("http://[::1]:9000", true);
  EXPECT_FALSE(uses_virtual_host(ipv6, "store"));
  EXPECT_EQ(s3_request_url(ipv6, "store", "k"), "http://[::1]:9000/store/k");
  const S3Config named = config_for("https://s3.example.com", true);
  EXPECT_FALSE(uses_virtual_host(named, "my.dotted.bucket"));
  EXPECT_EQ(s3_request_url(named, "my.dotted.bucket", "k"), "https://s3.example.com/my.dotted.bucket/k");
  EXPECT_FALSE(uses_virtual_host(config_for("https://s3.example.com", false), "store"));
}

}  // namespace
}  // namespace moonquota::source
