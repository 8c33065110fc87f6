// How the tools reach an S3 bucket, read the way a Mooncake master reads it (upstream
// mooncake-common/src/environ.cpp): MOONCAKE_AWS_* variables, with the standard AWS_* variables
// as the fallback for the credentials and the region. A tool may override each value with a flag
// before it opens the store. The secret never leaves this struct: describe() omits it.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "util/status.hpp"

namespace moonquota::source {

struct S3Config {
  std::string endpoint;  // "host[:port]" or "http[s]://host[:port]"; empty: AWS (s3.<region>.amazonaws.com)
  std::string region = "us-east-1";
  std::string bucket;  // the bucket of "s3://" URLs that name none
  std::string access_key_id;
  std::string secret_access_key;  // never printed
  std::string session_token;      // never printed
  bool virtual_addressing = true;
  bool use_https = true;
  std::string ca_file;  // PEM bundle that verifies the endpoint's certificate (AWS_CA_BUNDLE); empty: the system's
  std::uint32_t connect_timeout_ms = 10000;
  std::uint32_t request_timeout_ms = 30000;
  // Our retry bound (the master's SDK retries too): attempts per request, and a total time
  // budget across them.
  std::uint32_t max_attempts = 6;
  std::uint32_t retry_budget_ms = 120000;
  // Streaming reads of a large object: ranged GETs of `chunk_bytes` each, at most
  // `window_bytes` downloaded ahead of the decoder.
  std::uint64_t chunk_bytes = 8ull << 20;
  std::uint64_t window_bytes = 32ull << 20;
  // Objects larger than this are uploaded in parts (S3's single-PUT limit is 5 GiB).
  std::uint64_t multipart_threshold = 5ull << 30;
  std::uint64_t part_bytes = 64ull << 20;
  // Where the credentials came from, for error hints ("MOONCAKE_AWS_*", "AWS_*", "none").
  std::string credentials_from = "none";
};

// One environment: a variable's value, or nothing when unset.
using EnvLookup = std::function<std::optional<std::string>(const std::string& name)>;

// The process environment.
[[nodiscard]] EnvLookup process_environment();

// `overrides` first (an environment file), then `fallback`.
[[nodiscard]] EnvLookup layered_environment(std::map<std::string, std::string> overrides, EnvLookup fallback);

// The configuration a master with this environment would use. Errors: invalid_argument naming the
// variable whose value does not parse (a boolean or a timeout).
[[nodiscard]] util::Result<S3Config> s3_config_from_environment(const EnvLookup& env);

// An environment file as systemd's EnvironmentFile= and `docker --env-file` read it: NAME=VALUE
// lines, '#' comments, blank lines, an optional "export " prefix, values optionally in single or
// double quotes. Errors: not_found / io_error for the file, invalid_argument naming the line.
[[nodiscard]] util::Result<std::map<std::string, std::string>> read_environment_file(const std::string& path);

// The same rules over text already read; errors name `path` and the line.
[[nodiscard]] util::Result<std::map<std::string, std::string>> parse_environment_text(std::string_view text,
                                                                                      const std::string& path);

// "true"/"false" the way the master reads its booleans (also 1/0, yes/no, on/off; any case).
[[nodiscard]] std::optional<bool> parse_bool_setting(const std::string& text);

// "http://127.0.0.1:9000" / "https://s3.us-east-1.amazonaws.com": the endpoint's origin (scheme
// from use_https unless the endpoint names one).
[[nodiscard]] std::string endpoint_origin(const S3Config& config);

// The settings without secrets, for logs and --help-like output:
// "endpoint http://127.0.0.1:9000, region us-east-1, path-style, credentials from MOONCAKE_AWS_*".
[[nodiscard]] std::string describe(const S3Config& config);

}  // namespace moonquota::source
