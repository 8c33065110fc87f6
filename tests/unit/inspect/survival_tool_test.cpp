// `snapshot-inspect survival` run as a user runs it (the real binary) on the golden store
// snapshots/survival (scenario.json beside it; created_at C = 1787375520123, now = C + 20 s).
// Every expected number below is worked out by hand from the scenario (snapshots/survival/README.md):
//   t-hot  h1 1000 B x1 MEMORY lease C+3s; h2 2000 B x2 MEMORY lease C+10s; h3 500 B MEMORY+DISK lease C+45s
//   t-warm w1 4000 B lease C+5m; w2 3000 B lease C+2h; w3 100 B MEMORY PROCESSING (never kept)
//   t-cold c1 800 B lease C (exactly at delay 0); c2 600 B DISK only lease C+1s; c3 50 B lease C+1d
//   t-gone g1 10 B lease C-5s
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/run_tool.hpp"
#include "support/snapshot_test_support.hpp"

namespace moonquota::inspect {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr std::uint64_t k_created = 1787375520123ULL;

std::vector<std::string> survival_args(std::vector<std::string> extra) {
  std::vector<std::string> args = {"survival", "--store", test::source_path("snapshots/survival/store"),
                                   "--restore-time", std::to_string(k_created + 20'000)};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

json run_json(std::vector<std::string> extra) {
  extra.insert(extra.end(), {"--format", "json"});
  const auto run = test::run_tool("snapshot-inspect", survival_args(extra));
  EXPECT_EQ(run.exit_code, 0) << run.err;
  return json::parse(run.out);
}

const json& tenant_at(const json& point, const std::string& tenant) {
  for (const auto& t : point["tenants"]) {
    if (t["tenant_id"] == tenant) return t;
  }
  ADD_FAILURE() << "no tenant " << tenant;
  static const json k_none;
  return k_none;
}

struct Row {
  std::uint64_t objects_kept, bytes_kept, charged_bytes, objects_dropped, bytes_dropped;
};

void expect_row(const json& j, const Row& r, const std::string& where) {
  EXPECT_EQ(j["objects_kept"], r.objects_kept) << where;
  EXPECT_EQ(j["bytes_kept"], r.bytes_kept) << where;
  EXPECT_EQ(j["charged_bytes"], r.charged_bytes) << where;
  EXPECT_EQ(j["objects_dropped"], r.objects_dropped) << where;
  EXPECT_EQ(j["bytes_dropped"], r.bytes_dropped) << where;
}

TEST(SurvivalTool, HandWorkedTableOfTheSurvivalStore) {
  const json doc = run_json({});
  EXPECT_EQ(doc["schema"], "snapshot-inspect-survival/1");
  EXPECT_EQ(doc["path"], "restore");
  EXPECT_EQ(doc["lease_model"], "upstream");
  EXPECT_EQ(doc["snapshot"]["created_at_ms"], k_created);
  EXPECT_EQ(doc["snapshot"]["age_now_ms"], 20'000);
  // The default points plus `now` (20 s), by instant.
  const std::vector<std::int64_t> delays = {0, 1000, 2000, 5000, 10'000, 20'000, 30'000, 60'000, 300'000, 3'600'000};
  ASSERT_EQ(doc["points"].size(), delays.size());
  for (std::size_t i = 0; i < delays.size(); ++i) {
    EXPECT_EQ(doc["points"][i]["delay_ms"], delays[i]) << i;
    EXPECT_EQ(doc["points"][i]["at_ms"], k_created + static_cast<std::uint64_t>(delays[i])) << i;
    EXPECT_EQ(doc["points"][i]["is_now"], i == 5) << i;
  }
  // Totals per point (objects kept, bytes kept, charged, objects dropped, bytes dropped).
  const std::vector<Row> totals = {
      {7, 11150, 12550, 3, 910},   // 0: w3 (non-COMPLETE), c1 (lease == C), g1 (lease < C) dropped
      {6, 10550, 12550, 4, 1510},  // 1s: c2 (DISK only, charge 0) at exactly its deadline
      {6, 10550, 12550, 4, 1510},  // 2s
      {5, 9550, 11550, 5, 2510},   // 5s: h1 (deadline 3s)
      {4, 7550, 7550, 6, 4510},    // 10s: h2 at exactly its deadline
      {4, 7550, 7550, 6, 4510},    // now = 20s
      {4, 7550, 7550, 6, 4510},    // 30s
      {3, 7050, 7050, 7, 5010},    // 1m: h3 (deadline 45s)
      {2, 3050, 3050, 8, 9010},    // 5m: w1 at exactly its deadline
      {2, 3050, 3050, 8, 9010},    // 1h: w2 (2h) and c3 (1d) still kept
  };
  for (std::size_t i = 0; i < totals.size(); ++i) {
    expect_row(doc["points"][i]["totals"], totals[i], "totals at point " + std::to_string(i));
  }
  const auto& at_0 = doc["points"][0];
  expect_row(tenant_at(at_0, "t-hot"), {3, 3500, 5500, 0, 0}, "t-hot at 0");
  expect_row(tenant_at(at_0, "t-warm"), {2, 7000, 7000, 1, 100}, "t-warm at 0");
  expect_row(tenant_at(at_0, "t-cold"), {2, 650, 50, 1, 800}, "t-cold at 0");
  expect_row(tenant_at(at_0, "t-gone"), {0, 0, 0, 1, 10}, "t-gone at 0");
  expect_row(tenant_at(doc["points"][3], "t-hot"), {2, 2500, 4500, 1, 1000}, "t-hot at 5s");
  expect_row(tenant_at(doc["points"][4], "t-hot"), {1, 500, 500, 2, 3000}, "t-hot at 10s");
  expect_row(tenant_at(doc["points"][8], "t-warm"), {1, 3000, 3000, 2, 4100}, "t-warm at 5m");
  // Share of the charge kept, permille, floor: t-hot 4500/5500, totals 12550/13360 and 3050/13360.
  EXPECT_EQ(tenant_at(doc["points"][3], "t-hot")["share_kept_permille"], 818);
  EXPECT_EQ(doc["points"][0]["totals"]["share_kept_permille"], 939);
  EXPECT_EQ(doc["points"][9]["totals"]["share_kept_permille"], 228);
  EXPECT_EQ(tenant_at(at_0, "t-cold")["share_kept_permille"], 58);  // 50 / 850
  // Half / all of the charge at delay 0 gone.
  std::map<std::string, std::pair<json, json>> gone;
  for (const auto& t : doc["tenants"]) gone[t["tenant_id"]] = {t["half_gone_after_ms"], t["all_gone_after_ms"]};
  EXPECT_EQ(gone["t-hot"], std::make_pair(json(10'000), json(60'000)));     // 500 <= 5500/2 at 10s, 0 at 1m
  EXPECT_EQ(gone["t-warm"], std::make_pair(json(300'000), json(nullptr)));  // 3000 <= 3500 at 5m
  EXPECT_EQ(gone["t-cold"], std::make_pair(json(nullptr), json(nullptr)));  // c3 (50 B) kept to 1d
  EXPECT_EQ(gone["t-gone"], std::make_pair(json(0), json(0)));              // nothing charged at delay 0
}

// Leases ignored: only w3 (PROCESSING) is dropped, at every point.
TEST(SurvivalTool, KeepModelDropsOnlyTheNonCompleteObject) {
  const json doc = run_json({"--lease-model", "keep", "--at", "0,1h,@" + std::to_string(k_created + 86'400'000)});
  EXPECT_EQ(doc["lease_model"], "keep");
  ASSERT_EQ(doc["points"].size(), 4u);  // 0, now (20s), 1h, 1d
  for (const auto& p : doc["points"]) expect_row(p["totals"], {9, 11960, 13360, 1, 100}, p["label"]);
}

// Points exactly at a deadline drop (now >= lease_timeout); one millisecond earlier keeps.
TEST(SurvivalTool, ExactlyAtTheDeadlineDrops) {
  const json doc = run_json({"--at", "9999ms,10s"});
  ASSERT_EQ(doc["points"].size(), 4u);  // 0, 9999ms, 10s, now
  expect_row(tenant_at(doc["points"][1], "t-hot"), {2, 2500, 4500, 1, 1000}, "t-hot at 9999ms");
  expect_row(tenant_at(doc["points"][2], "t-hot"), {1, 500, 500, 2, 3000}, "t-hot at 10s");
}

TEST(SurvivalTool, NdjsonHasOneLinePerPointAndTenant) {
  const auto run = test::run_tool("snapshot-inspect", survival_args({"--format", "ndjson", "--at", "0,5m"}));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  std::vector<json> lines;
  std::size_t start = 0;
  while (start < run.out.size()) {
    const std::size_t end = run.out.find('\n', start);
    ASSERT_NE(end, std::string::npos);
    lines.push_back(json::parse(run.out.substr(start, end - start)));
    start = end + 1;
  }
  ASSERT_EQ(lines.size(), 3u * 4u);  // points 0, now, 5m x 4 tenants
  EXPECT_EQ(lines[0]["schema"], "snapshot-inspect-survival/1");
  EXPECT_EQ(lines[0]["tenant_id"], "t-cold");
  EXPECT_EQ(lines[11]["tenant_id"], "t-warm");
  EXPECT_EQ(lines[11]["delay_ms"], 300'000);
  EXPECT_EQ(lines[11]["charged_bytes"], 3000);
}

std::size_t count(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

TEST(SurvivalTool, HtmlIsOnePageWithOneSvgPerTenant) {
  const auto run = test::run_tool("snapshot-inspect", survival_args({"--format", "html"}));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(count(run.out, "<svg "), 4u);
  EXPECT_EQ(count(run.out, "</svg>"), 4u);
  EXPECT_EQ(count(run.out, "<html"), 1u);
  EXPECT_EQ(count(run.out, "</html>"), 1u);
  for (const char* id : {"survival-0", "survival-1", "survival-2", "survival-3"}) {
    EXPECT_EQ(count(run.out, std::string("id=\"") + id + "\""), 1u) << id;
  }
  EXPECT_EQ(count(run.out, "<script"), 0u);
  EXPECT_EQ(count(run.out, "<table>"), count(run.out, "</table>"));
}

// Audit fidelity item: the latest snapshot a restore rejects (here a corrupt metadata file) is not
// survival's snapshot: like quota-rebuild it reads the next candidate a restore accepts, and says so.
TEST(SurvivalTool, ARejectedLatestFallsBackToTheCandidateTheRestoreRestores) {
  test::TempDir dir;
  fs::copy(test::source_path("snapshots/inspect-diff-a/store"), dir.path() / "store", fs::copy_options::recursive);
  const fs::path metadata = dir.path() / "store/mooncake_master_snapshot/mooncake_cluster/20260822_051200_000/metadata";
  std::string bytes = test::read_file(metadata);
  ASSERT_GT(bytes.size(), 40u);
  bytes[30] = static_cast<char>(bytes[30] ^ 0xff);
  {
    std::ofstream out(metadata, std::ios::binary | std::ios::trunc);
    out << bytes;
  }
  const std::string store = (dir.path() / "store").string();
  const std::string at = "1787400000000";
  const auto survival = test::run_tool(
      "snapshot-inspect", {"survival", "--store", store, "--restore-time", at, "--at", "now", "--format", "json"});
  ASSERT_EQ(survival.exit_code, 0) << survival.err;
  const auto rebuild = test::run_tool("quota-rebuild", {"--store", store, "--restore-time", at, "--format", "json"});
  ASSERT_EQ(rebuild.exit_code, 0) << rebuild.err;
  const json s = json::parse(survival.out);
  const json r = json::parse(rebuild.out);
  EXPECT_EQ(s["restored_snapshot_id"], "20260822_050200_000") << survival.out;
  EXPECT_EQ(s["source"]["snapshot_id"], "20260822_051200_000");  // the latest, inspected and rejected
  EXPECT_FALSE(s["master"]["restores_inspected"].get<bool>());
  EXPECT_EQ(s["master"]["restored_snapshot_id"], "20260822_050200_000");
  const auto text = test::run_tool("snapshot-inspect", {"survival", "--store", store, "--restore-time", at});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("of snapshot 20260822_050200_000, the candidate a restore accepts"), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("=> the master restores 20260822_050200_000"), std::string::npos) << text.out;
  // At `now` (= --restore-time), survival's charge per tenant is the rebuilt table's.
  std::map<std::string, std::uint64_t> rebuilt;
  for (const auto& t : r["tenants"]) rebuilt[t["tenant_id"]] = t["charged_bytes"];
  std::map<std::string, std::uint64_t> kept;
  for (const auto& point : s["points"]) {
    if (!point["is_now"].get<bool>()) continue;
    for (const auto& t : point["tenants"]) {
      if (t["charged_bytes"].get<std::uint64_t>() > 0) kept[t["tenant_id"]] = t["charged_bytes"];
    }
  }
  for (auto it = rebuilt.begin(); it != rebuilt.end();) it = it->second == 0 ? rebuilt.erase(it) : std::next(it);
  EXPECT_FALSE(kept.empty());
  EXPECT_EQ(kept, rebuilt);
}

TEST(SurvivalTool, BadValuesExitTwoNamingTheValue) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--at", "1s,5x"}, "--at '5x'"},
      {{"--at", "1787375520123"}, "--at '1787375520123' needs a unit"},
      {{"--at", "@soon"}, "--at '@soon'"},
      {{"--at", ""}, "--at '' has an empty item"},
      {{"--lease-model", "forever"}, "--lease-model: forever not in {upstream,keep}"},
      {{"--path", "failover"}, "--path: failover not in {restore,promote}"},
      {{"--path", "promote"}, "--path promote needs --oplog-etcd or --oplog-file"},
      {{"--oplog-file", "x.jsonl"}, "--path restore reads no OpLog"},
      {{"--until-seq", "5"}, "--path restore reads no OpLog"},
      {{"--path", "promote", "--oplog-file", "x", "--until-seq", "five"}, "--until-seq"},
  };
  for (const auto& [extra, needle] : cases) {
    const auto run = test::run_tool("snapshot-inspect", survival_args(extra));
    EXPECT_EQ(run.exit_code, 2) << needle << ": " << run.err;
    EXPECT_NE(run.err.find(needle), std::string::npos) << run.err;
  }
}

// The genuine stores were written by real masters whose leases end about an hour after the
// snapshot (read from their dumps: s1 and s7 at created_at + 3,600,000 ms, r1 at created_at +
// 3,599,869 ms): everything is kept up to 3599 s, nothing at 1 h. `now` is set to created_at.
TEST(SurvivalTool, GenuineStoresKeepEverythingUntilTheDeadline) {
  const std::vector<std::pair<std::string, std::string>> stores = {
      {"snapshots/genuine/s1_single_segment_basic/store", "1795953100543"},
      {"snapshots/genuine/s7_spec_worked_example/store", "1795953115173"},
      {"snapshots/genuine-live/r1_quiescent_orphan/store", "1795956295488"}};
  for (const auto& [store, created] : stores) {
    const auto run =
        test::run_tool("snapshot-inspect", {"survival", "--store", test::source_path(store), "--restore-time", created,
                                            "--at", "0,1s,10s,1m,3599s,1h", "--format", "json"});
    ASSERT_EQ(run.exit_code, 0) << store << ": " << run.err;
    const json doc = json::parse(run.out);
    ASSERT_EQ(doc["points"].size(), 7u) << store;  // 0, now (= 0), 1s, 10s, 1m, 3599s, 1h
    const json& first = doc["points"][0]["totals"];
    EXPECT_GT(first["objects_kept"].get<std::uint64_t>(), 0u) << store;
    for (std::size_t i = 0; i < 6; ++i) {
      EXPECT_EQ(doc["points"][i]["totals"]["objects_dropped"], 0) << store << " point " << i;
      EXPECT_EQ(doc["points"][i]["totals"], first) << store << " point " << i;
    }
    const json& last = doc["points"][6]["totals"];
    EXPECT_EQ(last["objects_kept"], 0) << store;
    EXPECT_EQ(last["objects_dropped"], first["objects_kept"]) << store;
    EXPECT_EQ(last["charged_bytes_dropped"], first["charged_bytes"]) << store;
  }
}

}  // namespace
}  // namespace moonquota::inspect
