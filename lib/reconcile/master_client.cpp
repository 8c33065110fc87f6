#include "reconcile/master_client.hpp"

#include <httplib.h>

#include <charconv>

namespace moonquota::reconcile {

util::Result<MasterAddress> parse_master_url(const std::string& url) {
  std::string rest = url;
  if (rest.rfind("https://", 0) == 0) {
    return util::Status::invalid_argument("--master '" + url +
                                          "': https is not supported (the admin port is plain HTTP)");
  }
  if (rest.rfind("http://", 0) == 0) rest = rest.substr(7);
  if (!rest.empty() && rest.back() == '/') rest.pop_back();
  if (rest.empty() || rest.find('/') != std::string::npos) {
    return util::Status::invalid_argument("--master '" + url + "': expected http://HOST[:PORT]");
  }
  MasterAddress out;
  std::string port_text;
  if (rest.front() == '[') {
    auto close = rest.find(']');
    if (close == std::string::npos) return util::Status::invalid_argument("--master '" + url + "': unclosed '['");
    out.host = rest.substr(1, close - 1);
    if (close + 1 < rest.size()) {
      if (rest[close + 1] != ':')
        return util::Status::invalid_argument("--master '" + url + "': expected ':' after ']'");
      port_text = rest.substr(close + 2);
    }
  } else {
    auto colon = rest.rfind(':');
    out.host = rest.substr(0, colon);
    if (colon != std::string::npos) port_text = rest.substr(colon + 1);
  }
  if (out.host.empty()) return util::Status::invalid_argument("--master '" + url + "': no host");
  if (!port_text.empty() || rest.find(':') != std::string::npos) {
    int port = 0;
    auto [ptr, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
    if (port_text.empty() || ec != std::errc() || ptr != port_text.data() + port_text.size() || port < 1 ||
        port > 65535) {
      return util::Status::invalid_argument("--master '" + url + "': bad port '" + port_text + "'");
    }
    out.port = port;
  }
  const bool v6 = out.host.find(':') != std::string::npos;
  out.display = "http://" + (v6 ? "[" + out.host + "]" : out.host) + ":" + std::to_string(out.port);
  return out;
}

namespace {

// httplib's own names ("Connection", "Read") say little to an operator.
std::string describe(httplib::Error e) {
  switch (e) {
    case httplib::Error::Connection: return "connection failed (refused, unreachable or name not resolved)";
    case httplib::Error::ConnectionTimeout: return "connect timed out";
    case httplib::Error::Read: return "read failed (timed out, connection reset or body truncated)";
    case httplib::Error::Write: return "write failed (connection reset)";
    case httplib::Error::Canceled: return "canceled (response body too large)";
    default: return httplib::to_string(e);
  }
}

}  // namespace

struct MasterClient::Impl {
  httplib::Client client;
  Impl(const MasterAddress& a, HttpTimeouts t) : client(a.host, a.port) {
    client.set_connection_timeout(std::chrono::milliseconds(t.connect_timeout_ms));
    client.set_read_timeout(std::chrono::milliseconds(t.read_timeout_ms));
    client.set_write_timeout(std::chrono::milliseconds(t.read_timeout_ms));
    client.set_keep_alive(false);
    client.set_follow_location(false);
  }
};

MasterClient::MasterClient(MasterAddress address, HttpTimeouts timeouts, std::uint64_t max_body_bytes)
    : m_address(std::move(address)),
      m_max_body_bytes(max_body_bytes),
      m_impl(std::make_unique<Impl>(m_address, timeouts)) {}

MasterClient::~MasterClient() = default;

util::Result<HttpAnswer> MasterClient::get(const std::string& path) {
  // The body goes through a receiver so a huge answer is cut off instead of filling memory.
  std::string body;
  bool too_large = false;
  auto res = m_impl->client.Get(path, [&](const char* data, std::size_t length) {
    if (body.size() + length > m_max_body_bytes) {
      too_large = true;
      return false;
    }
    body.append(data, length);
    return true;
  });
  if (too_large) {
    return util::Status::corruption("GET " + m_address.display + path + ": response body larger than " +
                                    std::to_string(m_max_body_bytes) + " bytes");
  }
  if (!res) { return util::Status::unavailable("GET " + m_address.display + path + ": " + describe(res.error())); }
  HttpAnswer answer;
  answer.status = res->status;
  answer.body = std::move(body);
  answer.content_type = res->get_header_value("Content-Type");
  return answer;
}

}  // namespace moonquota::reconcile
