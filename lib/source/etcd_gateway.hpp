// A small client of etcd's v3 JSON gateway (etcd 3.4, build-notes.md §5): every call is a POST of a
// JSON body to /v3/kv/...; keys and values travel base64-encoded; int64 fields arrive as strings;
// zero-valued fields are omitted. Each call is retried a bounded number of times on transport
// errors and 5xx answers, then reported as Status::unavailable (exit 4) naming what happened
// (source/http_call.hpp). Every attempt, retry and backoff is reported on options.net's hook.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "source/oplog_source.hpp"
#include "util/net_config.hpp"
#include "util/status.hpp"

namespace moonquota::source {

struct HostPort {
  std::string host;
  int port = 0;
};

// "HOST:PORT" with a port 1-65535. Errors: invalid_argument.
[[nodiscard]] util::Result<HostPort> parse_host_port(const std::string& text, const char* flag);

struct EtcdOptions {
  util::NetConfig net;                     // timeouts (--timeout-ms) and the logging hook
  int attempts = 3;                        // per call
  std::uint32_t initial_backoff_ms = 100;  // doubled after each failed attempt
  std::uint32_t page_keys = 256;           // range page size
};

struct RangePage {
  std::vector<KeyValue> kvs;
  bool more = false;
  std::int64_t revision = 0;
};

class EtcdGateway {
 public:
  explicit EtcdGateway(HostPort endpoint, EtcdOptions options = {});

  // The value of `key`, or nothing when it does not exist.
  [[nodiscard]] util::Result<std::optional<std::string>> get(const std::string& key);
  // One page of [key, range_end) in key order, at `revision` (0: current).
  [[nodiscard]] util::Result<RangePage> range(const std::string& key, const std::string& range_end, std::uint32_t limit,
                                              std::int64_t revision);
  // Every key with `prefix`, paged, all pages at the first page's revision. `max_bytes` bounds
  // keys + values (limit_exceeded beyond it).
  [[nodiscard]] util::Result<std::vector<KeyValue>> range_prefix(const std::string& prefix, std::uint64_t max_bytes,
                                                                 std::uint64_t max_keys);
  [[nodiscard]] util::Status put(const std::string& key, const std::string& value);
  [[nodiscard]] util::Status delete_prefix(const std::string& prefix);

  [[nodiscard]] std::string name() const;

 private:
  util::Result<std::string> post(const std::string& path, const std::string& body);

  HostPort m_endpoint;
  EtcdOptions m_options;
};

// The range end of a prefix scan: the prefix with its last byte incremented (0xFF bytes dropped).
[[nodiscard]] std::string prefix_range_end(const std::string& prefix);

}  // namespace moonquota::source
