// The S3 server of scripts/with-services.sh (s3rver on loopback, path-style): tests that need it
// call MQ_REQUIRE_S3, which FAILS under CI=true and skips otherwise when MOONQUOTA_S3_ENDPOINT is
// unset. s3_test_config() gives its settings; export_s3_settings() puts them into the
// MOONCAKE_AWS_* variables that a tool started by the test reads.
#pragma once

#include <gtest/gtest.h>

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <random>
#include <string>

#include "source/s3_config.hpp"
#include "support/service_env.hpp"

namespace moonquota::test {

inline std::string env_or(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? std::string(v) : std::string(fallback);
}

inline source::S3Config s3_test_config(const std::string& endpoint) {
  source::S3Config c;
  c.endpoint = endpoint;
  c.virtual_addressing = false;
  c.use_https = false;
  c.access_key_id = env_or("MOONQUOTA_S3_ACCESS_KEY_ID", "S3RVER");
  c.secret_access_key = env_or("MOONQUOTA_S3_SECRET_ACCESS_KEY", "S3RVER");
  c.credentials_from = "MOONCAKE_AWS_ACCESS_KEY_ID / MOONCAKE_AWS_SECRET_ACCESS_KEY";
  c.max_attempts = 2;
  c.retry_budget_ms = 5000;
  return c;
}

// For tools run by the test (run_tool inherits the environment).
inline void export_s3_settings(const std::string& endpoint) {
  ::setenv("MOONCAKE_AWS_S3_ENDPOINT", endpoint.c_str(), 1);
  ::setenv("MOONCAKE_AWS_USE_VIRTUAL_ADDRESSING", "false", 1);
  ::setenv("MOONCAKE_AWS_ACCESS_KEY_ID", env_or("MOONQUOTA_S3_ACCESS_KEY_ID", "S3RVER").c_str(), 1);
  ::setenv("MOONCAKE_AWS_SECRET_ACCESS_KEY", env_or("MOONQUOTA_S3_SECRET_ACCESS_KEY", "S3RVER").c_str(), 1);
}

// A bucket name no other test (or run) uses.
inline std::string fresh_bucket(const std::string& what) {
  static std::atomic<unsigned> counter{0};
  return "mq-" + what + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + "-" +
         std::to_string(std::random_device{}() % 100000);
}

}  // namespace moonquota::test

#define MQ_REQUIRE_S3(var)                                                                          \
  const std::string var = ::moonquota::test::env_or("MOONQUOTA_S3_ENDPOINT", "");                   \
  if (var.empty()) {                                                                                \
    if (::moonquota::test::running_in_ci()) FAIL() << "MOONQUOTA_S3_ENDPOINT is not set (CI=true)"; \
    GTEST_SKIP() << "MOONQUOTA_S3_ENDPOINT is not set: run under scripts/with-services.sh";         \
  }
