// select_snapshot: which snapshot an inspection reads, from the embedded or the Redis catalog.
#include "inspect/snapshot_select.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "source/redis_catalog.hpp"
#include "support/local_store.hpp"
#include "support/redis_command.hpp"
#include "support/service_env.hpp"

namespace moonquota::inspect {
namespace {

namespace fs = std::filesystem;

// Two snapshots with descriptors; the embedded latest.txt names the newer one.
fs::path make_store(const std::string& name, const std::string& cluster) {
  const fs::path store = fs::temp_directory_path() / (name + "-" + std::to_string(::getpid()));
  fs::remove_all(store);
  const fs::path root = store / "mooncake_master_snapshot" / cluster;
  for (const char* id : {"20260101_000000_001", "20260102_000000_001"}) {
    fs::create_directories(root / id);
    std::ofstream(root / id / "descriptor.txt") << "0|0|1";
  }
  std::ofstream(root / "latest.txt") << "20260102_000000_001";
  return store;
}

TEST(SnapshotSelect, EmbeddedLatestIsTheFirstCandidate) {
  const fs::path store = make_store("mq-select-embedded", "c1");
  restore::StoreSelection sel;
  sel.store_dir = store.string();
  sel.cluster_id = "c1";
  auto r = select_snapshot(test::local_files(), sel);
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  EXPECT_EQ(r->snapshot_id, "20260102_000000_001");
  EXPECT_TRUE(r->from_catalog_latest);
  fs::remove_all(store);
}

TEST(SnapshotSelect, RedisCatalogWithoutAnAddressIsAUsageError) {
  restore::StoreSelection sel;
  sel.store_dir = "/nonexistent";
  sel.catalog = "redis";
  EXPECT_EQ(select_snapshot(test::local_files(), sel).status().code(), util::StatusCode::invalid_argument);
}

TEST(SnapshotSelect, RedisCatalogLatestWinsOverTheEmbeddedOne) {
  MQ_REQUIRE_SERVICE(endpoint, "REDIS_PORT");
  const std::string cluster = "select-test";
  const fs::path store = make_store("mq-select-redis", cluster);
  const auto keys = source::redis_catalog_keys(cluster, "");
  test::redis_command(endpoint, {"DEL", keys.index, keys.latest});
  test::redis_command(endpoint, {"ZADD", keys.index, "20260101000000001", "20260101_000000_001", "20260102000000001",
                                 "20260102_000000_001"});
  test::redis_command(endpoint, {"SET", keys.latest, "20260101_000000_001"});
  restore::StoreSelection sel;
  sel.store_dir = store.string();
  sel.cluster_id = cluster;
  sel.catalog = "redis";
  sel.redis = endpoint;
  auto r = select_snapshot(test::local_files(), sel);
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  EXPECT_EQ(r->snapshot_id, "20260101_000000_001");  // Redis says so, latest.txt says otherwise
  ASSERT_FALSE(r->candidates.empty());
  EXPECT_EQ(r->candidates.front(), "20260101_000000_001");
  fs::remove_all(store);
}

TEST(SnapshotSelect, RedisDownIsUnavailable) {
  const fs::path store = make_store("mq-select-down", "c2");
  restore::StoreSelection sel;
  sel.store_dir = store.string();
  sel.cluster_id = "c2";
  sel.catalog = "redis";
  sel.redis = "127.0.0.1:1";  // nothing listens on port 1
  EXPECT_EQ(select_snapshot(test::local_files(), sel).status().code(), util::StatusCode::unavailable);
  fs::remove_all(store);
}

}  // namespace
}  // namespace moonquota::inspect
