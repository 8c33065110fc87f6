// quota-reconcile (the real binary) against the master stand-in (a real HTTP server on loopback).
#include <gtest/gtest.h>

#include <chrono>
#include <nlohmann/json.hpp>

#include "support/master_stand_in_process.hpp"
#include "support/run_tool.hpp"
#include "support/snapshot_test_support.hpp"

namespace moonquota::reconcile {
namespace {

using test::run_tool;
using test::StandInProcess;

std::vector<std::string> args_for(const std::string& url, std::vector<std::string> extra) {
  auto args = test::genuine_r1_metadata_args();
  args.insert(args.end(), {"--master", url, "--retries", "4", "--retry-backoff-ms", "5", "--interval-ms", "1"});
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

nlohmann::json verdicts(const std::string& json_text) {
  const auto doc = nlohmann::json::parse(json_text);
  nlohmann::json out;
  for (const auto& t : doc["tenants"]) out[t["tenant_id"].get<std::string>()] = t["verdict"];
  return out;
}

TEST(QuotaReconcileTool, GenuineStateServedLiveIsInBalance) {
  StandInProcess stand_in({});
  ASSERT_TRUE(stand_in.running());
  auto run = run_tool("quota-reconcile", args_for(stand_in.url(), {"--format", "json"}));
  ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
  auto j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j["summary"]["match"], 6);
  EXPECT_EQ(j["live"]["samples"], 1);
  EXPECT_EQ(j["live"]["source"], stand_in.url());
  EXPECT_TRUE(j["live"]["sampled_at_known"].get<bool>());
}

TEST(QuotaReconcileTool, DriftKnobsGiveEachVerdictAndExitOne) {
  StandInProcess stand_in({"--drift", "alpha=4096", "--drift", "beta=-64", "--hide", "delta", "--extra", "zeta=512",
                           "--flip-admission", "gamma"});
  ASSERT_TRUE(stand_in.running());
  auto run = run_tool("quota-reconcile", args_for(stand_in.url(), {"--format", "json"}));
  ASSERT_EQ(run.exit_code, 1) << run.err;
  auto v = verdicts(run.out);
  EXPECT_EQ(v["alpha"], "live_over");
  EXPECT_EQ(v["beta"], "live_under");
  EXPECT_EQ(v["delta"], "missing_live");
  EXPECT_EQ(v["zeta"], "missing_metadata");
  EXPECT_EQ(v["gamma"], "flags_mismatch");
  EXPECT_EQ(v["Team \"Q\" \\ x"], "match");
}

TEST(QuotaReconcileTool, SamplesSeparateInFlightWritesFromDrift) {
  StandInProcess stand_in({"--inflight", "alpha=716800"});
  ASSERT_TRUE(stand_in.running());
  auto one = run_tool("quota-reconcile", args_for(stand_in.url(), {"--format", "json"}));
  EXPECT_EQ(one.exit_code, 1) << "one sample sees the in-flight put";
  auto three = run_tool("quota-reconcile", args_for(stand_in.url(), {"--format", "json", "--samples", "3"}));
  ASSERT_EQ(three.exit_code, 0) << three.err;
  auto j = nlohmann::json::parse(three.out);
  EXPECT_EQ(j["tenants"][1]["live_charged_bytes"], 840257);
  EXPECT_EQ(j["tenants"][1]["live_max_charged_bytes"], 840257 + 716800);
}

TEST(QuotaReconcileTool, UnavailableThenRecoveryExitsZero) {
  StandInProcess stand_in({"--unavailable-first", "2"});
  ASSERT_TRUE(stand_in.running());
  auto run = run_tool("quota-reconcile", args_for(stand_in.url(), {"--format", "json"}));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  auto j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j["live"]["unavailable_answers"], 2);
  EXPECT_EQ(j["live"]["retries"], 2);
}

TEST(QuotaReconcileTool, StandbyAfterRetriesExitsFour) {
  StandInProcess stand_in({"--unavailable-first", "1000"});
  ASSERT_TRUE(stand_in.running());
  auto run = run_tool("quota-reconcile", args_for(stand_in.url(), {}));
  EXPECT_EQ(run.exit_code, 4);
  EXPECT_NE(run.err.find("service plane is not active"), std::string::npos) << run.err;
}

TEST(QuotaReconcileTool, StandbyThenLeaderEndpointsReconcileTheLeader) {
  StandInProcess standby({"--unavailable-first", "100000"});
  StandInProcess leader({});
  ASSERT_TRUE(standby.running() && leader.running());
  auto run = run_tool("quota-reconcile", args_for(standby.url(), {"--master", leader.url(), "--format", "json"}));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  auto j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j["live"]["source"], leader.url());
  EXPECT_EQ(j["summary"]["match"], 6);
}

