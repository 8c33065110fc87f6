#include "service/http_server.hpp"

#include <httplib.h>
#include <sys/socket.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

namespace moonquota::service {

namespace {

// A request body is never read: anything larger than this is refused before it is buffered.
constexpr std::size_t k_max_request_body_bytes = 64 * 1024;

}  // namespace

struct HttpServer::Impl {
  httplib::Server http;
  std::thread thread;
};

util::Result<ListenAddress> parse_listen_address(const std::string& text, const std::string& flag) {
  const auto bad = [&](const std::string& why) {
    return util::Status::invalid_argument(flag + " '" + text + "': " + why +
                                          " (HOST:PORT, e.g. 127.0.0.1:9464, 0.0.0.0:9464 or :9464, [::1]:9464; port 0 "
                                          "picks a free one)");
  };
  const auto colon = text.rfind(':');
  if (colon == std::string::npos) return bad("no port");
  ListenAddress out;
  out.host = text.substr(0, colon);
  const std::string port = text.substr(colon + 1);
  if (out.host.size() >= 2 && out.host.front() == '[' && out.host.back() == ']') {
    out.host = out.host.substr(1, out.host.size() - 2);
  } else if (out.host.find(':') != std::string::npos) {
    return bad("an IPv6 address goes in brackets");
  }
  if (out.host.empty() && colon == 0) out.host = "0.0.0.0";  // ":9464", the common shorthand: every interface
  if (out.host.empty()) return bad("no host");
  if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos) {
    return bad("the port is not a number");
  }
  out.port = std::stoi(port);
  if (out.port > 65535) return bad("the port is above 65535");
  return out;
}

std::string listen_url(const std::string& host, int port) {
  const bool v6 = host.find(':') != std::string::npos;
  return "http://" + (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

HttpServer::HttpServer(std::unique_ptr<Impl> impl, int port) : m_impl(std::move(impl)), m_port(port) {}

HttpServer::~HttpServer() { stop(); }

util::Result<std::unique_ptr<HttpServer>> HttpServer::start(const ListenAddress& address, Handler handler) {
  auto impl = std::make_unique<Impl>();
  // cpp-httplib's default sets SO_REUSEPORT, which would let a second service bind a port that a
  // first one listens on and split its connections: SO_REUSEADDR alone still allows a restart
  // while old connections linger in TIME_WAIT.
  impl->http.set_socket_options([](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  impl->http.Get(".*", [handler = std::move(handler)](const httplib::Request& req, httplib::Response& res) {
    QueryParams query(req.params.begin(), req.params.end());
    HttpAnswer answer = handler(req.path, query);
    res.status = answer.status;
    res.set_content(std::move(answer.body), answer.content_type.c_str());
  });
  // Every endpoint is read-only: another method is 405 with Allow, and its body is not kept.
  const auto not_allowed = [](const httplib::Request& /*req*/, httplib::Response& res) {
    res.status = 405;
    res.set_header("Allow", "GET, HEAD");
    res.set_content("method not allowed: every endpoint answers GET and HEAD\n", "text/plain; charset=utf-8");
  };
  impl->http.Post(".*", not_allowed);
  impl->http.Put(".*", not_allowed);
  impl->http.Patch(".*", not_allowed);
  impl->http.Delete(".*", not_allowed);
  impl->http.Options(".*", not_allowed);
  impl->http.set_payload_max_length(k_max_request_body_bytes);
  errno = 0;
  int port = address.port;
  if (port == 0) {
    port = impl->http.bind_to_any_port(address.host);
  } else if (!impl->http.bind_to_port(address.host, port)) {
    port = -1;
  }
  if (port <= 0) {
    const int error = errno;
    std::string why = error != 0 ? std::strerror(error) : "the host does not resolve to an address here";
    if (error == EADDRINUSE) why += " (another process listens there)";
    return util::Status::unavailable("cannot listen on " + listen_url(address.host, address.port) + ": " + why);
  }
  Impl* raw = impl.get();
  impl->thread = std::thread([raw] { raw->http.listen_after_bind(); });
  // listen_after_bind sets is_running before it accepts; wait for it so that stop() cannot race it.
  while (!raw->http.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return std::unique_ptr<HttpServer>(new HttpServer(std::move(impl), port));
}

void HttpServer::stop() {
  if (!m_impl) return;
  m_impl->http.stop();
  if (m_impl->thread.joinable()) m_impl->thread.join();
  m_impl.reset();
}

}  // namespace moonquota::service
