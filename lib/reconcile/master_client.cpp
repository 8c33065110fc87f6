#include "reconcile/master_client.hpp"

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

MasterClient::MasterClient(MasterAddress address, HttpTimeouts timeouts, std::uint64_t max_body_bytes, util::NetLog log)
    : m_address(std::move(address)), m_max_body_bytes(max_body_bytes) {
  m_net.connect_timeout_ms = timeouts.connect_timeout_ms;
  m_net.read_timeout_ms = timeouts.read_timeout_ms;
  m_net.log = std::move(log);
}

util::Result<HttpAnswer> MasterClient::get(const std::string& path) {
  source::HttpCall call;
  call.host = m_address.host;
  call.port = m_address.port;
  call.path = path;
  call.max_body_bytes = m_max_body_bytes;
  return source::http_call(call, m_net);
}

util::Result<HttpAnswer> MasterClient::request(const std::string& method, const std::string& path,
                                               const std::string& body) {
  source::HttpCall call;
  call.host = m_address.host;
  call.port = m_address.port;
  call.method = method;
  call.path = path;
  call.body = body;
  call.max_body_bytes = m_max_body_bytes;
  return source::http_call(call, m_net);
}

}  // namespace moonquota::reconcile
