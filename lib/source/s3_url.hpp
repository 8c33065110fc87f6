// s3:// locations and the HTTP URLs that reach them. A store location is "s3://BUCKET" (the keys
// start at the bucket root, where a master writes them) or "s3://BUCKET/PREFIX" (a copy below a
// prefix); "s3://" alone names the configured bucket (MOONCAKE_AWS_BUCKET_NAME). An object key of
// the source::ObjectStore interface is the full URL "s3://BUCKET/KEY", so reports name objects
// the way an operator addresses them.
#pragma once

#include <string>
#include <string_view>

#include "source/s3_config.hpp"
#include "util/status.hpp"

namespace moonquota::source {

inline constexpr std::string_view k_s3_scheme = "s3://";

[[nodiscard]] bool is_s3_url(std::string_view location);

struct S3Location {
  std::string bucket;
  std::string key;  // no leading '/'; may be empty (the bucket root)
};

// Errors: invalid_argument for a URL without a bucket or with a bucket name S3 cannot have.
[[nodiscard]] util::Result<S3Location> parse_s3_url(std::string_view url);

// "s3://BUCKET/KEY".
[[nodiscard]] std::string s3_url(const S3Location& location);

// A store location with its bucket filled in: "s3://" and "s3:///PREFIX" take `default_bucket`
// (an error naming MOONCAKE_AWS_BUCKET_NAME when it is empty); a trailing '/' is dropped.
// Local paths are returned unchanged.
[[nodiscard]] util::Result<std::string> resolve_store_location(const std::string& location,
                                                               const std::string& default_bucket);

// S3's URI encoding of a key (RFC 3986 unreserved bytes kept, '/' kept when `keep_slash`).
[[nodiscard]] std::string s3_uri_encode(std::string_view text, bool keep_slash);

// Whether requests for `bucket` go virtual-hosted ("https://BUCKET.host/KEY"): the setting, except
// for an endpoint that is an IP address or a bucket name with a '.', which only path-style can
// address (the AWS SDK falls back the same way).
[[nodiscard]] bool uses_virtual_host(const S3Config& config, const std::string& bucket);

// The HTTP URL of an object (or of the bucket when `key` is empty), with `query` (already
// encoded, without '?') appended.
[[nodiscard]] std::string s3_request_url(const S3Config& config, const std::string& bucket, const std::string& key,
                                         const std::string& query = {});

}  // namespace moonquota::source
