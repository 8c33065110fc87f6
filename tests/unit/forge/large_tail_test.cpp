// snapshot-forge --large N --oplog-tail M (forge/large_tail): the tail continues the store, so a
// standby promotion of the two succeeds, on the streaming path, with the whole map's result; the
// tail is deterministic; the flag is refused without --large or with 0 entries.
#include "forge/large_tail.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "forge/forge_run.hpp"
#include "restore/promote_path.hpp"
#include "source/oplog_source.hpp"
#include "support/local_store.hpp"
#include "support/snapshot_test_support.hpp"

namespace moonquota::forge {
namespace {

TEST(LargeTail, APromotionOfTheStoreAndItsTailSucceedsOnTheStreamingPath) {
  test::TempDir dir;
  ForgeRequest request;
  request.out_dir = (dir.path() / "store").string();
  request.large = LargeStoreOptions{};
  request.large->objects = 4000;
  request.large->threads = 2;
  request.large_tail = LargeTailOptions{3000, 256};
  auto forged = run_forge(request);
  ASSERT_TRUE(forged.ok()) << forged.status().message();
  ASSERT_TRUE(forged->oplog.has_value());
  EXPECT_EQ(forged->oplog->entries, 3000u);
  const std::string oplog_file = (dir.path() / "oplog.jsonl").string();
  ASSERT_TRUE(source::write_oplog_export_file(oplog_file, forged->oplog->kvs).ok());

  restore::StoreSelection selection;
  selection.store_dir = request.out_dir;
  selection.cluster_id = "mooncake_cluster";
  source::OpLogSelection oplog;
  oplog.file = oplog_file;
  restore::RestoreOptions options;
  options.restore_time_ms = static_cast<std::uint64_t>(k_large_store_created_at_ms);
  options.threads = 2;
  restore::PromoteEngine engine = restore::PromoteEngine::tail_only;
  auto streamed = restore::promote_standby(test::local_files(), selection, oplog, options, {}, &engine);
  ASSERT_TRUE(streamed.ok()) << streamed.status().message();
  EXPECT_EQ(engine, restore::PromoteEngine::streaming);
  EXPECT_TRUE(streamed->bootstrap.loaded) << streamed->bootstrap.failure;
  EXPECT_TRUE(streamed->validation.ok) << streamed->validation.failure;
  EXPECT_EQ(streamed->replay.applied_seq, 3000u);
  // The tail's segment is registered beside the store's (every one a memory segment).
  EXPECT_EQ(streamed->validation.registry_memory_segments, streamed->validation.registry_segments);
  EXPECT_GT(streamed->validation.registry_segments, 1u);

  auto whole = restore::promote_standby_whole_map(test::local_files(), selection, oplog, options, {});
  ASSERT_TRUE(whole.ok()) << whole.status().message();
  EXPECT_EQ(streamed->validation.objects, whole->validation.objects);
  ASSERT_EQ(streamed->validation.tenants.size(), whole->validation.tenants.size());
  for (const auto& [tenant, tally] : whole->validation.tenants) {
    EXPECT_TRUE(streamed->validation.tenants.at(tenant).charged_bytes == tally.charged_bytes) << tenant;
  }
  // New objects, removed ones and re-puts: the promoted master holds neither the snapshot's count
  // nor the snapshot's plus the tail's.
  EXPECT_NE(streamed->validation.objects, streamed->bootstrap.objects_loaded);
}

TEST(LargeTail, IsTheSameForTheSameSeedAndDiffersForAnother) {
  LargeStoreOptions store;
  store.objects = 1000;
  const ForgedOpLog a = continue_large_store(store, {500, 64});
  const ForgedOpLog b = continue_large_store(store, {500, 64});
  store.seed = 2;
  const ForgedOpLog c = continue_large_store(store, {500, 64});
  ASSERT_EQ(a.kvs.size(), b.kvs.size());
  for (std::size_t i = 0; i < a.kvs.size(); ++i) EXPECT_EQ(a.kvs[i].value, b.kvs[i].value);
  EXPECT_EQ(a.entries, 500u);
  bool differs = a.kvs.size() != c.kvs.size();
  for (std::size_t i = 0; !differs && i < a.kvs.size(); ++i) differs = a.kvs[i].value != c.kvs[i].value;
  EXPECT_TRUE(differs);
}

TEST(LargeTail, NeedsLargeAndAtLeastOneEntry) {
  test::TempDir dir;
  ForgeRequest request;
  request.out_dir = (dir.path() / "x").string();
  request.large_tail = LargeTailOptions{10, 1024};
  request.scenario_path = test::source_path("snapshots/sample/scenario.json");
  auto without_large = run_forge(request);
  ASSERT_FALSE(without_large.ok());
  EXPECT_EQ(without_large.status().code(), util::StatusCode::invalid_argument);
  EXPECT_NE(without_large.status().message().find("--oplog-tail needs --large"), std::string::npos);
  request.scenario_path.clear();
  request.large = LargeStoreOptions{};
  request.large->objects = 10;
  request.large_tail->entries = 0;
  auto empty = run_forge(request);
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.status().code(), util::StatusCode::invalid_argument);
  EXPECT_FALSE(std::filesystem::exists(request.out_dir)) << "a refused run writes nothing";
}

}  // namespace
}  // namespace moonquota::forge
