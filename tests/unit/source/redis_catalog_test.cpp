// The Redis snapshot catalog against a real redis-server (scripts/with-services.sh).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "source/redis_catalog.hpp"
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
  auto listing = read_redis_catalog(endpoint, store.string(), cluster);
  ASSERT_TRUE(listing.ok()) << listing.status().message();
  EXPECT_EQ(listing->latest.value_or(""), "20260102_000000_001");
  EXPECT_EQ(listing->listed, (std::vector<std::string>{"20260102_000000_001", "20260101_000000_001"}));
  EXPECT_EQ(listing->findings.size(), 2u);
  redis(endpoint, {"SET", keys.latest, "20260103_000000_001"});
  listing = read_redis_catalog(endpoint, store.string(), cluster);
  ASSERT_TRUE(listing.ok());
  EXPECT_FALSE(listing->latest.has_value());
  EXPECT_NE(listing->latest_error.find("PERSISTENT_FAIL"), std::string::npos);
  redis(endpoint, {"DEL", keys.latest});
  listing = read_redis_catalog(endpoint, store.string(), cluster);
  ASSERT_TRUE(listing.ok());
  EXPECT_FALSE(listing->latest.has_value());
  EXPECT_TRUE(listing->latest_error.empty());
  fs::remove_all(store);
}

TEST(RedisCatalog, UnreachableIsUnavailable) {
  EXPECT_EQ(read_redis_catalog("127.0.0.1:1", "/nonexistent", "c").status().code(), util::StatusCode::unavailable);
}

}  // namespace
}  // namespace moonquota::source
