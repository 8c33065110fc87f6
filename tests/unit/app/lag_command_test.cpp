// oplog-inspect lag (the real tool): positions from an export file, a real etcd, a store, saved
// /metrics and a running stand-in; windows hand-worked on promote-worked (durable 46, snapshot 41);
// the gates' exit codes.
#include <gtest/gtest.h>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "support/master_stand_in_process.hpp"
#include "support/run_tool.hpp"
#include "support/service_env.hpp"
#include "support/snapshot_test_support.hpp"

namespace moonquota::app {
namespace {

using nlohmann::json;

std::vector<std::string> worked(std::vector<std::string> extra) {
  std::vector<std::string> args = {
      "lag",    "--oplog-file", test::source_path("snapshots/promote-worked/oplog.jsonl"), "--cluster-id",
      "prod-a", "--store",      test::source_path("snapshots/promote-worked/store")};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

std::string standby_metrics(const test::TempDir& dir, std::uint64_t applied) {
  const auto path = dir.path() / "standby.prom";
  test::write_file(path,
                   "# HELP ha_oplog_applied_sequence_id Latest OpLog sequence ID applied by Standby\n"
                   "# TYPE ha_oplog_applied_sequence_id gauge\nha_oplog_applied_sequence_id " +
                       std::to_string(applied) + "\nha_oplog_standby_lag 0\n");
  return path.string();
}

TEST(OpLogLag, TheWindowsOfTheWorkedPromotion) {
  test::TempDir dir;
  const auto run =
      test::run_tool("oplog-inspect", worked({"--standby-metrics", standby_metrics(dir, 43), "--format", "json"}));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json j = json::parse(run.out);
  EXPECT_EQ(j["schema"], "oplog-inspect-lag/1");
  EXPECT_EQ(j["positions"]["durable"]["seq"], 46);
  EXPECT_EQ(j["positions"]["snapshot"]["seq"], 41);
  EXPECT_EQ(j["positions"]["standby_applied"]["seq"], 43);
  EXPECT_TRUE(j["positions"]["primary_committed"]["seq"].is_null());
  EXPECT_TRUE(j["windows"]["not_durable"].is_null());
  const json& catch_up = j["windows"]["catch_up"];
  EXPECT_EQ(catch_up["from_seq"], 43);
  EXPECT_EQ(catch_up["to_seq"], 46);
  EXPECT_EQ(catch_up["entries"], 3);
  // Hand-worked from the tail (oplog-format.md §18): 44 REMOVE default kv/blk-0001 (4096 bytes),
  // 45 PUT_END tenant-b kv/blk-0002 (65536, one MEMORY replica), 46 PUT_END tenant-b
  // kv/placeholder (no payload: a placeholder object, nothing charged).
  EXPECT_EQ(catch_up["tenants"], json::parse(R"([
      {"tenant_id": "default", "keys": 1, "charged_bytes_delta": -4096, "objects_delta": -1},
      {"tenant_id": "tenant-b", "keys": 2, "charged_bytes_delta": 65536, "objects_delta": 2}])"));
  // (41, 46] adds 42 SEGMENT_MOUNT (not an object key) and 43 PUT_END default kv/blk-0001, which
  // 44 removes again: the key is touched, its charge comes and goes.
  const json& gap = j["windows"]["snapshot_gap"];
  EXPECT_EQ(gap["entries"], 5);
  EXPECT_EQ(gap["tenants"], json::parse(R"([
      {"tenant_id": "default", "keys": 1, "charged_bytes_delta": 0, "objects_delta": 0},
      {"tenant_id": "tenant-b", "keys": 2, "charged_bytes_delta": 65536, "objects_delta": 2}])"));
  EXPECT_TRUE(j["windows"]["not_durable"].is_null());
}

// Without a store there is no promotion to compare: the windows say so per tenant.
TEST(OpLogLag, WithoutAStoreTheTenantsAreNotComputed) {
  test::TempDir dir;
  const auto run = test::run_tool(
      "oplog-inspect", {"lag", "--oplog-file", test::source_path("snapshots/promote-worked/oplog.jsonl"),
                        "--cluster-id", "prod-a", "--standby-metrics", standby_metrics(dir, 43), "--format", "json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json j = json::parse(run.out);
  EXPECT_TRUE(j["windows"]["catch_up"]["tenants"].is_null());
  EXPECT_NE(j["windows"]["catch_up"]["tenants_note"].get<std::string>().find("needs --store"), std::string::npos);
  EXPECT_TRUE(j["windows"]["snapshot_gap"].is_null());  // S unknown
}

// A standby that applied nothing since its bootstrap reads 0: the window starts before the
// snapshot, and its tenants are counted from the snapshot (which holds the entries before it).
TEST(OpLogLag, AStandbyAtZeroIsCountedFromTheSnapshot) {
  test::TempDir dir;
  const auto run = test::run_tool("oplog-inspect", worked({"--standby-metrics", standby_metrics(dir, 0),
                                                           "--restore-time", "1795953600000", "--format", "json"}));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json j = json::parse(run.out);
  EXPECT_EQ(j["windows"]["catch_up"]["entries"], 46);
  EXPECT_EQ(j["windows"]["catch_up"]["tenants"], j["windows"]["snapshot_gap"]["tenants"]);
  EXPECT_NE(j["windows"]["catch_up"]["tenants_note"].get<std::string>().find("from the snapshot's sequence 41"),
            std::string::npos);
}

TEST(OpLogLag, GatesExitOneWhenExceededOrUnknown) {
  test::TempDir dir;
  const auto standby = standby_metrics(dir, 43);
  EXPECT_EQ(
      test::run_tool("oplog-inspect", worked({"--standby-metrics", standby, "--max-catch-up-entries", "3"})).exit_code,
      0);
  const auto over = test::run_tool("oplog-inspect", worked({"--standby-metrics", standby, "--max-catch-up-entries", "2",
                                                            "--max-snapshot-gap-entries", "5"}));
  EXPECT_EQ(over.exit_code, 1);
  EXPECT_NE(over.out.find("GATE: --max-catch-up-entries 2: the catch-up window is 3 entries"), std::string::npos)
      << over.out;
  EXPECT_EQ(over.out.find("--max-snapshot-gap-entries"), std::string::npos) << over.out;  // 5 is not over 5
  const auto unknown = test::run_tool("oplog-inspect", worked({"--max-catch-up-entries", "100"}));
  EXPECT_EQ(unknown.exit_code, 1);  // no standby: unknown is not safe
  EXPECT_NE(unknown.out.find("the catch-up window is unknown"), std::string::npos) << unknown.out;
}

// A running standby and a perf build's primary, read over HTTP from the stand-in.
TEST(OpLogLag, LiveMastersGiveTheStandbyAndAPrimaryLowerBound) {
  test::StandInProcess standby({"--ha-applied-sequence", "45", "--ha-standby-state", "3"});
  test::StandInProcess primary({"--ha-perf-durable-sequence", "46", "--ha-perf-committed-queue-depth", "4"});
  ASSERT_TRUE(standby.running() && primary.running());
  const auto run = test::run_tool("oplog-inspect",
                                  worked({"--standby", standby.url(), "--primary", primary.url(), "--format", "json"}));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json j = json::parse(run.out);
  EXPECT_EQ(j["positions"]["standby_applied"]["seq"], 45);
  EXPECT_EQ(j["positions"]["primary_committed"]["seq"], 50);
  EXPECT_TRUE(j["positions"]["primary_committed"]["lower_bound"].get<bool>());
  EXPECT_EQ(j["windows"]["not_durable"]["entries"], 4);
  EXPECT_EQ(j["windows"]["catch_up"]["entries"], 1);
}

TEST(OpLogLag, TheDurablePrefixFromARealEtcd) {
  MQ_REQUIRE_SERVICE(etcd, "ETCD_PORT");
  test::TempDir dir;
  // The worked scenario under a cluster id of its own: other tests share the etcd.
  const std::string cluster = "lag-" + std::to_string(::getpid());
  std::string scenario = test::read_file(test::source_path("snapshots/promote-worked/scenario.json"));
  for (auto at = scenario.find("\"prod-a\""); at != std::string::npos; at = scenario.find("\"prod-a\"", at)) {
    scenario.replace(at, 8, "\"" + cluster + "\"");
  }
  test::write_file(dir.path() / "scenario.json", scenario);
  const auto forged = test::run_tool("snapshot-forge", {(dir.path() / "scenario.json").string(), "--out",
                                                        (dir.path() / "store").string(), "--oplog-etcd", etcd, "-q"});
  ASSERT_EQ(forged.exit_code, 0) << forged.err;
  const auto run = test::run_tool("oplog-inspect", {"lag", "--oplog-etcd", etcd, "--cluster-id", cluster, "--store",
                                                    (dir.path() / "store").string(), "--format", "json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json j = json::parse(run.out);
  EXPECT_EQ(j["positions"]["durable"]["seq"], 46);
  EXPECT_NE(j["positions"]["durable"]["source"].get<std::string>().find("etcd " + etcd), std::string::npos);
  EXPECT_EQ(j["windows"]["snapshot_gap"]["entries"], 5);
}

TEST(OpLogLag, UsageAndDeadServices) {
  test::TempDir dir;
  const auto standby = standby_metrics(dir, 1);
  EXPECT_EQ(test::run_tool("oplog-inspect", worked({"--standby", "http://127.0.0.1:1", "--standby-metrics", standby}))
                .exit_code,
            2);
  const auto dead = test::run_tool("oplog-inspect", worked({"--standby", "http://127.0.0.1:1", "--timeout-ms", "300"}));
  EXPECT_EQ(dead.exit_code, 4) << dead.err;  // an unreachable standby is not "caught up"
  const auto misplaced = test::run_tool(
      "oplog-inspect", {"summary", "--oplog-file", test::source_path("snapshots/promote-worked/oplog.jsonl"),
                        "--cluster-id", "prod-a", "--standby-metrics", standby});
  EXPECT_EQ(misplaced.exit_code, 2);
  EXPECT_NE(misplaced.err.find("--standby-metrics is lag's flag"), std::string::npos) << misplaced.err;
  EXPECT_EQ(test::run_tool("oplog-inspect", {"lag"}).exit_code, 2);
  const auto scheme = test::run_tool("oplog-inspect", worked({"--primary", "ftp://x"}));
  EXPECT_EQ(scheme.exit_code, 2);
  EXPECT_NE(scheme.err.find("--primary 'ftp://x': expected http://HOST[:PORT]"), std::string::npos) << scheme.err;
  const auto device = test::run_tool("oplog-inspect", worked({"--standby-metrics", "/dev/null"}));
  EXPECT_EQ(device.exit_code, 3);
  EXPECT_NE(device.err.find("--standby-metrics"), std::string::npos) << device.err;
  test::write_file(dir.path() / "bad.prom", "ha_oplog_applied_sequence_id -3\n");
  const auto bad = test::run_tool("oplog-inspect", worked({"--standby-metrics", (dir.path() / "bad.prom").string()}));
  EXPECT_EQ(bad.exit_code, 3);
  EXPECT_NE(bad.err.find("line 1"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace moonquota::app
