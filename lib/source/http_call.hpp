// One HTTP/1.1 request to a service (etcd's JSON gateway, a master's admin port), with cpp-httplib
// hidden here, so every HTTP client of the library names failures the same way:
//   connection refused / host unreachable / name not resolved
//   connect timed out after N ms / timed out after N ms waiting for the answer
//   connection reset or closed before the answer / body truncated at byte N of M
// and reports each request on the NetConfig hook at debug (URL, status, bytes, ms).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "util/net_config.hpp"
#include "util/status.hpp"

namespace moonquota::source {

struct HttpReply {
  int status = 0;
  std::string reason;  // the status line's reason phrase, as sent
  std::string body;
  std::string content_type;
};

struct HttpCall {
  std::string host;  // IPv6 without brackets
  int port = 0;
  std::string method = "GET";  // GET, PUT, DELETE or POST
  std::string path;
  std::string body;  // PUT and POST, sent as application/json
  std::uint64_t max_body_bytes = 256ull << 20;
};

// Any HTTP status is an answer. Errors: unavailable for a transport failure (the wording above);
// corruption for a body larger than `max_body_bytes` (a bad response, not worth retrying).
[[nodiscard]] util::Result<HttpReply> http_call(const HttpCall& call, const util::NetConfig& net);

// "http://HOST:PORT" (IPv6 in brackets).
[[nodiscard]] std::string http_origin(const std::string& host, int port);

// "HTTP 502 Bad Gateway": the status and its standard reason (or `reason` when the code is not
// a common one).
[[nodiscard]] std::string http_status_text(int status, std::string_view reason = {});

// A short excerpt of a body for an error message, never the whole of it: an HTML page's <title>,
// else the first 60 bytes with whitespace runs collapsed and control bytes escaped, cut with "...".
[[nodiscard]] std::string body_excerpt(std::string_view body);

// "HTTP 502 Bad Gateway (text/html, 157 bytes: "<excerpt>")": what a non-2xx answer said.
[[nodiscard]] std::string describe_http_answer(const HttpReply& reply);

}  // namespace moonquota::source
