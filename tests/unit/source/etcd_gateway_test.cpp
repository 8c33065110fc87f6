// The etcd gateway, the OpLog etcd source and the policy connector against a real etcd
// (scripts/with-services.sh), never a mock.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include "forge/oplog_forge.hpp"
#include "source/etcd_gateway.hpp"
#include "source/oplog_source.hpp"
#include "source/policy_etcd.hpp"
#include "support/master_stand_in_process.hpp"
#include "support/service_env.hpp"

namespace moonquota::source {
namespace {

EtcdGateway gateway_for(const std::string& endpoint) { return EtcdGateway(*parse_host_port(endpoint, "test")); }

TEST(EtcdGateway, PutGetPagedPrefixRange) {
  MQ_REQUIRE_SERVICE(etcd, "ETCD_PORT");
  EtcdOptions options;
  options.page_keys = 3;  // force several pages
  EtcdGateway gw(*parse_host_port(etcd, "test"), options);
  ASSERT_TRUE(gw.delete_prefix("/gwtest/").ok());
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(gw.put("/gwtest/k" + std::to_string(i), "v" + std::to_string(i)).ok());
  ASSERT_TRUE(gw.put("/gwtest0", "outside").ok());
  ASSERT_TRUE(gw.put("/gwtest/empty", "").ok());
  auto all = gw.range_prefix("/gwtest/", 1 << 20, 1000);
  ASSERT_TRUE(all.ok()) << all.status().message();
  ASSERT_EQ(all->size(), 11u);
  EXPECT_EQ(all->front().key, "/gwtest/empty");
  EXPECT_EQ(all->front().value, "");
  EXPECT_EQ(all->back().value, "v9");
  auto one = gw.get("/gwtest/k3");
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(one->value_or("?"), "v3");
  auto missing = gw.get("/gwtest/none");
  ASSERT_TRUE(missing.ok());
  EXPECT_FALSE(missing->has_value());
  EXPECT_EQ(gw.range_prefix("/gwtest/", 10, 1000).status().code(), util::StatusCode::limit_exceeded);
}

TEST(EtcdGateway, UnreachableIsUnavailable) {
  EtcdOptions options;
  options.attempts = 2;
  options.net.connect_timeout_ms = 1000;
  EtcdGateway gw(HostPort{"127.0.0.1", 1}, options);
  auto r = gw.get("/x");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), util::StatusCode::unavailable);
  EXPECT_EQ(r.status().message(), "etcd POST http://127.0.0.1:1/v3/kv/range: connection refused (after 2 attempts)");
}

// Issue 11 items 10 and 11: a silent etcd times out after --timeout-ms (not 10 s per attempt),
// says so, and reports every attempt and backoff on the hook.
TEST(EtcdGateway, ASilentEtcdTimesOutAfterTheTimeoutAndLogsEveryAttempt) {
  test::SilentListener silent;
  EtcdOptions options;
  options.attempts = 2;
  options.net.connect_timeout_ms = 300;
  options.net.read_timeout_ms = 300;
  std::vector<std::string> info, debug;
  options.net.log = [&](util::NetLogLevel level, const std::string& m) {
    (level == util::NetLogLevel::info ? info : debug).push_back(m);
  };
  EtcdGateway gw(HostPort{"127.0.0.1", silent.port()}, options);
  const auto start = std::chrono::steady_clock::now();
  auto r = gw.get("/x");
  ASSERT_FALSE(r.ok());
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(3));
  const std::string post = "POST http://" + silent.host_port() + "/v3/kv/range";
  EXPECT_EQ(r.status().message(),
            "etcd " + post + ": timed out after 300 ms waiting for the answer (after 2 attempts)");
  ASSERT_EQ(info.size(), 4u);
  EXPECT_EQ(info[0], "etcd " + post + ": attempt 1 of 2");
  EXPECT_EQ(info[1], "etcd " + post +
                         ": attempt 1 of 2 failed: timed out after 300 ms waiting for the answer; "
                         "retrying in 100 ms");
  EXPECT_EQ(info[3], "etcd " + post +
                         ": attempt 2 of 2 failed: timed out after 300 ms waiting for the answer; "
                         "giving up");
  ASSERT_EQ(debug.size(), 2u);
  EXPECT_EQ(debug[0].rfind(post + " -> timed out after 300 ms", 0), 0u) << debug[0];
}

