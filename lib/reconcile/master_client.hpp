// A minimal HTTP/1.1 GET client for a master's admin port (source::http_call underneath).
// Only GET is exposed: reconciliation never calls PUT, DELETE or remove_all (live-master-api.md §7).
#pragma once

#include <cstdint>
#include <string>

#include "source/http_call.hpp"
#include "util/net_config.hpp"
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
  std::uint32_t connect_timeout_ms = util::k_default_timeout_ms;
  std::uint32_t read_timeout_ms = util::k_default_timeout_ms;
};

// Largest response body accepted (a 1,000-tenant /metrics is about 400 KB).
inline constexpr std::uint64_t k_default_max_body_bytes = 256ull << 20;

using HttpAnswer = source::HttpReply;

class MasterClient {
 public:
  MasterClient(MasterAddress address, HttpTimeouts timeouts, std::uint64_t max_body_bytes = k_default_max_body_bytes,
               util::NetLog log = {});
  MasterClient(const MasterClient&) = delete;
  MasterClient& operator=(const MasterClient&) = delete;

  // One GET of `path` (e.g. "/metrics"); any HTTP status is an answer. Errors: unavailable for
  // transport failures, naming the cause (source/http_call.hpp: connection refused, timed out
  // after N ms, reset, body truncated at byte N of M); corruption for a body larger than
  // `max_body_bytes` (a bad live response, not retried). Reported at debug on `log`.
  [[nodiscard]] util::Result<HttpAnswer> get(const std::string& path);
  // One request of `method` (GET, PUT, DELETE, POST; `body` sent as JSON with PUT and POST), with
  // get()'s errors. Never retried: a change is sent once.
  [[nodiscard]] util::Result<HttpAnswer> request(const std::string& method, const std::string& path,
                                                 const std::string& body = "");

  [[nodiscard]] const MasterAddress& address() const { return m_address; }

 private:
  MasterAddress m_address;
  std::uint64_t m_max_body_bytes;
  util::NetConfig m_net;
};

}  // namespace moonquota::reconcile
