// Issue 11 item 11: network failures are named (refused, timed out after N ms, body truncated at
// byte N of M), non-2xx answers are described by status and a short excerpt, and every request is
// reported at debug. Real servers on loopback: a closed port, a socket that never answers, and the
// master stand-in with its proxy and truncation knobs.
#include "source/http_call.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <vector>

#include "support/master_stand_in_process.hpp"

namespace moonquota::source {
namespace {

using test::SilentListener;
using test::StandInProcess;

HttpCall get(int port, const std::string& path) {
  HttpCall call;
  call.host = "127.0.0.1";
  call.port = port;
  call.path = path;
  return call;
}

int port_of(const std::string& url) { return std::stoi(url.substr(url.rfind(':') + 1)); }

util::NetConfig quick(std::uint32_t timeout_ms) {
  util::NetConfig net;
  net.connect_timeout_ms = timeout_ms;
  net.read_timeout_ms = timeout_ms;
  return net;
}

TEST(HttpCall, ClosedPortIsConnectionRefused) {
  auto r = http_call(get(test::unused_loopback_port(), "/metrics"), quick(1000));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), util::StatusCode::unavailable);
  EXPECT_NE(r.status().message().find("connection refused"), std::string::npos) << r.status().message();
}

TEST(HttpCall, ASocketThatNeverAnswersTimesOutNamingTheTimeout) {
  SilentListener silent;
  const auto start = std::chrono::steady_clock::now();
  auto r = http_call(get(silent.port(), "/metrics"), quick(300));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), util::StatusCode::unavailable);
  EXPECT_NE(r.status().message().find("timed out after 300 ms waiting for the answer"), std::string::npos)
      << r.status().message();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(3));
}

TEST(HttpCall, ABodyCutShortNamesTheBytes) {
  StandInProcess stand_in({"--truncate-first", "1"});
  ASSERT_TRUE(stand_in.running());
  auto r = http_call(get(port_of(stand_in.url()), "/metrics"), quick(2000));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), util::StatusCode::unavailable);
  EXPECT_NE(r.status().message().find("body truncated at byte "), std::string::npos) << r.status().message();
  EXPECT_NE(r.status().message().find(" of "), std::string::npos) << r.status().message();
}

TEST(HttpCall, AProxyErrorPageIsAnAnswerDescribedByStatusAndTitle) {
  StandInProcess stand_in({"--proxy-error-first", "1"});
  ASSERT_TRUE(stand_in.running());
  auto r = http_call(get(port_of(stand_in.url()), "/api/v1/tenant_quotas"), quick(2000));
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->status, 502);
  const std::string text = describe_http_answer(*r);
  EXPECT_EQ(text.rfind("HTTP 502 Bad Gateway (text/html", 0), 0u) << text;
  EXPECT_NE(text.find("\"502 Proxy Error\""), std::string::npos) << text;
  EXPECT_EQ(text.find("<html"), std::string::npos) << text;
  EXPECT_LT(text.size(), 120u) << text;
}

TEST(HttpCall, EveryRequestIsReportedAtDebugWithUrlStatusBytesAndMs) {
  StandInProcess stand_in({});
  ASSERT_TRUE(stand_in.running());
  std::vector<std::string> debug;
  auto net = quick(2000);
  net.log = [&debug](util::NetLogLevel level, const std::string& m) {
    if (level == util::NetLogLevel::debug) debug.push_back(m);
  };
  auto r = http_call(get(port_of(stand_in.url()), "/metrics"), net);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(debug.size(), 1u);
  const std::string expected =
      "GET " + stand_in.url() + "/metrics -> HTTP 200 OK, " + std::to_string(r->body.size()) + " bytes, ";
  EXPECT_EQ(debug[0].rfind(expected, 0), 0u) << debug[0];
  EXPECT_EQ(debug[0].substr(debug[0].size() - 3), " ms") << debug[0];
}

TEST(HttpCall, BodyExcerptsAreShort) {
  EXPECT_EQ(body_excerpt(std::string(10000, 'x')), std::string(60, 'x') + "...");
  EXPECT_EQ(body_excerpt("  {\"a\":\n 1}  "), "{\\\"a\\\": 1}");
  EXPECT_EQ(body_excerpt("<html><head><title>503 Service Temporarily Unavailable</title></head>"),
            "503 Service Temporarily Unavailable");
  EXPECT_EQ(http_status_text(404), "HTTP 404 Not Found");
  EXPECT_EQ(http_status_text(599, "Odd"), "HTTP 599 Odd");
}

}  // namespace
}  // namespace moonquota::source
