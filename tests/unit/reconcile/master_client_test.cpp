#include "reconcile/master_client.hpp"

#include <gtest/gtest.h>

#include "support/master_stand_in_process.hpp"

namespace moonquota::reconcile {
namespace {

TEST(MasterUrl, AcceptedForms) {
  auto a = parse_master_url("http://127.0.0.1:9003");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->host, "127.0.0.1");
  EXPECT_EQ(a->port, 9003);
  auto b = parse_master_url("master-0.cell:8080/");
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->display, "http://master-0.cell:8080");
  auto c = parse_master_url("http://[::1]:9100");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->host, "::1");
  EXPECT_EQ(c->display, "http://[::1]:9100");
  auto d = parse_master_url("http://localhost");
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->port, 9003) << "the default metrics_port";
}

TEST(MasterUrl, RejectedForms) {
  for (const char* bad : {"https://a:1", "http://a:1/metrics", "http://:1", "http://a:0", "http://a:65536",
                          "http://a:x", "http://[::1", ""}) {
    auto r = parse_master_url(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().code(), util::StatusCode::invalid_argument);
  }
}

TEST(MasterClient, ConnectionRefusedIsUnavailable) {
  auto address = parse_master_url("http://127.0.0.1:" + std::to_string(test::unused_loopback_port()));
  ASSERT_TRUE(address.ok());
  MasterClient client(*address, HttpTimeouts{500, 500});
  auto r = client.get("/metrics");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), util::StatusCode::unavailable);
}

TEST(MasterClient, GetsTheStandInsMetrics) {
  test::StandInProcess stand_in({});
  ASSERT_TRUE(stand_in.running());
  auto address = parse_master_url(stand_in.url());
  ASSERT_TRUE(address.ok());
  MasterClient client(*address, HttpTimeouts{});
  auto r = client.get("/metrics");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->content_type, "text/plain; version=0.0.4");
  EXPECT_NE(r->body.find("mooncake_tenant_quota_charged_bytes{tenant_id=\"alpha\"} 840257"), std::string::npos);
  auto one = client.get("/api/v1/tenant_quotas?tenant_id=%C3%A9quipe");
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(one->status, 200);
  EXPECT_NE(one->body.find("\\u00E9quipe"), std::string::npos) << one->body;
  auto system = client.get("/api/v1/tenant_quotas?tenant_id=_system");
  ASSERT_TRUE(system.ok());
  EXPECT_EQ(system->status, 400);
  auto missing = client.get("/api/v1/tenant_quotas?tenant_id=no-such-tenant");
  ASSERT_TRUE(missing.ok());
  EXPECT_EQ(missing->status, 404);
  EXPECT_NE(missing->body.find("\"error_code\":-704"), std::string::npos) << "error bodies are read too";
}

TEST(MasterClient, AnOversizedBodyIsCutOffAsABadResponse) {
  test::StandInProcess stand_in({});
  ASSERT_TRUE(stand_in.running());
  auto address = parse_master_url(stand_in.url());
  ASSERT_TRUE(address.ok());
  MasterClient small(*address, HttpTimeouts{}, 512);
  auto r = small.get("/metrics");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), util::StatusCode::corruption);
  EXPECT_NE(r.status().message().find("larger than 512 bytes"), std::string::npos) << r.status().message();
  MasterClient enough(*address, HttpTimeouts{}, 1 << 20);
  EXPECT_TRUE(enough.get("/metrics").ok());
}

}  // namespace
}  // namespace moonquota::reconcile
