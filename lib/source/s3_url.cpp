#include "source/s3_url.hpp"

#include <algorithm>
#include <cctype>

namespace moonquota::source {

namespace {

// S3 bucket names: 3 to 63 of lowercase letters, digits, '.', '-' (and, for old buckets and
// MinIO/Ceph, uppercase and '_'), never a '/' or whitespace.
bool plausible_bucket(std::string_view name) {
  if (name.empty() || name.size() > 255) return false;
  return std::all_of(name.begin(), name.end(),
                     [](unsigned char c) { return std::isalnum(c) != 0 || c == '.' || c == '-' || c == '_'; });
}

// "host[:port]" of an origin "scheme://host[:port]".
std::string_view origin_host(std::string_view origin) {
  const auto scheme_end = origin.find("://");
  std::string_view host = scheme_end == std::string_view::npos ? origin : origin.substr(scheme_end + 3);
  return host.substr(0, host.find('/'));
}

bool is_ip_literal(std::string_view host_port) {
  if (!host_port.empty() && host_port.front() == '[') return true;  // IPv6
  const std::string_view host = host_port.substr(0, host_port.find(':'));
  return !host.empty() &&
         std::all_of(host.begin(), host.end(), [](unsigned char c) { return std::isdigit(c) != 0 || c == '.'; });
}

}  // namespace

bool is_s3_url(std::string_view location) { return location.substr(0, k_s3_scheme.size()) == k_s3_scheme; }

util::Result<S3Location> parse_s3_url(std::string_view url) {
  if (!is_s3_url(url)) return util::Status::invalid_argument("'" + std::string(url) + "' is not an s3:// URL");
  std::string_view rest = url.substr(k_s3_scheme.size());
  const auto slash = rest.find('/');
  S3Location out;
  out.bucket = std::string(rest.substr(0, slash));
  if (slash != std::string_view::npos) out.key = std::string(rest.substr(slash + 1));
  if (out.bucket.empty()) {
    return util::Status::invalid_argument("'" + std::string(url) + "' names no bucket (s3://BUCKET[/PREFIX])");
  }
  if (!plausible_bucket(out.bucket)) {
    return util::Status::invalid_argument("'" + std::string(url) + "': '" + out.bucket + "' is not a bucket name");
  }
  return out;
}

std::string s3_url(const S3Location& location) {
  return std::string(k_s3_scheme) + location.bucket + "/" + location.key;
}

util::Result<std::string> resolve_store_location(const std::string& location, const std::string& default_bucket) {
  // "S3://b/p", "s3:/b/p", "s3:b": meant as S3, read as a local path they would only be missing.
  if (!is_s3_url(location) && location.size() >= 3 && (location[0] == 's' || location[0] == 'S') &&
      location[1] == '3' && location[2] == ':') {
    return util::Status::invalid_argument("'" + location +
                                          "' is neither a local path nor an S3 URL: an S3 location is written "
                                          "s3://BUCKET/PREFIX (lower case, two slashes)");
  }
  if (!is_s3_url(location)) return location;
  std::string url = location;
  if (url.size() == k_s3_scheme.size() || url[k_s3_scheme.size()] == '/') {
    if (default_bucket.empty()) {
      return util::Status::invalid_argument("'" + location +
                                            "' names no bucket and MOONCAKE_AWS_BUCKET_NAME (--s3-bucket) is not set");
    }
    url = std::string(k_s3_scheme) + default_bucket + url.substr(k_s3_scheme.size());
  }
  while (url.size() > k_s3_scheme.size() && url.back() == '/') url.pop_back();
  if (auto parsed = parse_s3_url(url); !parsed.ok()) return parsed.status();
  return url;
}

std::string s3_uri_encode(std::string_view text, bool keep_slash) {
  static constexpr char k_hex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (unsigned char c : text) {
    if (std::isalnum(c) != 0 || c == '-' || c == '_' || c == '.' || c == '~' || (keep_slash && c == '/')) {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(k_hex[c >> 4]);
      out.push_back(k_hex[c & 15]);
    }
  }
  return out;
}

bool uses_virtual_host(const S3Config& config, const std::string& bucket) {
  if (!config.virtual_addressing) return false;
  if (bucket.find('.') != std::string::npos) return false;
  return !is_ip_literal(origin_host(endpoint_origin(config)));
}

std::string s3_request_url(const S3Config& config, const std::string& bucket, const std::string& key,
                           const std::string& query) {
  const std::string origin = endpoint_origin(config);
  std::string url;
  if (uses_virtual_host(config, bucket)) {
    const auto host_at = origin.find("://") + 3;
    url = origin.substr(0, host_at) + bucket + "." + origin.substr(host_at) + "/" + s3_uri_encode(key, true);
  } else {
    url = origin + "/" + bucket;
    if (!key.empty()) url += "/" + s3_uri_encode(key, true);
  }
  if (!query.empty()) url += "?" + query;
  return url;
}

}  // namespace moonquota::source
