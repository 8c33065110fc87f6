// The strongest check of the write side: forging the state of a store that a real Mooncake
// master wrote (snapshots/genuine/, see its PROVENANCE.md) reproduces that store. Decompressed
// payloads must be identical; since the genuine store was compressed by the same zstd version
// (1.5.4, level 3) as ours, whole files are compared too.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "forge/scenario.hpp"
#include "forge/store_writer.hpp"
#include "forge_test_support.hpp"
#include "format/metadata_encoder.hpp"
#include "format/segments_encoder.hpp"
#include "format/task_manager_encoder.hpp"
#include "support/snapshot_test_support.hpp"
#include "util/text_encoding.hpp"

namespace moonquota::forge {
namespace {

using forge_test::metadata_shard_bins;
using test::read_file;
using test::source_path;
using test::unzstd;
using util::to_hex;

struct GenuineCase {
  const char* name;
  const char* scenario;
  const char* snapshot_id;
};

class GenuineStore : public ::testing::TestWithParam<GenuineCase> {
 protected:
  void SetUp() override {
    auto scenario = load_scenario(source_path(std::string("testdata/forge/") + GetParam().scenario));
    ASSERT_TRUE(scenario.ok()) << scenario.status().to_string();
    m_scenario = std::move(scenario).value();
  }

  std::string genuine_dir() const {
    return source_path(std::string("snapshots/genuine/") + GetParam().name +
                       "/store/mooncake_master_snapshot/mooncake_cluster");
  }

  test::TempDir m_tmp;
  const std::filesystem::path m_out = m_tmp.path() / "store";
  Scenario m_scenario;
};

TEST_P(GenuineStore, DecompressedMetadataShardsAreIdentical) {
  const std::string genuine = read_file(genuine_dir() + "/" + GetParam().snapshot_id + "/metadata");
  const auto genuine_shards = metadata_shard_bins(genuine);
  ASSERT_FALSE(genuine_shards.empty());
  auto ours = format::encode_shards_raw(m_scenario.snapshots.at(0).metadata);
  ASSERT_TRUE(ours.ok()) << ours.status().to_string();
  ASSERT_EQ(ours->size(), genuine_shards.size());
  for (std::size_t i = 0; i < ours->size(); ++i) {
    EXPECT_EQ((*ours)[i].first, genuine_shards[i].first);
    EXPECT_EQ(to_hex((*ours)[i].second), to_hex(unzstd(genuine_shards[i].second))) << "shard " << (*ours)[i].first;
  }
}

TEST_P(GenuineStore, DecompressedSegmentsAndTasksAreIdentical) {
  const std::string dir = genuine_dir() + "/" + GetParam().snapshot_id;
  auto segments = format::encode_segments_raw(m_scenario.snapshots.at(0).segments);
  ASSERT_TRUE(segments.ok()) << segments.status().to_string();
  const std::string genuine_segments = unzstd(read_file(dir + "/segments"));
  ASSERT_EQ(segments->size(), genuine_segments.size());
  EXPECT_TRUE(*segments == genuine_segments)
      << "first difference at byte "
      << std::distance(segments->begin(),
                       std::mismatch(segments->begin(), segments->end(), genuine_segments.begin()).first);
  auto tasks = format::encode_task_manager_raw(m_scenario.snapshots.at(0).tasks);
  ASSERT_TRUE(tasks.ok());
  EXPECT_EQ(to_hex(*tasks), to_hex(unzstd(read_file(dir + "/task_manager"))));
}

TEST_P(GenuineStore, ForgedStoreIsByteIdenticalToTheGenuineOne) {
  ASSERT_TRUE(write_store(m_scenario, m_out.string(), {}).ok());
  const std::string ours = (m_out / "mooncake_master_snapshot/mooncake_cluster").string();
  EXPECT_EQ(read_file(ours + "/latest.txt"), read_file(genuine_dir() + "/latest.txt"));
  for (const char* file : {"metadata", "segments", "task_manager", "manifest.txt", "descriptor.txt"}) {
    const std::string relative = std::string("/") + GetParam().snapshot_id + "/" + file;
    EXPECT_TRUE(read_file(ours + relative) == read_file(genuine_dir() + relative)) << file;
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, GenuineStore,
                         ::testing::Values(GenuineCase{"s7_spec_worked_example", "genuine_s7_spec_worked_example.json",
                                                       "20261129_115155_173"},
                                           GenuineCase{"s1_single_segment_basic",
                                                       "genuine_s1_single_segment_basic.json", "20261129_115140_543"}),
                         [](const ::testing::TestParamInfo<GenuineCase>& param_info) {
                           return std::string(param_info.param.name);
                         });

}  // namespace
}  // namespace moonquota::forge
