// A minimal HTTP/1.1 GET client for a master's admin port (cpp-httplib underneath, hidden here).
// Only GET is exposed: reconciliation never calls PUT, DELETE or remove_all (live-master-api.md §7).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "util/status.hpp"

namespace moonquota::reconcile {

struct MasterAddress {
  std::string host;     // as given; IPv6 without brackets
  int port = 9003;      // default metrics_port
  std::string display;  // "http://host:port", for reports
};

// Accepts "http://HOST[:PORT][/]" and "HOST[:PORT]"; IPv6 as "[::1]:9003". Errors:
// invalid_argument (https, a path, a bad port).
[[nodiscard]] util::Result<MasterAddress> parse_master_url(const std::string& url);

struct HttpTimeouts {
  std::uint32_t connect_timeout_ms = 2000;
  std::uint32_t read_timeout_ms = 5000;
};

// Largest response body accepted (a 1,000-tenant /metrics is about 400 KB).
inline constexpr std::uint64_t k_default_max_body_bytes = 256ull << 20;

struct HttpAnswer {
  int status = 0;
  std::string body;
  std::string content_type;
};

class MasterClient {
 public:
  MasterClient(MasterAddress address, HttpTimeouts timeouts, std::uint64_t max_body_bytes = k_default_max_body_bytes);
  ~MasterClient();
  MasterClient(const MasterClient&) = delete;
  MasterClient& operator=(const MasterClient&) = delete;

  // One GET of `path` (e.g. "/metrics"); any HTTP status is an answer. Errors: unavailable for
  // transport failures (connection refused, timeout, reset, truncated body), naming the cause;
  // corruption for a body larger than `max_body_bytes` (a bad live response, not retried).
  [[nodiscard]] util::Result<HttpAnswer> get(const std::string& path);

  [[nodiscard]] const MasterAddress& address() const { return m_address; }

 private:
  struct Impl;
  MasterAddress m_address;
  std::uint64_t m_max_body_bytes;
  std::unique_ptr<Impl> m_impl;
};

}  // namespace moonquota::reconcile
