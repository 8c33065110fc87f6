#include "quota/rebuild.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "report/rebuild/rebuild_report.hpp"
#include "source/memory_object_store.hpp"
#include "support/local_store.hpp"
#include "support/snapshot_test_support.hpp"

namespace moonquota::quota {
namespace {

TEST(Capacity, ParsesTheThreeForms) {
  EXPECT_EQ(parse_capacity("auto")->mode, CapacityMode::automatic);
  EXPECT_EQ(parse_capacity("failover")->mode, CapacityMode::failover);
  auto n = parse_capacity("18446744073709551615");
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(n->mode, CapacityMode::fixed_bytes);
  EXPECT_EQ(n->bytes, 18446744073709551615ULL);
}

TEST(Capacity, RejectsAnythingElse) {
  for (const char* bad : {"", "-1", "1GB", "18446744073709551616", " 5", "Auto"}) {
    auto r = parse_capacity(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().code(), util::StatusCode::invalid_argument);
  }
}

TEST(Rebuild, GenuineStoreWithoutPolicyMakesEveryTenantAnOrphan) {
  RebuildRequest request;
  request.selection.store_dir = test::source_path("snapshots/genuine/s1_single_segment_basic/store");
  request.restore.restore_time_ms = 1795953102553;
  auto r = run_rebuild(test::local_files(), request);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->table.rows.size(), 2u);
  for (const auto& row : r->table.rows) {
    EXPECT_TRUE(row.orphan);
    EXPECT_TRUE(row.admission_closed);
    EXPECT_TRUE(row.over_quota);
  }
  EXPECT_EQ(r->table.capacity_bytes, 8388608u);
}

TEST(Rebuild, MissingStoreIsNotFound) {
  RebuildRequest request;
  request.selection.store_dir = "/nonexistent/moonquota/store";
  auto r = run_rebuild(test::local_files(), request);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), util::StatusCode::not_found);
}

// The s7 store with its policy, as quota-rebuild reads it.
RebuildRequest genuine_s7_request() {
  RebuildRequest request;
  request.selection.store_dir = test::source_path(test::k_s7.store);
  request.policy_file = test::source_path("snapshots/genuine/s7_spec_worked_example/policy.yaml");
  request.restore.restore_time_ms = test::k_s7_restore_time_ms;
  return request;
}

std::string json_report(const RebuildResult& result) {
  std::ostringstream out;
  report::render_rebuild(result, report::OutputFormat::json, out);
  return out.str();
}

// Every byte of a restore comes through the store it is handed: the store's files loaded into
// memory rebuild the very report the files do.
TEST(Rebuild, AStoreInMemoryRebuildsTheReportOfItsFiles) {
  const RebuildRequest request = genuine_s7_request();
  source::MemoryObjectStore memory;
  ASSERT_TRUE(memory.load_directory(request.selection.store_dir).ok());
  auto from_files = run_rebuild(test::local_files(), request);
  auto from_memory = run_rebuild(memory, request);
  ASSERT_TRUE(from_files.ok()) << from_files.status().message();
  ASSERT_TRUE(from_memory.ok()) << from_memory.status().message();
  ASSERT_TRUE(from_memory->outcome.state.has_value()) << "the snapshot restores";
  EXPECT_FALSE(from_memory->table.rows.empty());
  EXPECT_EQ(json_report(*from_memory), json_report(*from_files));
}

TEST(Rebuild, ATruncatedPayloadInMemoryRejectsTheCandidateNamingItsKey) {
  const RebuildRequest request = genuine_s7_request();
  source::MemoryObjectStore memory;
  ASSERT_TRUE(memory.load_directory(request.selection.store_dir).ok());
  const std::string key = test::cluster_root(request.selection.store_dir) + "/" + test::k_s7.snapshot_id + "/metadata";
  auto bytes = memory.get(key, 1 << 30);
  ASSERT_TRUE(bytes.ok()) << bytes.status().message();
  memory.put(key, bytes->substr(0, bytes->size() - 1));  // its last shard blob is cut short
  auto result = run_rebuild(memory, request);
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_TRUE(result->starts_empty());
  ASSERT_EQ(result->outcome.attempts.size(), 1u);
  EXPECT_FALSE(result->outcome.attempts[0].restored);
  EXPECT_NE(result->outcome.attempts[0].reason.find(key), std::string::npos) << result->outcome.attempts[0].reason;
  auto files = run_rebuild(test::local_files(), request);
  ASSERT_TRUE(files.ok());
  EXPECT_FALSE(files->starts_empty()) << "the files themselves are untouched";
}

}  // namespace
}  // namespace moonquota::quota
