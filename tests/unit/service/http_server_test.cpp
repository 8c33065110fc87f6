// The listen address forms, and the listener itself: a taken port is refused (no SO_REUSEPORT
// sharing), port 0 picks one.
#include "service/http_server.hpp"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <httplib.h>
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
  auto any = parse_listen_address(":9464", "--listen");  // the shorthand for every interface
  ASSERT_TRUE(any.ok());
  EXPECT_EQ(any->host, "0.0.0.0");
  EXPECT_EQ(any->port, 9464);
  for (const char* bad : {"9464", ":", "host:", "host:x", "host:65536", "::1:80", "h:123456"}) {
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

TEST(ServiceHttpServer, MethodsOtherThanGetAndHeadAre405WithAllow) {
  auto server = HttpServer::start({"127.0.0.1", 0}, [](const std::string&, const QueryParams&) {
    return HttpAnswer{200, "text/plain", "ok\n"};
  });
  ASSERT_TRUE(server.ok()) << server.status().message();
  httplib::Client client("127.0.0.1", (*server)->port());
  auto get = client.Get("/metrics");
  ASSERT_TRUE(get);
  EXPECT_EQ(get->status, 200);
  auto head = client.Head("/metrics");
  ASSERT_TRUE(head);
  EXPECT_EQ(head->status, 200);
  auto post = client.Post("/metrics", "x=1", "application/x-www-form-urlencoded");
  ASSERT_TRUE(post);
  EXPECT_EQ(post->status, 405);
  EXPECT_EQ(post->get_header_value("Allow"), "GET, HEAD");
  auto del = client.Delete("/report");
  ASSERT_TRUE(del);
  EXPECT_EQ(del->status, 405);
  // A body larger than any request needs is refused unread (413), not buffered.
  auto big = client.Post("/metrics", std::string(1 << 20, 'x'), "text/plain");
  ASSERT_TRUE(big);
  EXPECT_EQ(big->status, 413);
}

}  // namespace
}  // namespace moonquota::service