TEST(QuotaReconcileTool, MasterDownExitsFourAndPromSaysSo) {
  const std::string url = "http://127.0.0.1:" + std::to_string(test::unused_loopback_port());
  auto run = run_tool("quota-reconcile", args_for(url, {"--format", "prom"}));
  EXPECT_EQ(run.exit_code, 4);
  EXPECT_NE(run.out.find("moonquota_reconcile_run_success{cluster=\"default\"} 0"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("moonquota_reconcile_exit_code{cluster=\"default\"} 4"), std::string::npos);
}

TEST(QuotaReconcileTool, MultiTenancyOffExitsThree) {
  StandInProcess stand_in({"--mode-off"});
  ASSERT_TRUE(stand_in.running());
  auto run = run_tool("quota-reconcile", args_for(stand_in.url(), {}));
  EXPECT_EQ(run.exit_code, 3);
  EXPECT_NE(run.err.find("multi-tenancy disabled on the live master"), std::string::npos) << run.err;
}

TEST(QuotaReconcileTool, HistoryMarksAPersistentLeak) {
  test::TempDir dir;
  const std::string db = dir.str() + "/history";
  for (int i = 1; i <= 3; ++i) {
    StandInProcess stand_in({"--drift", "beta=" + std::to_string(4096 * i)});
    ASSERT_TRUE(stand_in.running());
    auto run = run_tool("quota-reconcile", args_for(stand_in.url(), {"--format", "json", "--db", db}));
    ASSERT_EQ(run.exit_code, 1) << run.err;
    auto j = nlohmann::json::parse(run.out);
    EXPECT_EQ(j["history"]["runs"], i);
    EXPECT_EQ(j["tenants"][2]["tenant_id"], "beta");
    EXPECT_EQ(j["tenants"][2]["persistent"], i == 3);
    EXPECT_EQ(j["tenants"][2]["streak_runs"], i);
  }
  auto history = run_tool("quota-reconcile", {"history", "--db", db, "--tenant", "beta"});
  ASSERT_EQ(history.exit_code, 0) << history.err;
  EXPECT_NE(history.out.find("PERSISTENT 3 consecutive run(s) live over"), std::string::npos) << history.out;
  auto all = run_tool("quota-reconcile", {"history", "--db", db, "--since", "1h", "--format", "json"});
  ASSERT_EQ(all.exit_code, 0) << all.err;
  EXPECT_EQ(nlohmann::json::parse(all.out)["runs"], 3);
  auto missing = run_tool("quota-reconcile", {"history", "--db", dir.str() + "/none"});
  EXPECT_EQ(missing.exit_code, 3);
}

// The same metadata without --restore-time: the live model (issue 10).
std::vector<std::string> live_args_for(const std::string& url, std::vector<std::string> extra) {
  auto args = args_for(url, std::move(extra));
  for (auto it = args.begin(); it != args.end();) { it = *it == "--restore-time" ? args.erase(it, it + 2) : it + 1; }
  return args;
}

// Runs of both models in one store: trends, `persistent` and `history` never mix them.
TEST(QuotaReconcileTool, HistoryKeepsTheTwoModelsApart) {
  test::TempDir dir;
  const std::string db = dir.str() + "/history";
  StandInProcess leak({"--drift", "beta=4096"});
  ASSERT_TRUE(leak.running());
  for (int i = 1; i <= 3; ++i) {
    auto run = run_tool("quota-reconcile", args_for(leak.url(), {"--format", "json", "--db", db}));
    ASSERT_EQ(run.exit_code, 1) << run.err;
    EXPECT_EQ(nlohmann::json::parse(run.out)["model"], "restore");
  }
  auto live = run_tool("quota-reconcile", live_args_for(leak.url(), {"--format", "json", "--db", db}));
  ASSERT_EQ(live.exit_code, 1) << live.err;
  auto j = nlohmann::json::parse(live.out);
  EXPECT_EQ(j["model"], "live");
  EXPECT_EQ(j["metadata"]["model"], "live");
  EXPECT_TRUE(j["metadata"]["restore_time_ms"].is_null());
  EXPECT_EQ(j["history"]["model"], "live");
  EXPECT_EQ(j["history"]["runs"], 1) << "the three restore runs are not this model's history";
  EXPECT_EQ(j["tenants"][2]["tenant_id"], "beta");
  EXPECT_EQ(j["tenants"][2]["unexplained_bytes"], 4096);
  EXPECT_EQ(j["tenants"][2]["persistent"], false);
  EXPECT_EQ(j["tenants"][2]["streak_runs"], 1);

  auto newest = run_tool("quota-reconcile", {"history", "--db", db, "--format", "json"});
  ASSERT_EQ(newest.exit_code, 0) << newest.err;
  auto h = nlohmann::json::parse(newest.out);
  EXPECT_EQ(h["model"], "live");
  EXPECT_EQ(h["runs"], 1);
  auto restore = run_tool("quota-reconcile", {"history", "--db", db, "--model", "restore", "--tenant", "beta"});
  ASSERT_EQ(restore.exit_code, 0) << restore.err;
  EXPECT_NE(restore.out.find("model:     restore"), std::string::npos) << restore.out;
  EXPECT_NE(restore.out.find("PERSISTENT 3 consecutive run(s) live over"), std::string::npos) << restore.out;
}

// Issue 11 item 11: --timeout-ms bounds the wait on a master that accepts but never answers,
// and the message says it timed out after that many ms (the same words etcd and Redis use).
TEST(QuotaReconcileTool, TimeoutMsBoundsASilentMasterAndNamesTheTimeout) {
  test::SilentListener silent;
  auto args = test::genuine_r1_metadata_args();
  args.insert(args.end(), {"--master", "http://" + silent.host_port(), "--retries", "2", "--retry-backoff-ms", "1",
                           "--timeout-ms", "250"});
  const auto start = std::chrono::steady_clock::now();
  auto run = run_tool("quota-reconcile", args);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(4));
  EXPECT_EQ(run.exit_code, 4) << run.err;
  EXPECT_NE(run.err.find("master GET http://" + silent.host_port() +
                         "/api/v1/tenant_quotas: timed out after 250 ms waiting for the answer (after 2 attempts)"),
            std::string::npos)
      << run.err;
}

