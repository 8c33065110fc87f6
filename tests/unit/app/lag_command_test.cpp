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

// Seconds from sampled history (--db), hand-worked on saved inputs dated with --sampled-at: the
// durable prefix stays at 46; the standby is at 43 at T, catches up to 46 at T+60 s, falls back to
// 43 at T+120 s (a restarted standby).
TEST(OpLogLag, SecondsFromSampledPositions) {
  test::TempDir dir;
  const std::string db = (dir.path() / "db").string();
  const auto reading = [&](std::uint64_t applied, std::uint64_t at_ms, std::vector<std::string> extra = {}) {
    auto args = worked({"--standby-metrics", standby_metrics(dir, applied), "--db", db, "--sampled-at",
                        std::to_string(at_ms), "--restore-time", "1795953600000", "--format", "json"});
    args.insert(args.end(), extra.begin(), extra.end());
    return test::run_tool("oplog-inspect", args);
  };
  constexpr std::uint64_t t = 1795953600000;
  const auto first = reading(43, t);
  ASSERT_EQ(first.exit_code, 0) << first.err;
  const json j1 = json::parse(first.out);
  EXPECT_TRUE(j1["windows"]["catch_up"]["age_ms"].is_null());  // one sample: nothing to date it by
  EXPECT_NE(j1["windows"]["catch_up"]["age_note"].get<std::string>().find("no earlier sample"), std::string::npos);
  EXPECT_EQ(j1["durable_advanced"], json::parse(R"({"at_ms": 1795953600000, "lower_bound": true})"));
  const json j2 = json::parse(reading(46, t + 60'000).out);
  EXPECT_EQ(j2["windows"]["catch_up"]["entries"], 0);
  EXPECT_EQ(j2["windows"]["catch_up"]["age_ms"], 0);  // caught up
  // The snapshot (41) is behind every sample of the durable position (46): at least 60 s.
  EXPECT_EQ(j2["windows"]["snapshot_gap"]["age_ms"], 60'000);
  EXPECT_TRUE(j2["windows"]["snapshot_gap"]["age_lower_bound"].get<bool>());
  const auto third = reading(43, t + 120'000, {"--max-catch-up-seconds", "100"});
  EXPECT_EQ(third.exit_code, 1);  // more than 120 s: over 100
  const json j3 = json::parse(third.out);
  EXPECT_EQ(j3["windows"]["catch_up"]["age_ms"], 120'000);
  EXPECT_TRUE(j3["windows"]["catch_up"]["age_lower_bound"].get<bool>());
  EXPECT_EQ(j3["broken_gates"][0],
            "--max-catch-up-seconds 100: the standby applied the durable position of more "
            "than 120 s ago");
  // 200 s is not exceeded, but "more than 120 s" is not known to be within it either: unknown.
  const auto unknown = reading(43, t + 120'000, {"--max-catch-up-seconds", "200"});
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_NE(unknown.out.find("the catch-up age is unknown (at least 120 s"), std::string::npos) << unknown.out;
  // A reading dated before the others sees only the samples up to it.
  const json early = json::parse(reading(43, t + 30'000).out);
  EXPECT_EQ(early["windows"]["catch_up"]["age_ms"], 30'000);
  // The textfile says the same.
  auto prom_args = worked({"--standby-metrics", standby_metrics(dir, 43), "--db", db, "--sampled-at",
                           std::to_string(t + 180'000), "--format", "prom"});
  const auto prom = test::run_tool("oplog-inspect", prom_args);
  ASSERT_EQ(prom.exit_code, 0) << prom.err;
  EXPECT_NE(prom.out.find("moonquota_ha_window_seconds{window=\"catch_up\",cluster=\"prod-a\"} 180.000\n"),
            std::string::npos)
      << prom.out;
  EXPECT_NE(prom.out.find("moonquota_ha_position_sequence{position=\"standby_applied\",cluster=\"prod-a\"} 43\n"),
            std::string::npos);
  EXPECT_NE(prom.out.find("moonquota_ha_window_tenant_charged_bytes_delta{window=\"catch_up\",tenant_id=\"tenant-b\","
                          "cluster=\"prod-a\"} 65536\n"),
            std::string::npos);
  EXPECT_NE(prom.out.find("moonquota_ha_last_sample_success{cluster=\"prod-a\"} 1\n"), std::string::npos);
}

TEST(OpLogLag, SecondsUsageAndAFailedReadingAsATextfile) {
  test::TempDir dir;
  const auto no_db = test::run_tool("oplog-inspect", worked({"--max-catch-up-seconds", "5"}));
  EXPECT_EQ(no_db.exit_code, 2);
  EXPECT_NE(no_db.err.find("--max-catch-up-seconds needs --db"), std::string::npos) << no_db.err;
  const auto live = test::run_tool("oplog-inspect", worked({"--standby", "http://127.0.0.1:1", "--sampled-at", "5"}));
  EXPECT_EQ(live.exit_code, 2);
  EXPECT_NE(live.err.find("--sampled-at dates saved inputs"), std::string::npos) << live.err;
  // Regressions: CLI11 wrapped "-1" into 2^64-1 and read "010" as octal 8.
  const auto negative = test::run_tool("oplog-inspect", worked({"--sampled-at", "-1"}));
  EXPECT_EQ(negative.exit_code, 2);
  EXPECT_NE(negative.err.find("'-1' is not an instant in ms since the epoch"), std::string::npos) << negative.err;
  EXPECT_EQ(test::run_tool("oplog-inspect", worked({"--sampled-at", "253402300800000"})).exit_code, 2);
  const auto leading_zero = test::run_tool("oplog-inspect", worked({"--sampled-at", "010", "--format", "json"}));
  ASSERT_EQ(leading_zero.exit_code, 0) << leading_zero.err;
  EXPECT_EQ(json::parse(leading_zero.out)["sampled_at_ms"], 10);
  EXPECT_EQ(test::run_tool("oplog-inspect", worked({"--db", ""})).exit_code, 2);
  const auto other = test::run_tool(
      "oplog-inspect",
      {"summary", "--oplog-file", test::source_path("snapshots/promote-worked/oplog.jsonl"), "--format", "prom"});
  EXPECT_EQ(other.exit_code, 2);
  const std::string out = (dir.path() / "lag.prom").string();
  const auto dead = test::run_tool("oplog-inspect", worked({"--standby", "http://127.0.0.1:1", "--timeout-ms", "300",
                                                            "--format", "prom", "--output", out}));
  EXPECT_EQ(dead.exit_code, 4);
  const std::string text = test::read_file(out);
  EXPECT_NE(text.find("moonquota_ha_last_sample_success{cluster=\"prod-a\"} 0\n"), std::string::npos) << text;
  EXPECT_NE(text.find("moonquota_ha_last_error_info{exit_code=\"4\",message=\""), std::string::npos) << text;
}

// A real etcd whose OpLog grows between two readings: the standby stays at 46 while the durable
// prefix moves to 47, so it applied the durable position of the first reading.
TEST(OpLogLag, TheOpLogGrowsInEtcdWhileSampled) {
  MQ_REQUIRE_SERVICE(etcd, "ETCD_PORT");
  test::TempDir dir;
  const std::string cluster = "lag-grow-" + std::to_string(::getpid());
  json scenario = json::parse(test::read_file(test::source_path("snapshots/promote-worked/scenario.json")));
  scenario["cluster_id"] = cluster;
  scenario["oplog"]["cluster_id"] = cluster;
  const auto forge = [&](const json& s) {
    test::write_file(dir.path() / "scenario.json", s.dump());
    return test::run_tool("snapshot-forge", {(dir.path() / "scenario.json").string(), "--out",
                                             (dir.path() / "store").string(), "--oplog-etcd", etcd, "--force", "-q"});
  };
  ASSERT_EQ(forge(scenario).exit_code, 0);
  const std::string db = (dir.path() / "db").string();
  const auto reading = [&] {
    return test::run_tool("oplog-inspect", {"lag", "--oplog-etcd", etcd, "--cluster-id", cluster, "--standby-metrics",
                                            standby_metrics(dir, 46), "--db", db, "--format", "json"});
  };
  const auto first = reading();
  ASSERT_EQ(first.exit_code, 0) << first.err;
  const json j1 = json::parse(first.out);
  EXPECT_EQ(j1["positions"]["durable"]["seq"], 46);
  ::usleep(1'200'000);
  scenario["oplog"]["batches"].push_back(json::parse(R"({"entries": [
      {"op": "PUT_END", "tenant": "tenant-b", "key": "kv/blk-0003", "payload_form": "type_literal",
       "object": {"client_first": 1, "client_second": 2, "size": 4096,
                  "replicas": [{"id": 15, "kind": "MEMORY", "size": 4096, "address": 139888630431744,
                                "endpoint": "seg-node1", "status": "COMPLETE"}]}}]})"));
  ASSERT_EQ(forge(scenario).exit_code, 0);
  const auto second = reading();
  ASSERT_EQ(second.exit_code, 0) << second.err;
  const json j2 = json::parse(second.out);
  EXPECT_EQ(j2["positions"]["durable"]["seq"], 47);
  EXPECT_EQ(j2["windows"]["catch_up"]["entries"], 1);
  const std::uint64_t t1 = j1["sampled_at_ms"], t2 = j2["sampled_at_ms"];
  EXPECT_EQ(j2["windows"]["catch_up"]["age_ms"], t2 - t1);  // the durable position of the first reading
  EXPECT_GE(t2 - t1, 1200u);
  EXPECT_FALSE(j2["windows"]["catch_up"]["age_lower_bound"].get<bool>());
  EXPECT_EQ(j2["durable_advanced"]["at_ms"], t2);  // first seen at 47 now
  EXPECT_FALSE(j2["durable_advanced"]["lower_bound"].get<bool>());
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
