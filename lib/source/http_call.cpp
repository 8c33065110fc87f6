#include "source/http_call.hpp"

#include <fcntl.h>
#include <httplib.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include "util/elapsed.hpp"

namespace moonquota::source {

namespace {

using Clock = std::chrono::steady_clock;
using util::ms_since;

const char* standard_reason(int status) {
  switch (status) {
    case 200: return "OK";
    case 204: return "No Content";
    case 301: return "Moved Permanently";
    case 302: return "Found";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 409: return "Conflict";
    case 429: return "Too Many Requests";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    default: return nullptr;
  }
}

// httplib says only "Connection" for a failed connect: connect once more by hand to learn why
// (refused, unreachable, name not resolved). Only on the failure path, so a refused port costs
// one extra SYN.
std::string why_connect_failed(const std::string& host, int port, std::uint32_t timeout_ms) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found) != 0 || found == nullptr) {
    return "name not resolved";
  }
  int err = 0;
  for (addrinfo* a = found; a != nullptr; a = a->ai_next) {
    const int fd = socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) {
      err = errno;
      continue;
    }
    err = connect(fd, a->ai_addr, a->ai_addrlen) == 0 ? 0 : errno;
    if (err == EINPROGRESS) {
      pollfd p{fd, POLLOUT, 0};
      const int ready = poll(&p, 1, static_cast<int>(timeout_ms));
      socklen_t len = sizeof(err);
      if (ready <= 0) {
        err = ETIMEDOUT;
      } else if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0) {
        err = errno;
      }
    }
    close(fd);
    if (err == 0) break;
  }
  freeaddrinfo(found);
  switch (err) {
    case 0: return "connection failed (it accepted a second try)";
    case ECONNREFUSED: return "connection refused";
    case ETIMEDOUT: return "connect timed out after " + std::to_string(timeout_ms) + " ms";
    case EHOSTUNREACH:
    case ENETUNREACH: return "host unreachable";
    default: return std::string("connection failed: ") + std::strerror(err);
  }
}

}  // namespace

