// quota-reconcile plan and apply (the real tool) over real HTTP against the master stand-in serving
// the genuine r1 capture (its orphan: gamma, 389120 bytes charged with no policy): every step and
// every refusal, and the history of before and after.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "reconcile/repair_plan.hpp"
#include "reconcile/repair_plan_json.hpp"
#include "support/master_stand_in_process.hpp"
#include "support/run_tool.hpp"
#include "support/snapshot_test_support.hpp"

namespace moonquota::app {
namespace {

using nlohmann::json;

const std::string k_r1 = "snapshots/genuine-live/r1_quiescent_orphan/";

std::vector<std::string> plan_args(const std::string& master, std::vector<std::string> extra) {
  std::vector<std::string> args = {"plan"};
  for (const auto& a : test::genuine_r1_metadata_args()) args.push_back(a);
  args.insert(args.end(), {"--master", master, "--cluster", "cell-a"});
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

// The tenant as the master lists it now (null: not listed), through an audit's JSON.
json live_row(const std::string& master, const std::string& tenant) {
  auto args = test::genuine_r1_metadata_args();
  args.insert(args.end(), {"--master", master, "--format", "json"});
  const auto run = test::run_tool("quota-reconcile", args);
  const json report = json::parse(run.out);
  for (const auto& t : report["tenants"]) {
    if (t["tenant_id"] == tenant) return t["in_live"].get<bool>() ? t["live"] : json(nullptr);
  }
  return nullptr;
}

class Repair : public ::testing::Test {
 protected:
  std::string plan_file() const { return (m_dir.path() / "plan.json").string(); }
  // Writes the plan for `master` with `extra`; returns the run.
  test::ToolRun make_plan(const std::string& master, std::vector<std::string> extra) const {
    extra.insert(extra.end(), {"--output", plan_file()});
    return test::run_tool("quota-reconcile", plan_args(master, extra));
  }
  test::ToolRun apply(const std::string& master, std::vector<std::string> extra, const std::string& input = "") const {
    std::vector<std::string> args = {"apply", plan_file(), "--master", master, "--cluster", "cell-a"};
    args.insert(args.end(), extra.begin(), extra.end());
    return test::run_tool("quota-reconcile", args, input);
  }
  test::TempDir m_dir;
};

TEST_F(Repair, TheGenuineOrphanIsAdoptedAndASecondAuditMatches) {
  test::StandInProcess master({});
  ASSERT_TRUE(master.running());
  const auto planned = make_plan(master.url(), {"--adopt", "gamma=1048576"});
  ASSERT_EQ(planned.exit_code, 1) << planned.err;  // the plan has a step
  EXPECT_NE(planned.out.find("1. adopt-orphan 'gamma'"), std::string::npos) << planned.out;
  const json plan = json::parse(test::read_file(plan_file()));
  EXPECT_EQ(plan["schema"], "quota-reconcile-plan/1");
  EXPECT_EQ(plan["cluster"], "cell-a");
  ASSERT_EQ(plan["steps"].size(), 1u);
  const json& step = plan["steps"][0];
  EXPECT_EQ(step["action"], "adopt-orphan");
  EXPECT_EQ(step["tenant_id"], "gamma");
  EXPECT_EQ(step["requested_quota_bytes"], 1048576);
  EXPECT_EQ(step["evidence"]["live_charged_bytes"], 389120);
  EXPECT_FALSE(step["evidence"]["live_has_explicit_policy"].get<bool>());
  EXPECT_TRUE(step["evidence"]["live_admission_closed"].get<bool>());
  EXPECT_EQ(step["preconditions"], json::parse(R"({"listed": true, "has_explicit_policy": false,
      "charged_bytes": 389120, "charged_tolerance_bytes": 0})"));
  // Nothing was sent by the plan.
  EXPECT_FALSE(live_row(master.url(), "gamma")["has_explicit_policy"].get<bool>());

  const std::string db = (m_dir.path() / "db").string();
  const auto applied = apply(master.url(), {"--yes", "--db", db});
  ASSERT_EQ(applied.exit_code, 0) << applied.out << applied.err;
  EXPECT_NE(applied.out.find("applied: HTTP 200"), std::string::npos) << applied.out;
  const json gamma = live_row(master.url(), "gamma");
  EXPECT_TRUE(gamma["has_explicit_policy"].get<bool>());
  EXPECT_FALSE(gamma["admission_closed"].get<bool>());
  EXPECT_EQ(gamma["requested_quota_bytes"], 1048576);

  // A second audit with the policy the master now holds (the file connector's file, gamma added)
  // matches every tenant.
  const std::string policy =
      test::read_file(test::source_path(k_r1 + "policy.yaml")) + "  - name: \"gamma\"\n    quota: 1048576\n";
  test::write_file(m_dir.path() / "policy.yaml", policy);
  auto audit = test::genuine_r1_metadata_args();
  audit[3] = (m_dir.path() / "policy.yaml").string();
  audit.insert(audit.end(), {"--master", master.url(), "--format", "json"});
  const auto second = test::run_tool("quota-reconcile", audit);
  EXPECT_EQ(second.exit_code, 0) << second.out;
  EXPECT_EQ(json::parse(second.out)["summary"]["drift"], 0);

  // The history keeps the evidence: before and after.
  const auto history = test::run_tool("quota-reconcile", {"history", "--db", db, "--format", "json"});
  ASSERT_EQ(history.exit_code, 0) << history.err;
  const json repairs = json::parse(history.out)["repairs"];
  ASSERT_EQ(repairs.size(), 1u);
  EXPECT_EQ(repairs[0]["outcome"], "applied");
  EXPECT_EQ(repairs[0]["request"], "PUT /api/v1/tenant_quotas?tenant_id=gamma {\"requested_quota_bytes\":1048576}");
  EXPECT_FALSE(repairs[0]["before"]["has_explicit_policy"].get<bool>());
  EXPECT_TRUE(repairs[0]["after"]["has_explicit_policy"].get<bool>());
  EXPECT_EQ(repairs[0]["after"]["charged_bytes"], 389120);

  // Applied again, the precondition has moved: skipped, saying why.
  const auto again = apply(master.url(), {"--yes"});
  EXPECT_EQ(again.exit_code, 1);
  EXPECT_NE(again.out.find("skipped: precondition moved: has_explicit_policy is now true, the plan expected false"),
            std::string::npos)
      << again.out;
}

TEST_F(Repair, NothingIsSentWithoutYesOrAConfirmation) {
  test::StandInProcess master({});
  ASSERT_EQ(make_plan(master.url(), {"--adopt", "gamma=1048576"}).exit_code, 1);
  const auto dry = apply(master.url(), {"--dry-run"});
  EXPECT_EQ(dry.exit_code, 0) << dry.err;
  EXPECT_NE(dry.out.find("dry-run: would send it"), std::string::npos) << dry.out;
  const auto declined = apply(master.url(), {}, "n\n");
  EXPECT_EQ(declined.exit_code, 1);
  EXPECT_NE(declined.out.find("send it? [y/N]"), std::string::npos) << declined.out;
  EXPECT_NE(declined.out.find("declined"), std::string::npos);
  const auto no_input = apply(master.url(), {});  // end of input: no
  EXPECT_EQ(no_input.exit_code, 1);
  EXPECT_FALSE(live_row(master.url(), "gamma")["has_explicit_policy"].get<bool>());
  const auto confirmed = apply(master.url(), {}, "y\n");
  EXPECT_EQ(confirmed.exit_code, 0) << confirmed.out;
  EXPECT_TRUE(live_row(master.url(), "gamma")["has_explicit_policy"].get<bool>());
}

TEST_F(Repair, AFailureToPersistStopsTheRunAndChangesNothing) {
  test::StandInProcess master({"--persist-fail-first", "1"});
  ASSERT_EQ(make_plan(master.url(), {"--adopt", "gamma=1048576"}).exit_code, 1);
  const auto failed = apply(master.url(), {"--yes"});
  EXPECT_EQ(failed.exit_code, 4);
  EXPECT_NE(failed.err.find("the master refused it: HTTP 500, error_code -1503 PERSISTENT_FAIL"), std::string::npos)
      << failed.err;
  EXPECT_FALSE(live_row(master.url(), "gamma")["has_explicit_policy"].get<bool>());
}

// A DELETE of a policy whose tenant holds objects: 409 TENANT_NOT_EMPTY stops the run (a plan
// edited by hand: the plan only retires empty policies).
TEST_F(Repair, ANotEmptyTenantStopsTheRunWithTheMastersReason) {
  test::StandInProcess master({});
  ASSERT_EQ(make_plan(master.url(), {"--adopt", "gamma=1048576", "--retire-empty"}).exit_code, 1);
  json plan = json::parse(test::read_file(plan_file()));
  ASSERT_EQ(plan["steps"].size(), 2u);  // by tenant: delta (a policy, nothing charged) retired, gamma adopted
  EXPECT_EQ(plan["steps"][0]["action"], "retire-empty-policy");
  EXPECT_EQ(plan["steps"][0]["tenant_id"], "delta");
  EXPECT_EQ(plan["steps"][1]["action"], "adopt-orphan");
  json alpha = plan["steps"][0];
  alpha["tenant_id"] = "alpha";
  alpha["preconditions"]["charged_bytes"] = 840257;
  plan["steps"] = json::array({alpha, plan["steps"][1]});
  test::write_file(plan_file(), plan.dump());
  const auto stopped = apply(master.url(), {"--yes"});
  EXPECT_EQ(stopped.exit_code, 1);
  EXPECT_NE(stopped.err.find("step 1: the master refused it: HTTP 409, error_code -1702 TENANT_NOT_EMPTY"),
            std::string::npos)
      << stopped.err;
  EXPECT_NE(stopped.out.find("1 of 2 steps taken"), std::string::npos) << stopped.out;
  EXPECT_FALSE(live_row(master.url(), "gamma")["has_explicit_policy"].get<bool>());  // stopped before it
}

TEST_F(Repair, AnEmptyPolicyIsRetiredAndAPurgeRemovesTheObjects) {
  test::StandInProcess master({});
  ASSERT_EQ(make_plan(master.url(), {"--retire-empty", "--allow-purge", "gamma"}).exit_code, 1);
  const auto applied = apply(master.url(), {"--yes"});
  ASSERT_EQ(applied.exit_code, 0) << applied.out << applied.err;
  EXPECT_NE(applied.out.find("request: POST /api/v1/remove_all?tenant_id=gamma&force=false"), std::string::npos);
  EXPECT_NE(applied.out.find("removed_count 2"), std::string::npos) << applied.out;
  EXPECT_TRUE(live_row(master.url(), "delta").is_null());  // retired: a closed tombstone, not listed
  EXPECT_TRUE(live_row(master.url(), "gamma").is_null());  // nothing charged, no policy
}

TEST_F(Repair, OldPlansAndPlansForAnotherClusterAreRefused) {
  test::StandInProcess master({});
  ASSERT_EQ(make_plan(master.url(), {"--adopt", "gamma=1048576"}).exit_code, 1);
  const auto other = test::run_tool("quota-reconcile",
                                    {"apply", plan_file(), "--master", master.url(), "--cluster", "cell-b", "--yes"});
  EXPECT_EQ(other.exit_code, 3);
  EXPECT_NE(other.err.find("made for cluster 'cell-a', not 'cell-b'"), std::string::npos) << other.err;
  ::usleep(20'000);
  const auto old = apply(master.url(), {"--yes", "--max-age", "10ms"});
  EXPECT_EQ(old.exit_code, 3);
  EXPECT_NE(old.err.find("more than --max-age"), std::string::npos) << old.err;
  EXPECT_FALSE(live_row(master.url(), "gamma")["has_explicit_policy"].get<bool>());
  const auto dead = apply("http://127.0.0.1:" + std::to_string(test::unused_loopback_port()), {"--yes"});
  EXPECT_EQ(dead.exit_code, 4) << dead.err;
  // apply prints each step as it goes: --output and --format are not its flags; nor an audit flag.
  EXPECT_EQ(apply(master.url(), {"--dry-run", "--output", (m_dir.path() / "out.txt").string()}).exit_code, 2);
  EXPECT_FALSE(std::filesystem::exists(m_dir.path() / "out.txt"));
  const auto audit_flag = test::run_tool(
      "quota-reconcile", {"--store", "x", "apply", plan_file(), "--master", master.url(), "--cluster", "cell-a"});
  EXPECT_EQ(audit_flag.exit_code, 2);
  EXPECT_NE(audit_flag.err.find("is a flag of the audit, not of 'apply'"), std::string::npos) << audit_flag.err;
}

// The quota from a policy file: its orphans are adopted, its other tenants left alone.
TEST_F(Repair, APolicyFileGivesTheOrphansTheirQuotas) {
  test::StandInProcess master({});
  test::write_file(m_dir.path() / "adopt.yaml",
                   "version: 1\ntenants:\n  - name: \"alpha\"\n    quota: 5\n  - name: \"gamma\"\n    quota: 2MB\n");
  ASSERT_EQ(make_plan(master.url(), {"--adopt-policy", (m_dir.path() / "adopt.yaml").string()}).exit_code, 1);
  const json plan = json::parse(test::read_file(plan_file()));
  ASSERT_EQ(plan["steps"].size(), 1u);
  EXPECT_EQ(plan["steps"][0]["tenant_id"], "gamma");
  EXPECT_EQ(plan["steps"][0]["requested_quota_bytes"], 2097152);
  EXPECT_NE(plan["steps"][0]["reason"].get<std::string>().find("(--adopt-policy)"), std::string::npos);
}

// A leak (the master charges alpha 4096 bytes more than the metadata explains): a step that sends
// nothing and says what a restart now would charge; apply reports it and sends nothing.
TEST_F(Repair, ALeakNeedsARestartAndTheStepSaysWhatItWouldCharge) {
  test::StandInProcess master({"--drift", "alpha=+4096"});
  ASSERT_EQ(make_plan(master.url(), {}).exit_code, 1);
  const json plan = json::parse(test::read_file(plan_file()));
  ASSERT_EQ(plan["steps"].size(), 1u);
  const json& step = plan["steps"][0];
  EXPECT_EQ(step["action"], "resync-requires-restart");
  EXPECT_EQ(step["tenant_id"], "alpha");
  EXPECT_EQ(step["evidence"]["unexplained_bytes"], 4096);
  // A restart now (the restore model at the plan's time) charges alpha what the metadata holds
  // after its lease erasure: every object of the capture has an ended lease by now.
  EXPECT_TRUE(step["evidence"]["restart_charged_bytes"].is_number_unsigned());
  EXPECT_EQ(step["evidence"]["restart_charged_bytes"].get<std::uint64_t>() +
                step["evidence"]["restart_lease_dropped_bytes"].get<std::uint64_t>(),
            840257u);
  const auto applied = apply(master.url(), {"--yes"});
  EXPECT_EQ(applied.exit_code, 0) << applied.out;
  EXPECT_NE(applied.out.find("informational: nothing to send"), std::string::npos) << applied.out;
}

TEST_F(Repair, PlanUsageErrors) {
  test::StandInProcess master({});
  const auto cases = std::vector<std::pair<std::vector<std::string>, std::string>>{
      {{"--adopt", "beta=5"}, "not an orphan on the live master"},
      {{"--adopt", "gamma=0"}, "outside [1, 2^63-1]"},
      {{"--adopt", "gamma"}, "expected TENANT=BYTES"},
      {{"--allow-purge", ""}, "--allow-purge needs a tenant id"},
      {{"--allow-purge", "Team \"Q\" \\ x"}, "does not URL-decode"},
      {{"--allow-purge", "zeta"}, "does not list this tenant"}};
  for (const auto& [extra, message] : cases) {
    const auto run = make_plan(master.url(), extra);
    EXPECT_EQ(run.exit_code, 2) << extra[0] << " " << extra[1] << ": " << run.err;
    EXPECT_NE(run.err.find(message), std::string::npos) << run.err;
  }
  const auto prom = test::run_tool("quota-reconcile", plan_args(master.url(), {"--format", "prom"}));
  EXPECT_EQ(prom.exit_code, 2);
  EXPECT_NE(prom.err.find("plan writes --format text or json"), std::string::npos) << prom.err;
  const auto orphan_left = make_plan(master.url(), {});
  EXPECT_EQ(orphan_left.exit_code, 0);
  EXPECT_NE(orphan_left.out.find("'gamma' is an orphan"), std::string::npos) << orphan_left.out;
}

TEST(RepairPlanJson, RoundTripsAndNamesTheBadMember) {
  reconcile::RepairPlan plan;
  plan.cluster = "c";
  plan.model = "live";
  plan.audit_at_ms = 5;
  plan.master = "http://m:9003";
  reconcile::PlanStep s;
  s.action = reconcile::RepairAction::adopt_orphan;
  s.tenant_id = std::string("t\xff", 2);  // not UTF-8: travels as hex
  s.requested_quota_bytes = 7;
  s.reason = "why";
  s.evidence.delta_bytes = -3;
  s.evidence.restart_charged_bytes = 9;
  s.preconditions.has_explicit_policy = false;
  plan.steps.push_back(s);
  plan.notes = {"n"};
  const std::string text = reconcile::plan_json(plan);
  const auto back = reconcile::parse_plan_json(text, "p.json");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(*back, plan);
  json j = json::parse(text);
  j["steps"][0]["action"] = "drop-everything";
  const auto bad = reconcile::parse_plan_json(j.dump(), "p.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("steps[0].action: 'drop-everything' is not an action"), std::string::npos)
      << bad.status().message();
  j = json::parse(text);
  j["steps"][0]["preconditions"]["charged_bytes"] = -1;
  EXPECT_NE(reconcile::parse_plan_json(j.dump(), "p.json")
                .status()
                .message()
                .find("steps[0].preconditions.charged_bytes: not a non-negative integer"),
            std::string::npos);
  EXPECT_FALSE(reconcile::parse_plan_json("{\"schema\": \"quota-reconcile-plan/2\"}", "p.json").ok());
  j = json::parse(text);
  j["steps"][0]["requested_quota_bytes"] = 0;
  EXPECT_NE(reconcile::parse_plan_json(j.dump(), "p.json").status().message().find("outside [1, 2^63-1]"),
            std::string::npos);
  j = json::parse(text);
  j["steps"][0]["action"] = "purge-tenant";
  j["steps"][0].erase("requested_quota_bytes");
  j["steps"][0]["tenant_id"] = "a b";
  EXPECT_NE(reconcile::parse_plan_json(j.dump(), "p.json").status().message().find("does not URL-decode"),
            std::string::npos);
}

}  // namespace
}  // namespace moonquota::app