// The same flag and words for etcd in quota-rebuild (and quota-reconcile's metadata flags).
TEST(QuotaReconcileTool, TimeoutMsBoundsASilentEtcdInQuotaRebuild) {
  test::SilentListener silent;
  const auto start = std::chrono::steady_clock::now();
  auto run = run_tool("quota-rebuild",
                      {"--store", test::source_path("snapshots/genuine-live/r1_quiescent_orphan/store"),
                       "--restore-time", "1795956296529", "--policy-etcd", silent.host_port(), "--timeout-ms", "200"});
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(4));
  EXPECT_EQ(run.exit_code, 4) << run.err;
  EXPECT_NE(run.err.find("etcd POST http://" + silent.host_port() +
                         "/v3/kv/range: timed out after 200 ms waiting for the answer (after 3 attempts)"),
            std::string::npos)
      << run.err;
}

// Issue 11 item 19: an unusable --db keeps the report; the history write fails on its own.
TEST(QuotaReconcileTool, AnUnopenableDbPrintsTheReportThenFailsOnTheHistoryWrite) {
  StandInProcess stand_in({"--drift", "alpha=4096"});
  ASSERT_TRUE(stand_in.running());
  auto run = run_tool("quota-reconcile", args_for(stand_in.url(), {"--format", "json", "--db", "/dev/null/history"}));
  EXPECT_EQ(run.exit_code, 3) << run.err;
  EXPECT_EQ(verdicts(run.out)["alpha"], "live_over");
  EXPECT_NE(run.err.find("quota-reconcile: --db: this run was not recorded: "), std::string::npos) << run.err;
  auto prom = run_tool("quota-reconcile", args_for(stand_in.url(), {"--format", "prom", "--db", "/dev/null/history"}));
  EXPECT_EQ(prom.exit_code, 3) << prom.err;
  EXPECT_NE(prom.out.find("moonquota_reconcile_exit_code{cluster=\"default\"} 3"), std::string::npos) << prom.out;
  EXPECT_NE(prom.out.find("moonquota_reconcile_verdict{"), std::string::npos) << prom.out;
}

// --fail-on unexplained: a leak the metadata cannot explain still exits 1 (the explained case,
// writes in flight, exits 0: golden live-audit.reconcile-live-in-flight-fail-on-unexplained).
TEST(QuotaReconcileTool, FailOnUnexplainedStillFailsOnALeak) {
  StandInProcess leak({"--drift", "beta=4096"});
  ASSERT_TRUE(leak.running());
  auto run = run_tool("quota-reconcile", live_args_for(leak.url(), {"--fail-on", "unexplained", "--format", "json"}));
  EXPECT_EQ(run.exit_code, 1) << run.err;
  auto flags = run_tool("quota-reconcile", live_args_for(leak.url(), {"--fail-on", "sometimes"}));
  EXPECT_EQ(flags.exit_code, 2) << flags.err;
}

}  // namespace
}  // namespace moonquota::reconcile
