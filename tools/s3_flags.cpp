#include "s3_flags.hpp"

namespace moonquota::tools {

namespace {

constexpr const char* k_group = "S3 stores (s3://BUCKET[/PREFIX]; defaults from MOONCAKE_AWS_*)";

}  // namespace

void add_s3_flags(CLI::App& app, app::S3Args& f) {
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

}  // namespace moonquota::tools
