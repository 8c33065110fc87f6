// The Redis snapshot catalog against a real redis-server (scripts/with-services.sh).
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "source/redis_catalog.hpp"
#include "support/local_store.hpp"
#include "support/master_stand_in_process.hpp"
#include "support/redis_command.hpp"
#include "support/service_env.hpp"

namespace moonquota::source {
namespace {

namespace fs = std::filesystem;

void redis(const std::string& endpoint, const std::vector<std::string>& argv) { test::redis_command(endpoint, argv); }

void write_descriptor(const fs::path& dir) {
  fs::create_directories(dir);
  std::ofstream(dir / "descriptor.txt") << "0|0|1";
}

TEST(RedisCatalog, KeyNamesUseHashTagsAndReplaceBraces) {
  auto keys = redis_catalog_keys("a{b}/", "");
  EXPECT_EQ(keys.latest, "mooncake-store/{a_b_}/snapshot/latest");
  EXPECT_EQ(keys.index, "mooncake-store/{a_b_}/snapshot/index");
  EXPECT_EQ(redis_catalog_keys("", "env-ns").latest, "mooncake-store/{env-ns}/snapshot/latest");
  EXPECT_EQ(redis_catalog_keys("", "").index, "mooncake-store/{mooncake_cluster}/snapshot/index");
}

TEST(RedisCatalog, LatestAndListNewestFirstSkippingInvalidAndDescriptorless) {
  MQ_REQUIRE_SERVICE(endpoint, "REDIS_PORT");
  const fs::path store = fs::temp_directory_path() / ("mq-redis-" + std::to_string(::getpid()));
  fs::remove_all(store);
  const std::string cluster = "redis-test";
  const fs::path root = store / "mooncake_master_snapshot" / cluster;
  write_descriptor(root / "20260101_000000_001");
  write_descriptor(root / "20260102_000000_001");
  fs::create_directories(root / "20260103_000000_001");  // no descriptor
  const auto keys = redis_catalog_keys(cluster, "");
  redis(endpoint, {"DEL", keys.index, keys.latest});
  redis(endpoint, {"ZADD", keys.index, "20260101000000001", "20260101_000000_001", "20260102000000001",
                   "20260102_000000_001", "20260103000000001", "20260103_000000_001", "1", "not-an-id"});
  redis(endpoint, {"SET", keys.latest, " 20260102_000000_001\n"});
  auto listing = read_redis_catalog(test::local_files(), endpoint, store.string(), cluster);
  ASSERT_TRUE(listing.ok()) << listing.status().message();
  EXPECT_EQ(listing->latest.value_or(""), "20260102_000000_001");
  EXPECT_EQ(listing->listed, (std::vector<std::string>{"20260102_000000_001", "20260101_000000_001"}));
  EXPECT_EQ(listing->findings.size(), 2u);
  redis(endpoint, {"SET", keys.latest, "20260103_000000_001"});
  listing = read_redis_catalog(test::local_files(), endpoint, store.string(), cluster);
  ASSERT_TRUE(listing.ok());
  EXPECT_FALSE(listing->latest.has_value());
  EXPECT_NE(listing->latest_error.find("PERSISTENT_FAIL"), std::string::npos);
  redis(endpoint, {"DEL", keys.latest});
  listing = read_redis_catalog(test::local_files(), endpoint, store.string(), cluster);
  ASSERT_TRUE(listing.ok());
  EXPECT_FALSE(listing->latest.has_value());
  EXPECT_TRUE(listing->latest_error.empty());
  fs::remove_all(store);
}

TEST(RedisCatalog, UnreachableIsUnavailable) {
  EXPECT_EQ(read_redis_catalog(test::local_files(), "127.0.0.1:1", "/nonexistent", "c").status().code(),
            util::StatusCode::unavailable);
}

// Issue 11 items 10 and 11: Redis failures in the words of every service client, with the
// --timeout-ms of etcd and the master, each attempt reported on the hook.
TEST(RedisCatalog, RefusedAndSilentRedisAreNamedWithTheTimeoutAndAttempts) {
  util::NetConfig net;
  net.connect_timeout_ms = 300;
  net.read_timeout_ms = 300;
  std::vector<std::string> info;
  net.log = [&info](util::NetLogLevel level, const std::string& m) {
    if (level == util::NetLogLevel::info) info.push_back(m);
  };
  const std::string closed = "127.0.0.1:" + std::to_string(test::unused_loopback_port());
  auto refused = read_redis_catalog(test::local_files(), closed, "/nonexistent", "c", net);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().message(), "Redis " + closed + ": connection refused (after 3 attempts)");
  ASSERT_EQ(info.size(), 6u);
  EXPECT_EQ(info[0], "Redis " + closed + ": attempt 1 of 3");
  EXPECT_EQ(info[1], "Redis " + closed + ": attempt 1 of 3 failed: connection refused; retrying in 100 ms");
  test::SilentListener silent;
  const auto start = std::chrono::steady_clock::now();
  auto timed_out = read_redis_catalog(test::local_files(), silent.host_port(), "/nonexistent", "c", net);
  ASSERT_FALSE(timed_out.ok());
  EXPECT_EQ(timed_out.status().code(), util::StatusCode::unavailable);
  EXPECT_NE(timed_out.status().message().find("timed out after 300 ms waiting for the answer (after 3 attempts)"),
            std::string::npos)
      << timed_out.status().message();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(4));
}

}  // namespace
}  // namespace moonquota::source
