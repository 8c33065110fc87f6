// How the library talks to a service (etcd, Redis, a master's admin port): the timeouts, and a
// logging hook through which every attempt, retry, backoff and request is reported. The library
// never prints: a tool installs the hook (spdlog on stderr) and picks what it shows (-v, -vv).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace moonquota::util {

// Connect and read timeout of every service call unless a tool says otherwise (--timeout-ms).
inline constexpr std::uint32_t k_default_timeout_ms = 5000;

// info: attempts, retries and backoffs (-v); debug: request details, URL, status, bytes, ms (-vv).
enum class NetLogLevel { info, debug };
using NetLog = std::function<void(NetLogLevel, const std::string&)>;

struct NetConfig {
  std::uint32_t connect_timeout_ms = k_default_timeout_ms;
  std::uint32_t read_timeout_ms = k_default_timeout_ms;
  NetLog log;  // may be empty: nothing is reported

  void info(const std::string& message) const {
    if (log) log(NetLogLevel::info, message);
  }
  void debug(const std::string& message) const {
    if (log) log(NetLogLevel::debug, message);
  }
};

// The one wording of a failed attempt, for every service: "<what>: attempt 2 of 3 failed: <error>;
// retrying in 200 ms" (or "; giving up" after the last).
[[nodiscard]] inline std::string attempt_failed(const std::string& what, std::size_t attempt, std::size_t attempts,
                                                const std::string& error, std::uint64_t retry_in_ms) {
  std::string out =
      what + ": attempt " + std::to_string(attempt) + " of " + std::to_string(attempts) + " failed: " + error;
  if (attempt < attempts) return out + "; retrying in " + std::to_string(retry_in_ms) + " ms";
  return out + "; giving up";
}

}  // namespace moonquota::util
