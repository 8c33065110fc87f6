#include "forge/forge_run.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "support/snapshot_test_support.hpp"

namespace moonquota::forge {
namespace {

namespace fs = std::filesystem;
using test::TempDir;

TEST(RunForge, NeedsExactlyOneInput) {
  TempDir dir;
  ForgeRequest request;
  request.out_dir = dir.str();
  EXPECT_EQ(run_forge(request).status().code(), util::StatusCode::invalid_argument);
  request.scenario_path = "scenario.json";
  request.large = LargeStoreOptions{};
  EXPECT_EQ(run_forge(request).status().code(), util::StatusCode::invalid_argument);
}

TEST(RunForge, ABadScenarioIsCorruptionNamingTheFile) {
  TempDir dir;
  const fs::path scenario = dir.path() / "bad.json";
  test::write_file(scenario, "{not json");
  ForgeRequest request;
  request.out_dir = (dir.path() / "out").string();
  request.scenario_path = scenario.string();
  const auto outcome = run_forge(request);
  EXPECT_EQ(outcome.status().code(), util::StatusCode::corruption);
  EXPECT_EQ(outcome.status().message(), scenario.string() + ": $: not valid JSON");
}

TEST(RunForge, ANonEmptyOutputNeedsForce) {
  TempDir dir;
  test::write_file(dir.path() / "other", "x");
  ForgeRequest request;
  request.out_dir = dir.str();
  request.large = LargeStoreOptions{};
  request.large->objects = 10;
  EXPECT_EQ(run_forge(request).status().code(), util::StatusCode::invalid_argument);
}

TEST(RunForge, ASyntheticOpLogIsReturnedNotWritten) {
  TempDir dir;
  ForgeRequest request;
  request.out_dir = (dir.path() / "out").string();
  request.oplog = SyntheticOpLogOptions{};
  request.oplog->entries = 10;
  const auto outcome = run_forge(request);
  ASSERT_TRUE(outcome.ok()) << outcome.status().message();
  ASSERT_TRUE(outcome->oplog.has_value());
  EXPECT_EQ(outcome->oplog->entries, 10u);
  EXPECT_FALSE(outcome->large.has_value());
  EXPECT_TRUE(fs::is_directory(request.out_dir));
  EXPECT_TRUE(fs::is_empty(request.out_dir));
}

}  // namespace
}  // namespace moonquota::forge
