// The standby bootstrap through the one reader (ReadRules::standby): what it loads from a genuine
// store, and how a failed load is named (once per context, the file first).
#include "restore/standby_loader.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "restore/promotion_validation.hpp"
#include "support/local_store.hpp"
#include "support/snapshot_test_support.hpp"

namespace moonquota::restore {
namespace {

namespace fs = std::filesystem;

class StandbyLoaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    test::copy_genuine_store(test::k_s1, m_dir.path() / "store");
    m_snapshot = test::cluster_root(m_dir.path() / "store") + "/" + std::string(test::k_s1.snapshot_id);
  }
  StandbyBootstrap load(unsigned threads = 2, std::uint64_t now_ms = test::k_s1_restore_time_ms,
                        ChargeModel model = ChargeModel::restore, LeaseModel lease = LeaseModel::upstream) {
    RestoreOptions options;
    options.lease_model = lease;
    options.restore_time_ms = now_ms;
    options.threads = threads;
    options.charge_model = model;
    return load_standby_snapshot(test::local_files(), m_snapshot, test::k_s1.snapshot_id, options, m_store);
  }
  test::TempDir m_dir;
  std::string m_snapshot;
  StandbyStore m_store;
};

TEST_F(StandbyLoaderTest, LoadsTheGenuineStoreWithItsDescriptorsBaseline) {
  const StandbyBootstrap single = load(1);
  ASSERT_TRUE(single.loaded) << single.failure;
  EXPECT_GT(single.objects_loaded, 0u);
  const StandbyBootstrap two = load(2);
  ASSERT_TRUE(two.loaded) << two.failure;
  EXPECT_EQ(two.objects_loaded, single.objects_loaded) << "the thread count changes nothing";
  EXPECT_FALSE(m_store.registry().empty()) << "segments registered from the segments payload";
}

// The live model on the promote path (issue 10): the primary held every object of the snapshot,
// so the bootstrap's lease drop does not apply; the restore model drops them all far in the future.
TEST_F(StandbyLoaderTest, TheLiveModelSkipsTheBootstrapLeaseDrop) {
  const StandbyBootstrap baseline = load();
  ASSERT_TRUE(baseline.loaded) << baseline.failure;
  constexpr std::uint64_t k_year_2200_ms = 7258118400000ULL;
  const StandbyBootstrap restore = load(2, k_year_2200_ms);
  ASSERT_TRUE(restore.loaded) << restore.failure;
  EXPECT_EQ(restore.objects_loaded, 0u);
  EXPECT_EQ(restore.dropped.lease_expired, baseline.objects_loaded);
  const StandbyBootstrap live = load(2, k_year_2200_ms, ChargeModel::live);
  ASSERT_TRUE(live.loaded) << live.failure;
  EXPECT_EQ(live.objects_loaded, baseline.objects_loaded);
  EXPECT_EQ(live.dropped.lease_expired, 0u);
}

// Per tenant: the lease-expired drops at year 2200 are every object, with the bytes the baseline
// bootstrap's promotion charges each tenant (size x COMPLETE MEMORY replicas).
TEST_F(StandbyLoaderTest, PerTenantDropsCarryTheChargeTheObjectsHad) {
  const StandbyBootstrap baseline = load();
  ASSERT_TRUE(baseline.loaded) << baseline.failure;
  EXPECT_TRUE(baseline.tenants.empty()) << "nothing dropped at the real restore time";
  const PromotionValidation charged = validate_promotion(m_store);
  ASSERT_TRUE(charged.ok) << charged.failure;
  constexpr std::uint64_t k_year_2200_ms = 7258118400000ULL;
  const StandbyBootstrap late = load(2, k_year_2200_ms);
  ASSERT_TRUE(late.loaded) << late.failure;
  std::uint64_t objects = 0;
  for (const auto& [tenant, tally] : charged.tenants) {
    if (tally.objects == 0) continue;
    ASSERT_EQ(late.tenants.count(tenant), 1u) << tenant;
    const auto& d = late.tenants.find(tenant)->second;
    EXPECT_EQ(d.objects.lease_expired, tally.objects) << tenant;
    EXPECT_TRUE(d.lease_expired_bytes == tally.charged_bytes) << tenant;
    EXPECT_EQ(d.objects.non_complete + d.objects.size_zero + d.objects.invalid_memory, 0u) << tenant;
    objects += d.objects.lease_expired;
  }
  EXPECT_EQ(objects, late.dropped.lease_expired);
}

// --lease-model keep on the promote path: the bootstrap's lease filter is off, its other filters
// stay (the genuine s1 store has no size-0, non-COMPLETE or invalid-MEMORY object: the baseline).
TEST_F(StandbyLoaderTest, TheKeepLeaseModelSkipsTheBootstrapLeaseDropOnly) {
  const StandbyBootstrap baseline = load();
  ASSERT_TRUE(baseline.loaded) << baseline.failure;
  constexpr std::uint64_t k_year_2200_ms = 7258118400000ULL;
  const StandbyBootstrap keep = load(2, k_year_2200_ms, ChargeModel::restore, LeaseModel::keep);
  ASSERT_TRUE(keep.loaded) << keep.failure;
  EXPECT_EQ(keep.objects_loaded, baseline.objects_loaded);
  EXPECT_EQ(keep.dropped.lease_expired, 0u);
  EXPECT_EQ(keep.dropped.non_complete, baseline.dropped.non_complete);
  EXPECT_EQ(keep.dropped.size_zero, baseline.dropped.size_zero);
  EXPECT_EQ(keep.dropped.invalid_memory, baseline.dropped.invalid_memory);
}

TEST_F(StandbyLoaderTest, AMissingDescriptorFailsTheLoadNamingTheFile) {
  fs::remove(fs::path(m_snapshot) / "descriptor.txt");
  const StandbyBootstrap out = load();
  EXPECT_FALSE(out.loaded);
  EXPECT_EQ(out.failure.rfind("descriptor.txt: ", 0), 0u) << out.failure;
  EXPECT_EQ(out.objects_loaded, 0u);
}

TEST_F(StandbyLoaderTest, TaskManagerIsNeverRead) {
  fs::remove(fs::path(m_snapshot) / "task_manager");
  const StandbyBootstrap out = load();
  EXPECT_TRUE(out.loaded) << out.failure;
}

TEST_F(StandbyLoaderTest, ATruncatedMetadataFailsOnceNamed) {
  const fs::path metadata = fs::path(m_snapshot) / "metadata";
  fs::resize_file(metadata, fs::file_size(metadata) - 7);
  const StandbyBootstrap out = load();
  EXPECT_FALSE(out.loaded);
  EXPECT_TRUE(m_store.registry().empty() && out.objects_loaded == 0) << "a failed load leaves the store empty";
  EXPECT_NE(out.failure.find("metadata"), std::string::npos) << out.failure;
  EXPECT_EQ(out.failure.find("metadata: metadata:"), std::string::npos) << out.failure;
}

}  // namespace
}  // namespace moonquota::restore
