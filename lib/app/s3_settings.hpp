// How s3:// stores are reached. Each --s3-* flag a tool takes overrides the MOONCAKE_AWS_* variable
// a master reads; --s3-env-file reads the master's own environment file first. There is no flag for
// the secret (a flag would show in `ps`): it comes from the environment or the file.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "source/object_store.hpp"
#include "source/s3_config.hpp"
#include "util/net_config.hpp"
#include "util/status.hpp"

namespace moonquota::app {

// The --s3-* flags as given (nullopt: not given).
struct S3Args {
  std::string env_file;
  std::optional<std::string> endpoint;
  std::optional<std::string> region;
  std::optional<std::string> bucket;
  std::optional<std::string> virtual_addressing;  // true | false
  std::optional<std::string> https;               // true | false
  std::optional<std::string> ca_file;
  std::optional<std::uint32_t> connect_timeout_ms;
  std::optional<std::uint32_t> request_timeout_ms;
  std::optional<std::uint32_t> max_attempts;
  std::optional<std::uint32_t> retry_budget_ms;
  std::optional<std::uint32_t> window_mib;
};

// The settings and the network timeouts (with the caller's logging hook) of the S3 client.
struct S3Settings {
  source::S3Config config;
  util::NetConfig net;
};

// Builds the S3 settings: the environment file, then the process environment, then the flags.
// Errors: invalid_argument (usage) for a value that does not parse or an unreadable --s3-env-file.
[[nodiscard]] util::Result<S3Settings> s3_settings_from_args(const S3Args& args, util::NetLog log);

// A store location with the bucket of "s3://" URLs filled in (in place); local paths unchanged.
[[nodiscard]] util::Status resolve_store_location(std::string& location, const S3Settings& settings);

// The store that holds `location` (resolved): S3 for an s3:// URL, reached with `settings`, else
// the local files.
[[nodiscard]] std::unique_ptr<source::ObjectStore> open_store(const std::string& location, const S3Settings& settings);

}  // namespace moonquota::app
