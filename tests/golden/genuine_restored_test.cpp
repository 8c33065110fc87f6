// quota-rebuild against stores written by a real Mooncake master: the table must equal the one
// that master served after restoring the same store (restored.json, captured from the master).
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "support/run_tool.hpp"

namespace moonquota::test {
namespace {

using nlohmann::json;

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void expect_matches_master(const std::string& case_dir, const std::string& restored_json) {
  const std::string dir = source_path(case_dir);
  std::string restore_time = read_text(dir + "/restore_time_ms");
  while (!restore_time.empty() && (restore_time.back() == '\n' || restore_time.back() == ' ')) restore_time.pop_back();
  ToolRun run = run_tool("quota-rebuild", {"--store", dir + "/store", "--policy", dir + "/policy.yaml",
                                           "--restore-time", restore_time, "--format", "json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  json ours = json::parse(run.out);
  json master = json::parse(read_text(dir + "/" + restored_json));
  std::vector<json> visible;
  for (const auto& row : ours["tenants"]) {
    if (row["visible"].get<bool>()) visible.push_back(row);
  }
  ASSERT_EQ(visible.size(), master.size()) << run.out;
  for (size_t i = 0; i < master.size(); ++i) {
    SCOPED_TRACE(master[i]["tenant_id"].get<std::string>());
    EXPECT_EQ(visible[i]["tenant_id"], master[i]["tenant_id"]);
    EXPECT_EQ(visible[i]["requested_quota_bytes"], master[i]["requested"]);
    EXPECT_EQ(visible[i]["effective_quota_bytes"], master[i]["effective"]);
    EXPECT_EQ(visible[i]["charged_bytes"], master[i]["charged"]);
    EXPECT_EQ(visible[i]["admission_closed"], master[i]["admission_closed"]);
    EXPECT_EQ(visible[i]["has_explicit_policy"], master[i]["has_explicit_policy"]);
    EXPECT_EQ(visible[i]["over_quota"], master[i]["over_quota"]);
  }
}

TEST(GenuineStores, SingleSegmentBasicMatchesTheRealMaster) {
  expect_matches_master("snapshots/genuine/s1_single_segment_basic", "restored.json");
}

TEST(GenuineStores, SpecWorkedExampleMatchesTheRealMaster) {
  expect_matches_master("snapshots/genuine/s7_spec_worked_example", "restored.json");
}

TEST(GenuineStores, QuiescentOrphanMatchesTheRealMaster) {
  expect_matches_master("snapshots/genuine-live/r1_quiescent_orphan", "aux/restored.json");
}

}  // namespace
}  // namespace moonquota::test
