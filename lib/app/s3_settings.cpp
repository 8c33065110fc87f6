#include "app/s3_settings.hpp"

#include <algorithm>

#include "source/object_store_factory.hpp"
#include "source/s3_url.hpp"

namespace moonquota::app {

namespace {

util::Status read_s3_bool_arg(const std::optional<std::string>& value, const char* flag, bool& out) {
  if (!value) return {};
  const auto parsed = source::parse_bool_setting(*value);
  if (!parsed) return util::Status::invalid_argument(std::string(flag) + " '" + *value + "' is not true or false");
  out = *parsed;
  return {};
}

}  // namespace

util::Result<S3Settings> s3_settings_from_args(const S3Args& a, util::NetLog log) {
  source::EnvLookup env = source::process_environment();
  if (!a.env_file.empty()) {
    auto file = source::read_environment_file(a.env_file);
    if (!file.ok()) return util::Status::invalid_argument("--s3-env-file: " + file.status().message());
    env = source::layered_environment(std::move(file).value(), env);
  }
  auto parsed = source::s3_config_from_environment(env);
  if (!parsed.ok()) return util::Status::invalid_argument(parsed.status().message());
  source::S3Config config = std::move(parsed).value();
  if (!a.env_file.empty() && config.credentials_from.rfind("MOONCAKE_AWS", 0) == 0) {
    config.credentials_from += " (with --s3-env-file " + a.env_file + ")";
  }
  if (a.endpoint) config.endpoint = *a.endpoint;
  if (a.region) config.region = *a.region;
  if (a.ca_file) config.ca_file = *a.ca_file;
  if (a.bucket) config.bucket = *a.bucket;
  MQ_RETURN_IF_ERROR(read_s3_bool_arg(a.virtual_addressing, "--s3-virtual-addressing", config.virtual_addressing));
  MQ_RETURN_IF_ERROR(read_s3_bool_arg(a.https, "--s3-https", config.use_https));
  if (a.connect_timeout_ms) config.connect_timeout_ms = *a.connect_timeout_ms;
  if (a.request_timeout_ms) config.request_timeout_ms = *a.request_timeout_ms;
  if (a.max_attempts) config.max_attempts = *a.max_attempts;
  if (a.retry_budget_ms) config.retry_budget_ms = *a.retry_budget_ms;
  if (a.window_mib) {
    config.window_bytes = std::uint64_t{*a.window_mib} << 20;
    config.chunk_bytes = std::min(config.chunk_bytes, std::max<std::uint64_t>(config.window_bytes / 4, 1 << 20));
  }
  S3Settings settings;
  settings.net.connect_timeout_ms = config.connect_timeout_ms;
  settings.net.read_timeout_ms = config.request_timeout_ms;
  settings.net.log = std::move(log);
  settings.config = std::move(config);
  return settings;
}

util::Status resolve_store_location(std::string& location, const S3Settings& settings) {
  // Local paths come back as given; a near miss of s3:// (S3://, s3:/) is refused there.
  if (location.empty()) return {};
  MQ_ASSIGN_OR_RETURN(location, source::resolve_store_location(location, settings.config.bucket));
  return {};
}

std::unique_ptr<source::ObjectStore> open_store(const std::string& location, const S3Settings& settings) {
  return source::open_object_store(location, settings.config, settings.net);
}

}  // namespace moonquota::app
