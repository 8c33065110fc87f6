#include "forge/forge_run.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "forge/scenario.hpp"
#include "forge/store_writer.hpp"
#include "support/run_tool.hpp"
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
  EXPECT_EQ(outcome.status().message(), scenario.string() +
                                            ": line 1 column 3 (byte offset 2): not valid JSON: syntax error while "
                                            "parsing object key - invalid literal; last read: '{no'; expected string "
                                            "literal");
}

// A scenario that is not a regular file of at most k_max_scenario_bytes is refused before it is
// read: `snapshot-forge /dev/zero` read until the kernel killed it (24 GB), a directory read as
// empty and was called "not valid JSON", and nothing is written to the output directory.
TEST(RunForge, AScenarioIsARegularFileOfBoundedSize) {
  TempDir dir;
  const fs::path big = dir.path() / "big.json";
  test::write_file(big, "{}");
  fs::resize_file(big, k_max_scenario_bytes + 1);  // sparse: no disk is used
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"/dev/zero", "scenario: '/dev/zero' is not a regular file"},
      {dir.str(), "scenario: '" + dir.str() + "' is not a regular file"},
      {big.string(), "scenario '" + big.string() + "' is " + std::to_string(k_max_scenario_bytes + 1) +
                         " bytes, more than our limit of 64 MiB (forge a large store with --large N)"}};
  for (const auto& [path, message] : cases) {
    ForgeRequest request;
    request.out_dir = (dir.path() / "out").string();
    request.scenario_path = path;
    const auto outcome = run_forge(request);
    ASSERT_FALSE(outcome.ok()) << path;
    EXPECT_EQ(outcome.status().message(), message);
    EXPECT_FALSE(fs::exists(dir.path() / "out")) << path;
  }
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

// Issue 11 item 5: a write that fails after the output directory was prepared must leave nothing
// that makes the next run refuse the directory (here: a cluster id longer than NAME_MAX).
TEST(RunForge, AFailedLargeStoreLeavesNothingBehind) {
  TempDir dir;
  ForgeRequest request;
  request.out_dir = (dir.path() / "out").string();
  request.large = LargeStoreOptions{};
  request.large->objects = 100;
  request.large->cluster_id = std::string(300, 'c');
  EXPECT_EQ(run_forge(request).status().code(), util::StatusCode::io_error);
  EXPECT_FALSE(fs::exists(request.out_dir));  // it did not exist before
  fs::create_directories(request.out_dir);
  EXPECT_EQ(run_forge(request).status().code(), util::StatusCode::io_error);
  EXPECT_TRUE(fs::is_directory(request.out_dir));  // it existed: kept, and empty again
  EXPECT_TRUE(fs::is_empty(request.out_dir));
  request.large->cluster_id = "mooncake_cluster";
  const auto next = run_forge(request);
  ASSERT_TRUE(next.ok()) << next.status().message();
  EXPECT_EQ(next->large->objects, 100u);
}

TEST(RunForge, AFailedScenarioStoreLeavesNothingBehind) {
  TempDir dir;
  const std::string out = (dir.path() / "out").string();
  Scenario scenario;
  ForgedSnapshot good;
  good.id = "20260822_051200_123";
  scenario.snapshots.push_back(good);
  ForgedSnapshot bad = good;
  bad.id = std::string(300, '9');  // written second: the first one is complete by then
  scenario.snapshots.push_back(bad);
  EXPECT_EQ(write_store(scenario, out, {}).code(), util::StatusCode::io_error);
  EXPECT_FALSE(fs::exists(out));
}

TEST(RunForge, TooManyThreadsIsRefusedBeforeAnythingIsWritten) {
  TempDir dir;
  ForgeRequest request;
  request.out_dir = (dir.path() / "out").string();
  request.large = LargeStoreOptions{};
  request.large->objects = 10;
  request.large->threads = 100000;
  const auto outcome = run_forge(request);
  EXPECT_EQ(outcome.status().code(), util::StatusCode::invalid_argument);
  EXPECT_EQ(outcome.status().message(), "--threads must be 0 .. 256");
  EXPECT_FALSE(fs::exists(request.out_dir));
}

// The first stderr line that mentions `flag`, from the flag on (after the "<tool>: " prefix).
std::string line_naming(const std::string& err, const std::string& flag) {
  std::istringstream in(err);
  for (std::string line; std::getline(in, line);) {
    if (const auto at = line.find(flag); at != std::string::npos) return line.substr(at);
  }
  return "";
}