TEST(EtcdGateway, PrefixRangeEnd) {
  EXPECT_EQ(prefix_range_end("/oplog/a/"), "/oplog/a0");
  EXPECT_EQ(prefix_range_end(std::string("a\xff", 2)), "b");
  EXPECT_FALSE(parse_host_port("localhost", "--x").ok());
  EXPECT_FALSE(parse_host_port("h:0", "--x").ok());
  EXPECT_EQ(parse_host_port("127.0.0.1:2379", "--x")->port, 2379);
}

TEST(OpLogEtcdSource, ReadsTheSameKeysAsTheExportFile) {
  MQ_REQUIRE_SERVICE(etcd, "ETCD_PORT");
  forge::SyntheticOpLogOptions options;
  options.cluster_id = "etcd-src-test";
  options.entries = 3000;
  options.entries_per_batch = 100;
  const auto log = forge::synthesize_oplog(options);
  auto gw = gateway_for(etcd);
  // A stale key under the root is replaced with the rest; a key beside the root stays.
  ASSERT_TRUE(gw.put("/oplog/etcd-src-test/batches/99999999999999999999", "stale").ok());
  ASSERT_TRUE(gw.put("/oplog/etcd-src-test-other/x", "kept").ok());
  ASSERT_TRUE(write_oplog_etcd(etcd, "etcd-src-test", log.kvs).ok());
  EXPECT_EQ(gw.get("/oplog/etcd-src-test-other/x")->value_or("?"), "kept");
  auto read = read_oplog_etcd(etcd, "etcd-src-test");
  ASSERT_TRUE(read.ok()) << read.status().message();
  ASSERT_EQ(read->kvs.size(), log.kvs.size());
  for (std::size_t i = 0; i < log.kvs.size(); ++i) {
    EXPECT_EQ(read->kvs[i].key, log.kvs[i].key);
    EXPECT_EQ(read->kvs[i].value, log.kvs[i].value);
  }
}

// Issue 11 item 3: no key under the chosen cluster id: the ids that do hold keys are looked up.
TEST(OpLogEtcdSource, EmptyClusterNamesTheClustersThatHoldKeys) {
  MQ_REQUIRE_SERVICE(etcd, "ETCD_PORT");
  auto gw = gateway_for(etcd);
  ASSERT_TRUE(gw.put("/oplog/-item3-present/durable_prefix", "{}").ok());
  ASSERT_TRUE(gw.put("/oplog/-item3-present/batches/00000000000000000001", "[]").ok());
  auto read = read_oplog_etcd(etcd, "-item3-absent");
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_TRUE(read->kvs.empty());
  ASSERT_FALSE(read->other_clusters.empty());
  EXPECT_EQ(read->other_clusters.front(), "-item3-present");  // '-' sorts first: within the bound
  EXPECT_EQ(std::count(read->other_clusters.begin(), read->other_clusters.end(), "-item3-present"), 1);
  auto present = read_oplog_etcd(etcd, "-item3-present");
  ASSERT_TRUE(present.ok());
  EXPECT_EQ(present->kvs.size(), 2u);
  EXPECT_TRUE(present->other_clusters.empty());  // looked up only when the cluster holds no key
}

TEST(PolicyEtcd, MissingKeyIsEmptyPolicyAndValueIsRead) {
  MQ_REQUIRE_SERVICE(etcd, "ETCD_PORT");
  auto gw = gateway_for(etcd);
  ASSERT_TRUE(gw.delete_prefix("mooncake-store/policy-test/").ok());
  auto missing = read_policy_etcd(etcd, "policy-test");
  ASSERT_TRUE(missing.ok()) << missing.status().message();
  EXPECT_EQ(missing->key, "mooncake-store/policy-test/tenant_quota_policy");
  EXPECT_FALSE(missing->yaml.has_value());
  ASSERT_TRUE(gw.put("mooncake-store/policy-test/tenant_quota_policy", "version: 1\ntenants: []\n").ok());
  auto present = read_policy_etcd(etcd, "policy-test/");
  ASSERT_TRUE(present.ok());
  EXPECT_EQ(present->yaml.value_or(""), "version: 1\ntenants: []\n");
  EXPECT_EQ(policy_etcd_key("bad id").status().code(), util::StatusCode::refused);
  EXPECT_EQ(*policy_etcd_key(""), "mooncake-store/mooncake_cluster/tenant_quota_policy");
}

}  // namespace
}  // namespace moonquota::source
