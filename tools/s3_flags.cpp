#include "s3_flags.hpp"

#include "source/object_store_factory.hpp"
#include "source/s3_config.hpp"
#include "source/s3_url.hpp"
#include "tool_common.hpp"

namespace moonquota::tools {

namespace {

constexpr const char* k_group = "S3 stores (s3://BUCKET[/PREFIX]; defaults from MOONCAKE_AWS_*)";

util::Status read_bool_flag(const std::optional<std::string>& value, const char* flag, bool& out) {
  if (!value) return {};
  const auto parsed = source::parse_bool_setting(*value);
  if (!parsed) return util::Status::invalid_argument(std::string(flag) + " '" + *value + "' is not true or false");
  out = *parsed;
  return {};
}

}  // namespace

void add_s3_flags(CLI::App& app, S3Flags& f) {
  app.add_option("--s3-env-file", f.env_file,
                 "Read MOONCAKE_AWS_* from this environment file (the master's), before the process environment")
      ->group(k_group);
  app.add_option("--s3-endpoint", f.endpoint, "HOST[:PORT] or http[s]://HOST[:PORT] (MOONCAKE_AWS_S3_ENDPOINT)")
      ->group(k_group);
  app.add_option("--s3-region", f.region, "Region (MOONCAKE_AWS_REGION, else AWS_REGION; default us-east-1)")
      ->group(k_group);
  app.add_option("--s3-bucket", f.bucket, "Bucket of s3:// URLs that name none (MOONCAKE_AWS_BUCKET_NAME)")
      ->group(k_group);
  app.add_option("--s3-virtual-addressing", f.virtual_addressing,
                 "true | false: BUCKET.host URLs (MOONCAKE_AWS_USE_VIRTUAL_ADDRESSING, default true)")
      ->group(k_group);
  app.add_option("--s3-https", f.https, "true | false (MOONCAKE_AWS_USE_HTTPS, default true)")->group(k_group);
  app.add_option("--s3-ca-file", f.ca_file,
                 "PEM bundle that verifies the endpoint's certificate (AWS_CA_BUNDLE; default: the system's)")
      ->check(CLI::ExistingFile)
      ->group(k_group);
  app.add_option("--s3-connect-timeout-ms", f.connect_timeout_ms,
                 "Connect timeout (MOONCAKE_AWS_CONNECT_TIMEOUT_MS, default 10000)")
      ->check(CLI::Range(1u, 600000u))
      ->group(k_group);
  app.add_option("--s3-request-timeout-ms", f.request_timeout_ms,
                 "Longest wait for data within a request (MOONCAKE_AWS_REQUEST_TIMEOUT_MS, default 30000)")
      ->check(CLI::Range(1u, 600000u))
      ->group(k_group);
  app.add_option("--s3-max-attempts", f.max_attempts, "Attempts per request before giving up (default 6)")
      ->check(CLI::Range(1u, 100u))
      ->group(k_group);
  app.add_option("--s3-retry-budget-ms", f.retry_budget_ms, "Longest time spent retrying one request (default 120000)")
      ->check(CLI::Range(1u, 3600000u))
      ->group(k_group);
  app.add_option("--s3-window-mib", f.window_mib,
                 "Download window of a streamed object: MiB fetched ahead of the decoder (default 32)")
      ->check(CLI::Range(1u, 4096u))
      ->group(k_group);
}

util::Result<S3Settings> s3_settings_from_flags(const S3Flags& f) {
  source::EnvLookup env = source::process_environment();
  if (!f.env_file.empty()) {
    auto file = source::read_environment_file(f.env_file);
    if (!file.ok()) return util::Status::invalid_argument("--s3-env-file: " + file.status().message());
    env = source::layered_environment(std::move(file).value(), env);
  }
  auto parsed = source::s3_config_from_environment(env);
  if (!parsed.ok()) return util::Status::invalid_argument(parsed.status().message());
  source::S3Config config = std::move(parsed).value();
  if (!f.env_file.empty() && config.credentials_from.rfind("MOONCAKE_AWS", 0) == 0) {
    config.credentials_from += " (with --s3-env-file " + f.env_file + ")";
  }
  if (f.endpoint) config.endpoint = *f.endpoint;
  if (f.region) config.region = *f.region;
  if (f.ca_file) config.ca_file = *f.ca_file;
  if (f.bucket) config.bucket = *f.bucket;
  MQ_RETURN_IF_ERROR(read_bool_flag(f.virtual_addressing, "--s3-virtual-addressing", config.virtual_addressing));
  MQ_RETURN_IF_ERROR(read_bool_flag(f.https, "--s3-https", config.use_https));
  if (f.connect_timeout_ms) config.connect_timeout_ms = *f.connect_timeout_ms;
  if (f.request_timeout_ms) config.request_timeout_ms = *f.request_timeout_ms;
  if (f.max_attempts) config.max_attempts = *f.max_attempts;
  if (f.retry_budget_ms) config.retry_budget_ms = *f.retry_budget_ms;
  if (f.window_mib) {
    config.window_bytes = std::uint64_t{*f.window_mib} << 20;
    config.chunk_bytes = std::min(config.chunk_bytes, std::max<std::uint64_t>(config.window_bytes / 4, 1 << 20));
  }
  S3Settings settings;
  settings.net.connect_timeout_ms = config.connect_timeout_ms;
  settings.net.read_timeout_ms = config.request_timeout_ms;
  settings.net.log = net_log();
  settings.config = std::move(config);
  return settings;
}

util::Status resolve_store_location(std::string& location, const S3Settings& settings) {
  if (location.empty() || !source::is_s3_url(location)) return {};
  auto resolved = source::resolve_store_location(location, settings.config.bucket);
  if (!resolved.ok()) return resolved.status();
  location = std::move(resolved).value();
  return {};
}

std::unique_ptr<source::ObjectStore> open_store(const std::string& location, const S3Settings& settings) {
  return source::open_object_store(location, settings.config, settings.net);
}

}  // namespace moonquota::tools
