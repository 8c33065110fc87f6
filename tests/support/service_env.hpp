// Test services (etcd, Redis) started by scripts/with-services.sh on free loopback ports. A test
// that needs one calls MQ_REQUIRE_SERVICE: with CI=true a missing port FAILS the test; otherwise
// the test is skipped with a message.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>

namespace moonquota::test {

// "127.0.0.1:<port>" from `port_variable` (ETCD_PORT, REDIS_PORT), or nothing.
inline std::optional<std::string> service_endpoint(const char* port_variable) {
  const char* port = std::getenv(port_variable);
  if (port == nullptr || *port == '\0') return std::nullopt;
  return std::string("127.0.0.1:") + port;
}

inline bool running_in_ci() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && std::string(ci) == "true";
}

}  // namespace moonquota::test

#define MQ_REQUIRE_SERVICE(var, port_variable)                                                  \
  auto var##_opt = ::moonquota::test::service_endpoint(port_variable);                          \
  if (!var##_opt) {                                                                             \
    if (::moonquota::test::running_in_ci()) FAIL() << port_variable << " is not set (CI=true)"; \
    GTEST_SKIP() << port_variable << " is not set: run under scripts/with-services.sh";         \
  }                                                                                             \
  const std::string var = *var##_opt