// Issue 11 item 5: `--threads 100000` aborted (std::system_error, exit 134) and left temporary
// files that made the next run refuse the directory.
TEST(SnapshotForgeTool, ThreadsOutOfRangeIsTheOtherToolsUsageError) {
  TempDir dir;
  const std::string out = (dir.path() / "out").string();
  const auto run = test::run_tool("snapshot-forge", {"--large", "100", "--out", out, "--threads", "100000"});
  EXPECT_EQ(run.exit_code, 2) << run.err;
  const auto other = test::run_tool("quota-rebuild", {"--store", out, "--threads", "100000"});
  EXPECT_EQ(other.exit_code, 2) << other.err;
  const std::string message = line_naming(run.err, "--threads");
  EXPECT_NE(message.find("100000"), std::string::npos) << run.err;
  EXPECT_EQ(message, line_naming(other.err, "--threads"));
  EXPECT_FALSE(fs::exists(out));
  const auto next = test::run_tool("snapshot-forge", {"--large", "100", "--out", out, "--threads", "256"});
  EXPECT_EQ(next.exit_code, 0) << next.err;
  EXPECT_TRUE(fs::exists(fs::path(out) / "mooncake_master_snapshot/mooncake_cluster/latest.txt"));
}

// Issue 11 item 18: `--large 0` and `--oplog-large 0` are usage errors naming the flag (the
// second used to write a log of one entry); -q and -v work as in the other tools.
TEST(RunForge, ZeroObjectsOrEntriesAreUsageErrors) {
  TempDir dir;
  ForgeRequest request;
  request.out_dir = (dir.path() / "out").string();
  request.oplog = SyntheticOpLogOptions{};
  request.oplog->entries = 0;
  const auto oplog = run_forge(request);
  EXPECT_EQ(oplog.status().code(), util::StatusCode::invalid_argument);
  EXPECT_EQ(oplog.status().message(), "--oplog-large needs at least 1 entry");
  request.oplog.reset();
  request.large = LargeStoreOptions{};
  request.large->objects = 0;
  const auto large = run_forge(request);
  EXPECT_EQ(large.status().code(), util::StatusCode::invalid_argument);
  EXPECT_EQ(large.status().message(), "--large needs 1 .. 4294967295 objects");
  EXPECT_FALSE(fs::exists(request.out_dir));
}

TEST(SnapshotForgeTool, ZeroObjectsOrEntriesExitTwoNamingTheFlag) {
  TempDir dir;
  const std::string out = (dir.path() / "out").string();
  const auto large = test::run_tool("snapshot-forge", {"--large", "0", "--out", out});
  EXPECT_EQ(large.exit_code, 2) << large.err;
  EXPECT_EQ(large.err, "snapshot-forge: --large needs 1 .. 4294967295 objects\n");
  const auto oplog = test::run_tool("snapshot-forge", {"--oplog-large", "0", "--out", out});
  EXPECT_EQ(oplog.exit_code, 2) << oplog.err;
  EXPECT_EQ(oplog.err, "snapshot-forge: --oplog-large needs at least 1 entry\n");
  EXPECT_FALSE(fs::exists(out));
}

TEST(SnapshotForgeTool, QuietAndVerboseLikeTheOtherTools) {
  TempDir dir;
  const auto quiet = test::run_tool("snapshot-forge", {"--large", "50", "--out", dir.str() + "/q", "-q"});
  EXPECT_EQ(quiet.exit_code, 0) << quiet.err;
  EXPECT_EQ(quiet.err, "");
  const auto plain = test::run_tool("snapshot-forge", {"--large", "50", "--out", dir.str() + "/p"});
  EXPECT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_EQ(plain.err.rfind("snapshot-forge: wrote 50 objects", 0), 0u) << plain.err;
  EXPECT_EQ(plain.err.find("info:"), std::string::npos) << plain.err;
  const auto verbose = test::run_tool("snapshot-forge", {"--large", "50", "--out", dir.str() + "/v", "-v"});
  EXPECT_EQ(verbose.exit_code, 0) << verbose.err;
  EXPECT_NE(verbose.err.find("info: writing a synthetic store of 50 objects"), std::string::npos) << verbose.err;
  EXPECT_NE(verbose.err.find("snapshot-forge: wrote 50 objects"), std::string::npos) << verbose.err;
  const auto oplog = test::run_tool("snapshot-forge", {"--oplog-large", "1", "--out", dir.str() + "/o", "--quiet"});
  EXPECT_EQ(oplog.exit_code, 0) << oplog.err;
  EXPECT_EQ(oplog.err, "");
  EXPECT_TRUE(fs::exists(dir.path() / "o/oplog.jsonl"));
}

// Issue 11 item 22: "wrote an OpLog of 1 entries".
TEST(SnapshotForgeTool, OneEntryReadsInTheSingular) {
  TempDir dir;
  const auto run = test::run_tool("snapshot-forge", {"--oplog-large", "1", "--out", dir.str()});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.err.rfind("snapshot-forge: wrote an OpLog of 1 entry in ", 0), 0u) << run.err;
}

}  // namespace
}  // namespace moonquota::forge
