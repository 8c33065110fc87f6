// quota-reconcile --model promote (the real tool): what a promotion now would serve, beside what the
// primary serves, on the hand-worked case of testdata/promote-model/README.md.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/run_tool.hpp"
#include "support/snapshot_test_support.hpp"

namespace moonquota::app {
namespace {

using nlohmann::json;

const std::string k_case = "testdata/promote-model/";
constexpr const char* k_sampled_at = "1795960000000";
constexpr const char* k_bootstrap = "1795953650000";

// The store and OpLog export of the case, forged into `dir`.
class PromoteModel : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto forged = test::run_tool("snapshot-forge", {test::source_path(k_case + "scenario.json"), "--out", store(),
                                                          "--oplog-export", oplog(), "-q"});
    ASSERT_EQ(forged.exit_code, 0) << forged.err;
  }
  std::string store() const { return (m_dir.path() / "store").string(); }
  std::string oplog() const { return (m_dir.path() / "oplog.jsonl").string(); }
  std::vector<std::string> audit(std::vector<std::string> extra) const {
    std::vector<std::string> args = {"--store",      store(),
                                     "--cluster-id", "prod-p",
                                     "--oplog-file", oplog(),
                                     "--policy",     test::source_path(k_case + "policy.yaml"),
                                     "--live-json",  test::source_path(k_case + "primary_list.json"),
                                     "--sampled-at", k_sampled_at,
                                     "--model",      "promote"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  }
  test::TempDir m_dir;
};

json tenant(const json& report, const std::string& id) {
  for (const auto& t : report["tenants"]) {
    if (t["tenant_id"] == id) return t;
  }
  return nullptr;
}

json cause_ids(const json& t) {
  json ids = json::array();
  for (const auto& c : t["causes"]) ids.push_back({c["cause"], c["bytes"]});
  return ids;
}

TEST_F(PromoteModel, TheBootstrapsDropsAndThePhantomsExplainBothSigns) {
  const auto run = test::run_tool("quota-reconcile", audit({"--restore-time", k_bootstrap, "--format", "json"}));
  ASSERT_EQ(run.exit_code, 1) << run.err;  // three tenants drift
  const json j = json::parse(run.out);
  EXPECT_EQ(j["model"], "promote");
  EXPECT_EQ(j["metadata"]["model"], "promote");
  EXPECT_EQ(j["metadata"]["restore_time_ms"], 1795953650000);
  EXPECT_EQ(j["metadata"]["phantoms"], json::parse(R"({"computed": true, "bootstrap_ms": 1795953650000,
      "until_ms": 1795960000000, "tenants": 1, "note": null})"));
  const json a = tenant(j, "tenant-a");
  EXPECT_EQ(a["expected_charged_bytes"], 8192);
  EXPECT_EQ(a["live_charged_bytes"], 9192);
  EXPECT_EQ(a["verdict"], "live_over");
  EXPECT_EQ(cause_ids(a), json::parse(R"([["promote_drop_lease_expired", 1000]])"));
  EXPECT_EQ(a["explained_bytes"], 1000);
  EXPECT_EQ(a["unexplained_bytes"], 0);
  const json b = tenant(j, "tenant-b");
  EXPECT_EQ(b["expected_charged_bytes"], 71536);
  EXPECT_EQ(b["delta_bytes"], -4000);
  EXPECT_EQ(b["verdict"], "live_under");
  EXPECT_EQ(cause_ids(b), json::parse(R"([["promote_phantom_lease_ended", 4000]])"));
  EXPECT_EQ(b["explained_bytes"], 4000);
  EXPECT_EQ(b["unexplained_bytes"], 0);
  EXPECT_EQ(b["likely_causes"], json::array());  // fully explained: nothing left to advise on
  const json c = tenant(j, "tenant-c");
  EXPECT_EQ(c["verdict"], "flags_mismatch");
  EXPECT_EQ(c["flag_differences"], json::parse(R"(["effective_quota_bytes: metadata 0, live 1048576"])"));
  ASSERT_FALSE(c["likely_causes"].empty());
  EXPECT_NE(c["likely_causes"][0].get<std::string>().find("read 0 until clients remount"), std::string::npos);
  // Only the unexplained remainder fails with --fail-on unexplained: tenant-c's flags still do.
  EXPECT_EQ(j["summary"]["unexplained_outside_tolerance"], 0);
}

// A phantom's bytes are only what the evidence shows: a primary that evicted less leaves a remainder.
TEST_F(PromoteModel, APhantomExplainsAtMostItsBytes) {
  test::TempDir dir;
  std::string list = test::read_file(test::source_path(k_case + "primary_list.json"));
  const std::string from = "\"charged_bytes\":67536";
  ASSERT_NE(list.find(from), std::string::npos);
  list.replace(list.find(from), from.size(), "\"charged_bytes\":60000");  // 11536 under: 4000 explained
  test::write_file(dir.path() / "list.json", list);
  auto args = audit({"--restore-time", k_bootstrap, "--format", "json"});
  args[9] = (dir.path() / "list.json").string();
  const auto run = test::run_tool("quota-reconcile", args);
  ASSERT_EQ(run.exit_code, 1) << run.err;
  const json b = tenant(json::parse(run.out), "tenant-b");
  EXPECT_EQ(b["delta_bytes"], -11536);
  EXPECT_EQ(b["explained_bytes"], 4000);
  EXPECT_EQ(b["unexplained_bytes"], -7536);
  EXPECT_FALSE(b["likely_causes"].empty());
}

// Bootstrapping at the sample (the default is now): the lease filter already drops kv/phantom, so
// nothing is a phantom and tenant-b matches; the report says why phantoms are not counted.
TEST_F(PromoteModel, ABootstrapAtTheSampleHasNoPhantoms) {
  const auto run = test::run_tool("quota-reconcile", audit({"--restore-time", k_sampled_at, "--format", "json"}));
  ASSERT_EQ(run.exit_code, 1) << run.err;
  const json j = json::parse(run.out);
  EXPECT_FALSE(j["metadata"]["phantoms"]["computed"].get<bool>());
  EXPECT_NE(j["metadata"]["phantoms"]["note"].get<std::string>().find("not before the live sample"), std::string::npos);
  EXPECT_EQ(tenant(j, "tenant-b")["delta_bytes"], 0);
  EXPECT_EQ(tenant(j, "tenant-a")["delta_bytes"], 1000);
  const auto text = test::run_tool("quota-reconcile", audit({"--restore-time", k_sampled_at}));
  EXPECT_NE(text.out.find("model:     promote at 1795960000000 ms"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("phantoms:  not counted: "), std::string::npos) << text.out;
}

// Regression: CLI11 wrapped --sampled-at -5 into 2^64-5 and read 010 as octal 8.
TEST_F(PromoteModel, SampledAtIsDecimalMilliseconds) {
  auto args = audit({"--restore-time", k_bootstrap, "--format", "json"});
  args[11] = "-5";
  const auto negative = test::run_tool("quota-reconcile", args);
  EXPECT_EQ(negative.exit_code, 2);
  EXPECT_NE(negative.err.find("--sampled-at: '-5' is not an instant"), std::string::npos) << negative.err;
  args[11] = "01795960000000";
  const auto zero = test::run_tool("quota-reconcile", args);
  ASSERT_EQ(zero.exit_code, 1) << zero.err;
  EXPECT_EQ(json::parse(zero.out)["metadata"]["phantoms"]["until_ms"], 1795960000000);
}

TEST_F(PromoteModel, UsageErrors) {
  auto no_oplog = audit({});
  no_oplog.erase(no_oplog.begin() + 4, no_oplog.begin() + 6);  // --oplog-file FILE
  const auto missing = test::run_tool("quota-reconcile", no_oplog);
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("--model promote replays the OpLog"), std::string::npos) << missing.err;
  const auto restore_path = test::run_tool("quota-reconcile", audit({"--path", "restore"}));
  EXPECT_EQ(restore_path.exit_code, 2);
  EXPECT_NE(restore_path.err.find("--model promote and --path restore conflict"), std::string::npos)
      << restore_path.err;
}

// The history keeps the model apart: a promote run is not trended with live runs.
TEST_F(PromoteModel, TheHistoryKeepsTheModelApart) {
  test::TempDir dir;
  const std::string db = (dir.path() / "db").string();
  ASSERT_EQ(test::run_tool("quota-reconcile", audit({"--restore-time", k_bootstrap, "--db", db})).exit_code, 1);
  auto live = audit({"--db", db});
  live.erase(live.end() - 4, live.end() - 2);  // no --model promote
  live.erase(live.begin() + 4, live.begin() + 6);
  ASSERT_EQ(test::run_tool("quota-reconcile", live).exit_code, 1);
  const auto promote =
      test::run_tool("quota-reconcile", {"history", "--db", db, "--model", "promote", "--format", "json"});
  ASSERT_EQ(promote.exit_code, 0) << promote.err;
  const json h = json::parse(promote.out);
  EXPECT_EQ(h["model"], "promote");
  EXPECT_EQ(h["runs"].size(), 1u) << promote.out;
}

}  // namespace
}  // namespace moonquota::app
