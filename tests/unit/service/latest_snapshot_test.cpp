#include "service/latest_snapshot.hpp"

#include <gtest/gtest.h>

#include "source/embedded_catalog.hpp"
#include "source/memory_object_store.hpp"
#include "support/local_store.hpp"
#include "support/snapshot_test_support.hpp"

namespace moonquota::service {
namespace {

// The probe between audits reads latest.txt of the same store: a new pointer is seen at once.
TEST(LatestSnapshot, TheLatestProbeReadsThePointerOfTheStoreItIsHanded) {
  restore::StoreSelection selection;
  selection.store_dir = test::source_path("snapshots/genuine-live/r1_quiescent_orphan/store");
  source::MemoryObjectStore memory;
  ASSERT_TRUE(memory.load_directory(selection.store_dir).ok());
  auto from_files = read_latest_snapshot_id(test::local_files(), selection);
  auto from_memory = read_latest_snapshot_id(memory, selection);
  ASSERT_TRUE(from_files.ok() && from_memory.ok());
  ASSERT_TRUE(from_memory->has_value());
  EXPECT_EQ(*from_memory, *from_files);
  const std::string latest = source::snapshot_root(selection.store_dir, selection.cluster_id) + "latest.txt";
  memory.put(latest, "20991231_235959_999\n");
  EXPECT_EQ(read_latest_snapshot_id(memory, selection)->value_or(""), "20991231_235959_999");
  memory.erase(latest);
  EXPECT_FALSE(read_latest_snapshot_id(memory, selection)->has_value());
}

}  // namespace
}  // namespace moonquota::service
