#include "forge/store_writer.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "forge/scenario.hpp"
#include "support/snapshot_test_support.hpp"
#include "util/text_encoding.hpp"

namespace moonquota::forge {
namespace {

namespace fs = std::filesystem;
using test::read_file;
using test::source_path;
using util::to_hex;

class StoreWriter : public ::testing::Test {
 protected:
  test::TempDir m_tmp;
  const fs::path m_out = m_tmp.path() / "store";
};

// §14.7: an empty snapshot is exactly the minimal fixtures.
TEST_F(StoreWriter, EmptySnapshotIsTheSpecMinimalFixture) {
  auto scenario = parse_scenario(R"({"snapshots":[{"id":"20260822_051200_123","latest":true}]})");
  ASSERT_TRUE(scenario.ok());
  ASSERT_TRUE(write_store(*scenario, m_out.string(), {}).ok());
  const std::string dir = (m_out / "mooncake_master_snapshot/mooncake_cluster").string();
  const std::string snap = dir + "/20260822_051200_123/";
  EXPECT_EQ(to_hex(read_file(snap + "metadata")),
            "83a673686172647380b26469736361726465645f7265706c6963617390af7265706c6963615f6e6578745f696401");
  EXPECT_EQ(to_hex(read_file(snap + "segments")), "28b52ffd2015a9000085a26d6101a2616e90a26d7380a2637380a26c6480");
  EXPECT_EQ(to_hex(read_file(snap + "task_manager")), "28b52ffd200109000090");
  EXPECT_EQ(read_file(snap + "manifest.txt"), "messagepack|1.0.0|20260822_051200_123");
  EXPECT_EQ(read_file(snap + "descriptor.txt"), "0|0|1787375520123");
  EXPECT_EQ(read_file(dir + "/latest.txt"), "20260822_051200_123");
}

TEST_F(StoreWriter, RefusesANonEmptyOutputUnlessForced) {
  auto scenario = parse_scenario(R"({"cluster_id":"","snapshots":[{"id":"20260822_051200_123","published":false}]})");
  ASSERT_TRUE(scenario.ok());
  ASSERT_TRUE(write_store(*scenario, m_out.string(), {}).ok());
  // Empty cluster id: no cluster level; unpublished: no descriptor; no latest.
  EXPECT_TRUE(fs::exists(m_out / "mooncake_master_snapshot/20260822_051200_123/metadata"));
  EXPECT_FALSE(fs::exists(m_out / "mooncake_master_snapshot/20260822_051200_123/descriptor.txt"));
  EXPECT_FALSE(fs::exists(m_out / "mooncake_master_snapshot/latest.txt"));
  auto again = write_store(*scenario, m_out.string(), {});
  ASSERT_FALSE(again.ok());
  EXPECT_NE(again.message().find("not empty"), std::string::npos);
  StoreWriteOptions force;
  force.force = true;
  EXPECT_TRUE(write_store(*scenario, m_out.string(), force).ok());
}

// The committed golden stores are what their committed scenarios forge to (regenerate with
// snapshot-forge ... --force when the scenario changes).
TEST_F(StoreWriter, CommittedGoldenStoresMatchTheirScenarios) {
  for (const char* name : {"spec-worked-example", "quota-worked-example", "sample"}) {
    auto scenario = load_scenario(source_path(std::string("snapshots/") + name + "/scenario.json"));
    ASSERT_TRUE(scenario.ok()) << scenario.status().to_string();
    const fs::path out = m_out / name;
    ASSERT_TRUE(write_store(*scenario, out.string(), {}).ok());
    const fs::path golden = source_path(std::string("snapshots/") + name + "/store");
    std::size_t files = 0;
    for (const auto& entry : fs::recursive_directory_iterator(golden)) {
      if (!entry.is_regular_file()) continue;
      const fs::path relative = fs::relative(entry.path(), golden);
      EXPECT_TRUE(read_file(entry.path().string()) == read_file((out / relative).string())) << name << "/" << relative;
      ++files;
    }
    EXPECT_EQ(files, 6u) << name;
  }
}

// §14.4: with the same zstd (1.5.4) the whole metadata file equals the spec's 197 bytes.
TEST_F(StoreWriter, SpecWorkedExampleMetadataFileEqualsSection14_4) {
  const std::string file = read_file(source_path(
      "snapshots/spec-worked-example/store/mooncake_master_snapshot/mooncake_cluster/20260822_051200_123/metadata"));
  EXPECT_EQ(file.size(), 197u);
  EXPECT_EQ(to_hex(file),
            "83a673686172647381cd03c3c49228b52ffd209b4d0400a40781a86d65746164"
            "6174619193a764656661756c74a864656d6f2d6b65799ca3312d32cf0000018b"
            "cfe56800cd0400cf000003bb2cc3d800c20002009401030095000300000000a3"
            "332d34c393cd04009200009402030192d92e2f6d6e742f6d6f6f6e63616b655f"
            "6673636c75737465722f642f6d2fcd0400c2a004007c20a997ed649604709866"
            "b26469736361726465645f7265706c6963617390af7265706c6963615f6e6578"
            "745f696403");
}

}  // namespace
}  // namespace moonquota::forge
