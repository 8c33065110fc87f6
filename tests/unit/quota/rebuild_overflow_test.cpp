// The 2^63-1 boundary of a rebuilt tenant charge (quota-semantics.md §5): exactly 2^63-1 is
// served, one more byte makes the master throw and refuse to start.
#include <gtest/gtest.h>

#include <string>

#include "quota/rebuild.hpp"
#include "support/local_store.hpp"
#include "support/snapshot_test_support.hpp"

namespace moonquota::quota {
namespace {

constexpr const char* k_id = "20260822_051200_000";
constexpr std::uint64_t k_int64_max = (std::uint64_t{1} << 63) - 1;

class RebuildOverflow : public ::testing::Test {
 protected:
  void write_store(std::vector<model::ObjectRecord> objects) {
    format::MetadataContent content;
    content.objects = std::move(objects);
    content.replica_next_id = 100;
    const auto root = test::cluster_root(m_tmp.path());
    test::write_snapshot(root, k_id,
                         test::snapshot_files(k_id, content, test::make_segments_payload({{"3-4", "seg-a"}})));
    test::write_file(std::filesystem::path(root) / "latest.txt", k_id);
  }
  util::Result<RebuildResult> rebuild() {
    RebuildRequest request;
    request.selection.store_dir = m_tmp.str();
    request.restore.restore_time_ms = 1800000000000ULL;
    return run_rebuild(test::local_files(), request);
  }
  test::TempDir m_tmp;
};

model::ObjectRecord object(const std::string& key, std::uint64_t size, int replicas = 1) {
  std::vector<model::Replica> r;
  for (int i = 0; i < replicas; ++i) r.push_back(test::memory_replica(static_cast<std::uint64_t>(i + 1), "3-4", size));
  return test::make_object("big", key, size, r);
}

TEST_F(RebuildOverflow, ExactlyTwoToThe63MinusOneIsServed) {
  write_store({object("k", k_int64_max)});
  auto result = rebuild();
  ASSERT_TRUE(result.ok()) << result.status().message();
  ASSERT_EQ(result->table.rows.size(), 1u);
  EXPECT_EQ(result->table.rows[0].tenant_id, "big");
  EXPECT_EQ(result->table.rows[0].charged_bytes, k_int64_max);
  EXPECT_TRUE(result->table.rows[0].orphan);
}

TEST_F(RebuildOverflow, SumAcrossObjectsAtTheLimitIsServed) {
  write_store({object("a", k_int64_max - 10), object("b", 10)});
  auto result = rebuild();
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_EQ(result->table.rows.at(0).charged_bytes, k_int64_max);
}

TEST_F(RebuildOverflow, OneByteMoreIsRefused) {
  write_store({object("a", k_int64_max), object("b", 1)});
  auto result = rebuild();
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), util::StatusCode::refused);
  EXPECT_EQ(result.status().message(),
            "rebuilt tenant quota exceeds 2^63 - 1 bytes: tenant 'big' would be charged 9223372036854775808 bytes; "
            "the master throws std::overflow_error and does not start");
}

TEST_F(RebuildOverflow, ReplicaMultiplicationOverflowIsRefused) {
  write_store({object("k", std::uint64_t{1} << 62, 2)});  // 2 replicas x 2^62 = 2^63
  auto result = rebuild();
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), util::StatusCode::refused);
}

}  // namespace
}  // namespace moonquota::quota
