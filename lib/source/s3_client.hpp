// An S3 client on libcurl, signed by curl's own AWS SigV4 (CURLOPT_AWS_SIGV4): HEAD, whole and
// ranged GETs, ListObjectsV2 with continuation, PUT (multipart above a threshold) and bucket
// creation. Every request is retried on what S3 documents as transient (HTTP 500/502/503/504,
// SlowDown, RequestTimeout, connection resets, timeouts, a body shorter than its
// Content-Length) with capped exponential backoff and jitter, bounded in attempts and in total
// time; each retry is reported at info on the NetConfig hook. A short or reset body is never
// returned as data.
//
// Errors: not_found (NoSuchKey, NoSuchBucket, 404), unavailable (403 with the S3 code and a hint
// naming the credentials variables; transport failures and 5xx after the retry bound; other
// 4xx), corruption (an object shorter than the range asked, a malformed listing),
// limit_exceeded (an object larger than the caller's bound). Messages name the request, the
// s3:// URL and the endpoint, never a secret.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "source/s3_config.hpp"
#include "source/s3_url.hpp"
#include "util/byte_buffer.hpp"
#include "util/net_config.hpp"
#include "util/status.hpp"

namespace moonquota::source {

struct S3ObjectInfo {
  std::string key;  // the object key within its bucket
  std::uint64_t size = 0;
  std::string etag;                   // as the server sent it, quotes included
  std::optional<std::string> crc32c;  // x-amz-checksum-crc32c (base64), when the server gave one
};

class S3Client {
 public:
  S3Client(S3Config config, util::NetConfig net);

  [[nodiscard]] const S3Config& config() const { return m_config; }
  [[nodiscard]] const util::NetConfig& net() const { return m_net; }

  // Size, ETag and (asked for with x-amz-checksum-mode: ENABLED) the CRC32C of one object.
  [[nodiscard]] util::Result<S3ObjectInfo> head(const S3Location& object);
  // The whole object (at most `max_bytes`, else limit_exceeded), and its HEAD-like info.
  [[nodiscard]] util::Result<std::string> get(const S3Location& object, std::uint64_t max_bytes,
                                              S3ObjectInfo* info = nullptr);
  // Exactly `bytes` bytes at `offset` into `out` (a ranged GET).
  [[nodiscard]] util::Status get_range(const S3Location& object, std::uint64_t offset, std::uint64_t bytes,
                                       util::ByteBuffer& out);
  // Every object whose key starts with `prefix`, sorted by key (all pages of ListObjectsV2).
  // An empty result is not an error; a missing bucket is not_found.
  [[nodiscard]] util::Result<std::vector<S3ObjectInfo>> list(const std::string& bucket, const std::string& prefix);
  // Uploads `body` (one PUT), with its CRC32C (base64) when given.
  [[nodiscard]] util::Status put(const S3Location& object, std::string_view body,
                                 const std::optional<std::string>& crc32c = std::nullopt);
  // Uploads a local file, streamed: one PUT up to config().multipart_threshold, a multipart
  // upload of config().part_bytes parts above (aborted on failure). A single PUT carries
  // `crc32c` (base64, of the whole file) as x-amz-checksum-crc32c when given; a multipart upload
  // goes without (a full-object checksum of parts needs the composite protocol).
  [[nodiscard]] util::Status put_file(const S3Location& object, const std::string& path,
                                      const std::optional<std::string>& crc32c = std::nullopt);
  // Creates the bucket unless it exists.
  [[nodiscard]] util::Status ensure_bucket(const std::string& bucket);

 private:
  S3Config m_config;
  util::NetConfig m_net;
};

// "https://bucket.s3.amazonaws.com": where messages say a bucket lives.
[[nodiscard]] std::string describe_endpoint(const S3Config& config);

}  // namespace moonquota::source