std::string http_origin(const std::string& host, int port) {
  const bool v6 = host.find(':') != std::string::npos;
  return "http://" + (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

std::string http_status_text(int status, std::string_view reason) {
  const char* standard = standard_reason(status);
  std::string out = "HTTP " + std::to_string(status);
  if (standard != nullptr) return out + " " + standard;
  if (!reason.empty()) return out + " " + body_excerpt(reason);
  return out;
}

std::string body_excerpt(std::string_view body) {
  constexpr std::size_t k_max_excerpt_bytes = 60;
  std::string_view text = body.substr(0, 4096);
  bool titled = false;
  // An HTML error page (a proxy's 502): its title says it all.
  if (auto open = text.find("<title>"); open != std::string_view::npos) {
    auto close = text.find("</title>", open);
    if (close != std::string_view::npos) {
      text = text.substr(open + 7, close - open - 7);
      titled = true;
    }
  }
  auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  std::string out;
  bool space = false;
  std::size_t i = 0;
  for (; i < text.size() && out.size() < k_max_excerpt_bytes; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (is_space(text[i])) {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c == 0x7f) {
      static constexpr const char* k_hex = "0123456789abcdef";
      out += "\\x";
      out += k_hex[c >> 4];
      out += k_hex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  while (i < text.size() && is_space(text[i])) ++i;
  const bool cut = i < text.size() || (!titled && body.size() > text.size());
  return out + (cut ? "..." : "");
}

std::string describe_http_answer(const HttpReply& reply) {
  std::string out = http_status_text(reply.status, reply.reason) + " (";
  if (!reply.content_type.empty()) out += body_excerpt(reply.content_type) + ", ";
  out += std::to_string(reply.body.size()) + " bytes";
  if (!reply.body.empty()) out += ": \"" + body_excerpt(reply.body) + "\"";
  return out + ")";
}

util::Result<HttpReply> http_call(const HttpCall& call, const util::NetConfig& net) {
  const std::string url = http_origin(call.host, call.port) + call.path;
  httplib::Client client(call.host, call.port);
  client.set_connection_timeout(std::chrono::milliseconds(net.connect_timeout_ms));
  client.set_read_timeout(std::chrono::milliseconds(net.read_timeout_ms));
  client.set_write_timeout(std::chrono::milliseconds(net.read_timeout_ms));
  client.set_keep_alive(false);
  client.set_follow_location(false);

  HttpReply reply;
  bool headers = false;
  std::uint64_t expected_bytes = 0;  // Content-Length, 0 when not given
  bool too_large = false;
  auto last_progress = Clock::now();
  const auto start = last_progress;
  httplib::Request req;
  req.method = call.method;
  req.path = call.path;
  if (call.method == "POST" || call.method == "PUT") {
    req.body = call.body;
    req.set_header("Content-Type", "application/json");
  }
  req.response_handler = [&](const httplib::Response& res) {
    headers = true;
    last_progress = Clock::now();
    reply.status = res.status;
    reply.reason = res.reason;
    reply.content_type = res.get_header_value("Content-Type");
    const std::string length = res.get_header_value("Content-Length");
    if (!length.empty()) expected_bytes = std::strtoull(length.c_str(), nullptr, 10);
    return true;
  };
  req.content_receiver = [&](const char* data, std::size_t length, std::uint64_t, std::uint64_t) {
    last_progress = Clock::now();
    if (reply.body.size() + length > call.max_body_bytes) {
      too_large = true;
      return false;
    }
    reply.body.append(data, length);
    return true;
  };
  httplib::Response res;
  httplib::Error error = httplib::Error::Success;
  const bool sent = client.send(req, res, error);
  const std::uint64_t took_ms = ms_since(start);
  if (too_large) {
    net.debug(call.method + " " + url + " -> body above " + std::to_string(call.max_body_bytes) + " bytes, " +
              std::to_string(took_ms) + " ms");
    return util::Status::corruption(call.method + " " + url + ": response body larger than " +
                                    std::to_string(call.max_body_bytes) + " bytes");
  }
  if (sent && error == httplib::Error::Success) {
    if (!headers) {  // no receiver call (e.g. an empty body): take the status from the response
      reply.status = res.status;
      reply.reason = res.reason;
      reply.content_type = res.get_header_value("Content-Type");
    }
    net.debug(call.method + " " + url + " -> " + http_status_text(reply.status, reply.reason) + ", " +
              std::to_string(reply.body.size()) + " bytes, " + std::to_string(took_ms) + " ms");
    return reply;
  }
  std::string what;
  const bool stalled = ms_since(last_progress) + 50 >= net.read_timeout_ms;
  switch (error) {
    case httplib::Error::ConnectionTimeout:
      what = "connect timed out after " + std::to_string(net.connect_timeout_ms) + " ms";
      break;
    case httplib::Error::Connection: what = why_connect_failed(call.host, call.port, net.connect_timeout_ms); break;
    case httplib::Error::Write: what = "connection reset while sending the request"; break;
    default:
      if (!headers) {
        what = stalled ? "timed out after " + std::to_string(net.read_timeout_ms) + " ms waiting for the answer"
                       : "connection reset or closed before the answer";
      } else {
        const std::string at = "at byte " + std::to_string(reply.body.size()) +
                               (expected_bytes > 0 ? " of " + std::to_string(expected_bytes) : std::string());
        what = stalled ? "timed out after " + std::to_string(net.read_timeout_ms) + " ms reading the body (" + at +
                             ", " + http_status_text(reply.status, reply.reason) + ")"
                       : "body truncated " + at + " (" + http_status_text(reply.status, reply.reason) +
                             ", connection closed)";
      }
      break;
  }
  net.debug(call.method + " " + url + " -> " + what + ", " + std::to_string(reply.body.size()) + " bytes, " +
            std::to_string(took_ms) + " ms");
  return util::Status::unavailable(call.method + " " + url + ": " + what);
}

}  // namespace moonquota::source
