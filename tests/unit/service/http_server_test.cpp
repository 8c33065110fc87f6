// The listen address forms, and the listener itself: a taken port is refused (no SO_REUSEPORT
// sharing), port 0 picks one.
#include "service/http_server.hpp"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace moonquota::service {
namespace {

TEST(ServiceListenAddress, HostPortForms) {
  auto v4 = parse_listen_address("127.0.0.1:9464", "--listen");
  ASSERT_TRUE(v4.ok());
  EXPECT_EQ(v4->host, "127.0.0.1");
  EXPECT_EQ(v4->port, 9464);
  auto v6 = parse_listen_address("[::1]:0", "--listen");
  ASSERT_TRUE(v6.ok());
  EXPECT_EQ(v6->host, "::1");
  EXPECT_EQ(v6->port, 0);
  EXPECT_EQ(listen_url("::1", 80), "http://[::1]:80");
  for (const char* bad : {"9464", ":9464", "host:", "host:x", "host:65536", "::1:80", "h:123456"}) {
    auto parsed = parse_listen_address(bad, "--listen");
    ASSERT_FALSE(parsed.ok()) << bad;
    EXPECT_EQ(parsed.status().code(), util::StatusCode::invalid_argument);
  }
}

TEST(ServiceHttpServer, PortZeroPicksOneAndATakenPortIsUnavailable) {
  auto first = HttpServer::start({"127.0.0.1", 0}, [](const std::string&, const QueryParams&) { return HttpAnswer{}; });
  ASSERT_TRUE(first.ok()) << first.status().message();
  const int port = (*first)->port();
  EXPECT_GT(port, 0);
  auto second =
      HttpServer::start({"127.0.0.1", port}, [](const std::string&, const QueryParams&) { return HttpAnswer{}; });
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), util::StatusCode::unavailable);
  EXPECT_NE(second.status().message().find("cannot listen on http://127.0.0.1:" + std::to_string(port)),
            std::string::npos)
      << second.status().message();
  (*first)->stop();
  (*first)->stop();  // idempotent
}

}  // namespace
}  // namespace moonquota::service
