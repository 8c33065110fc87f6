// The HTTP listener of `quota-reconcile serve` (the one file of lib/ that includes cpp-httplib).
// GET requests go to one handler with the path and the decoded query; the handler's answer is
// sent as is. Serves from a thread of its own between start() and stop().
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "service/endpoints.hpp"
#include "util/status.hpp"

namespace moonquota::service {

struct ListenAddress {
  std::string host;  // as given, without the brackets of an IPv6 address
  int port = 0;      // 0: any free port
};

// "HOST:PORT" ("127.0.0.1:9464", "0.0.0.0:9464", "[::1]:9464", "localhost:0"). Errors:
// invalid_argument naming `flag` (no port, a port outside 0..65535, an empty host).
[[nodiscard]] util::Result<ListenAddress> parse_listen_address(const std::string& text, const std::string& flag);

// "http://HOST:PORT" (an IPv6 host in brackets).
[[nodiscard]] std::string listen_url(const std::string& host, int port);

class HttpServer {
 public:
  using Handler = std::function<HttpAnswer(const std::string& path, const QueryParams& query)>;

  // Binds (the port is not shared: no SO_REUSEPORT, so a taken port fails here) and starts serving.
  // Errors: unavailable naming the address and the system's reason.
  [[nodiscard]] static util::Result<std::unique_ptr<HttpServer>> start(const ListenAddress& address, Handler handler);
  ~HttpServer();  // stop()s
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  [[nodiscard]] int port() const { return m_port; }  // the bound port (the chosen one for port 0)
  // Stops accepting and waits for the serving thread. Idempotent.
  void stop();

 private:
  struct Impl;
  explicit HttpServer(std::unique_ptr<Impl> impl, int port);
  std::unique_ptr<Impl> m_impl;
  int m_port = 0;
};

}  // namespace moonquota::service
