// The quota-reconcile renderers over one report with every verdict (the genuine r1 metadata and
// testdata/live/r1_every_verdict.json), plus a history of runs.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "reconcile/prometheus_text.hpp"
#include "reconcile/reconcile_run.hpp"
#include "report/reconcile/reconcile_history.hpp"
#include "report/reconcile/reconcile_html.hpp"
#include "report/reconcile/reconcile_json.hpp"
#include "report/reconcile/reconcile_markdown.hpp"
#include "report/reconcile/reconcile_prom.hpp"
#include "report/reconcile/reconcile_text.hpp"
#include "support/local_store.hpp"
#include "support/run_tool.hpp"
#include "util/text_encoding.hpp"

namespace moonquota::report {
namespace {

const std::string k_r1 = "snapshots/genuine-live/r1_quiescent_orphan/";

reconcile::ReconcileReport every_verdict_report() {
  reconcile::ReconcileRequest r;
  r.metadata.selection.store_dir = test::source_path(k_r1 + "store");
  r.metadata.policy_file = test::source_path(k_r1 + "policy.yaml");
  r.metadata.restore.restore_time_ms = 1795956296529;
  r.live.list_files = {test::source_path("testdata/live/r1_every_verdict.json")};
  r.live.sampled_at_ms = 1795956295488 + 90'000;
  auto report = reconcile::run_reconcile(test::local_files(), r);
  EXPECT_TRUE(report.ok()) << report.status().message();
  return std::move(report).value();
}

history::TrendTable three_runs(const reconcile::ReconcileReport& report) {
  std::vector<history::RunRecord> runs;
  for (std::uint64_t i = 0; i < 3; ++i) {
    auto run = history::make_run_record(report, 0);
    run.run_at_ms = 1795956295488 + i * 3'600'000;
    for (auto& p : run.tenants) {
      p.delta_bytes *= static_cast<std::int64_t>(i + 1);
      p.unexplained_bytes *= static_cast<std::int64_t>(i + 1);
    }
    runs.push_back(run);
  }
  return history::analyse_trends(runs, 3, runs.back().model);
}

// Minimal XML well-formedness: every element closed in order, attributes quoted, no stray '<'.
bool well_formed(const std::string& html, std::string& why) {
  std::vector<std::string> stack;
  std::size_t pos = html.find("<html");
  while ((pos = html.find('<', pos)) != std::string::npos) {
    const std::size_t end = html.find('>', pos);
    if (end == std::string::npos) return why = "unclosed tag", false;
    std::string tag = html.substr(pos + 1, end - pos - 1);
    pos = end + 1;
    if (tag.empty()) return why = "empty tag", false;
    if (tag.back() == '/') continue;  // self-closing
    if (tag.front() == '/') {
      const std::string name = tag.substr(1);
      if (stack.empty() || stack.back() != name) return why = "mismatched </" + name + ">", false;
      stack.pop_back();
      continue;
    }
    const std::string name = tag.substr(0, tag.find_first_of(" \t\n"));
    if (std::count(tag.begin(), tag.end(), '"') % 2 != 0) return why = "unbalanced quotes in <" + name + ">", false;
    stack.push_back(name);
  }
  if (!stack.empty()) return why = "unclosed <" + stack.back() + ">", false;
  return true;
}

TEST(ReconcileJson, ContractFieldsInOrder) {
  auto report = every_verdict_report();
  auto j = reconcile_report_json(report, nullptr);
  std::vector<std::string> keys;
  for (auto it = j.begin(); it != j.end(); ++it) keys.push_back(it.key());
  ASSERT_GE(keys.size(), 6u);
  EXPECT_EQ((std::vector<std::string>(keys.begin(), keys.begin() + 6)),
            (std::vector<std::string>{"schema", "metadata", "live", "tolerance_bytes", "summary", "tenants"}));
  EXPECT_EQ(j["schema"], "quota-reconcile/1");
  EXPECT_EQ(j["metadata"]["snapshot_id"], "20261129_124455_488");
  EXPECT_EQ(j["metadata"]["age_ms"], 90000);
  EXPECT_EQ(j["live"]["sampled_at_ms"], 1795956385488u);
  EXPECT_EQ(j["summary"]["tenants"], 7);
  EXPECT_EQ(j["summary"]["match"], 2);
  EXPECT_EQ(j["summary"]["drift"], 5);
  EXPECT_EQ(j["summary"]["max_abs_delta_bytes"], 4096);
  const auto& alpha = j["tenants"][1];
  std::vector<std::string> tkeys;
  for (auto it = alpha.begin(); it != alpha.end(); ++it) tkeys.push_back(it.key());
  EXPECT_EQ((std::vector<std::string>(tkeys.begin(), tkeys.begin() + 6)),
            (std::vector<std::string>{"tenant_id", "expected_charged_bytes", "live_charged_bytes", "delta_bytes",
                                      "verdict", "within_tolerance"}));
  EXPECT_EQ(alpha["delta_bytes"], 4096);
  EXPECT_EQ(alpha["verdict"], "live_over");
  EXPECT_EQ(j["tenants"][2]["delta_bytes"], -64);
  EXPECT_TRUE(j["tenants"][1]["delta_bytes"].is_number_integer());
}

TEST(ReconcileText, ColourOnlyWhenAsked) {
  auto report = every_verdict_report();
  std::ostringstream plain, colour;
  render_reconcile_text(report, nullptr, {}, plain);
  TextOptions on;
  on.colour = true;
  render_reconcile_text(report, nullptr, on, colour);
  EXPECT_EQ(plain.str().find('\x1b'), std::string::npos);
  EXPECT_NE(colour.str().find("\x1b[31m"), std::string::npos);
  EXPECT_NE(plain.str().find("metadata is 0h 01m 30s older than the live sample"), std::string::npos);
}

TEST(ReconcileMarkdown, TicketShowsOnlyDriftAndEscapesCells) {
  auto report = every_verdict_report();
  std::ostringstream md;
  render_reconcile_markdown(report, nullptr, md);
  EXPECT_NE(md.str().find("# Tenant quota reconciliation: DRIFT"), std::string::npos);
  EXPECT_NE(md.str().find("| alpha | 840257 | 844353 |"), std::string::npos) << md.str();
  EXPECT_EQ(md.str().find("| Team"), std::string::npos) << "matching tenants are left out of a drift ticket";
}

TEST(ReconcileProm, OurOwnParserReadsItBack) {
  auto report = every_verdict_report();
  auto trends = three_runs(report);
  std::ostringstream prom;
  render_reconcile_prom(report, &trends, 1795956295488, 1, "cell \"a\"", prom);
  auto parsed = reconcile::parse_prometheus_text(prom.str());
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  int verdict_series = 0;
  bool alpha_delta = false, alpha_persistent = false, success = false;
  for (const auto& s : parsed->samples) {
    const std::string* t = s.label("tenant_id");
    if (s.name == "moonquota_reconcile_verdict") ++verdict_series;
    if (s.name == "moonquota_reconcile_delta_bytes" && t && *t == "alpha") alpha_delta = s.value_text == "4096";
    if (s.name == "moonquota_reconcile_persistent" && t && *t == "alpha") alpha_persistent = s.value_text == "1";
    if (s.name == "moonquota_reconcile_run_success") success = s.value_text == "1";
    // Every series names the cluster (two cells' textfiles in one node_exporter directory).
    ASSERT_NE(s.label("cluster"), nullptr) << s.name;
    EXPECT_EQ(*s.label("cluster"), "cell \"a\"") << s.name;
    if (s.name == "moonquota_reconcile_verdict" && t && *t == "Team \"Q\" \\ x") {
      EXPECT_EQ(*s.label("verdict"), "match");
    }
  }
  EXPECT_EQ(verdict_series, 7);
  EXPECT_TRUE(alpha_delta);
  EXPECT_TRUE(alpha_persistent);
  EXPECT_TRUE(success);
  EXPECT_EQ(parsed->types.at("moonquota_reconcile_delta_bytes"), "gauge");

  std::ostringstream failure;
  render_reconcile_prom_failure(1795956295488, 4, "GET \"x\": refused", "default", failure);
  auto f = reconcile::parse_prometheus_text(failure.str());
  ASSERT_TRUE(f.ok()) << f.status().message();
  EXPECT_NE(failure.str().find("moonquota_reconcile_run_success{cluster=\"default\"} 0"), std::string::npos);
  EXPECT_NE(failure.str().find("moonquota_reconcile_exit_code{cluster=\"default\"} 4"), std::string::npos);
  EXPECT_NE(failure.str().find("moonquota_reconcile_error{message=\"GET \\\"x\\\": refused\",cluster=\"default\"} 1"),
            std::string::npos)
      << failure.str();
  EXPECT_NE(failure.str().find("moonquota_reconcile_last_run_timestamp_seconds{cluster=\"default\"} 1795956295.488"),
            std::string::npos);
}

TEST(ReconcileHtml, SelfContainedWellFormedWithChartAndARowPerTenant) {
  auto report = every_verdict_report();
  auto trends = three_runs(report);
  const std::vector<const history::TrendTable*> variants = {nullptr, &trends};
  for (const history::TrendTable* t : variants) {
    std::ostringstream html;
    render_reconcile_html(report, t, "", html);
    const std::string page = html.str();
    std::string why;
    EXPECT_TRUE(well_formed(page, why)) << why;
    EXPECT_NE(page.find("<svg id=\"drift-chart\""), std::string::npos);
    EXPECT_TRUE(t == nullptr || page.find("<polyline") != std::string::npos);
    std::size_t rows = 0;
    for (std::size_t p = 0; (p = page.find("<tr class=\"tenant\">", p)) != std::string::npos; ++p) ++rows;
    EXPECT_EQ(rows, report.tenants.size());
    EXPECT_EQ(page.find("http://www.w3.org/2000/svg"), page.find("http://"))
        << "the only URL is the SVG namespace: no network reference";
    EXPECT_EQ(page.find("<script"), std::string::npos);
    EXPECT_NE(page.find("Team &quot;Q&quot; \\ x"), std::string::npos);
  }
}

// No network reference of any kind: the only URL in an attribute is the SVG namespace.
void expect_no_external_reference(const std::string& page) {
  for (const char* banned : {"src=", "href=", "url(", "@import", "<link", "<script", "<img", "<iframe", "<object",
                             "<embed", "https://", "//cdn", "<base"}) {
    EXPECT_EQ(page.find(banned), std::string::npos) << "found " << banned;
  }
  for (std::size_t p = 0; (p = page.find("=\"http", p)) != std::string::npos; ++p) {
    EXPECT_EQ(page.compare(p - 5, 40, "xmlns=\"http://www.w3.org/2000/svg\" width"), 0) << page.substr(p - 20, 60);
  }
}

TEST(ReconcileHtml, HostileTenantIdsAreEscapedAndTheSourceUrlIsOnlyText) {
  auto report = every_verdict_report();
  report.live.source = "http://127.0.0.1:9003";
  report.tenants[0].tenant_id = "<script>alert(1)</script>&'";
  report.tenants[1].tenant_id = std::string("raw\x01\xff\xfe", 6);  // control byte, not UTF-8
  auto trends = three_runs(report);
  std::ostringstream html;
  render_reconcile_html(report, &trends, "", html);
  const std::string page = html.str();
  std::string why;
  EXPECT_TRUE(well_formed(page, why)) << why;
  EXPECT_EQ(page.find("<script"), std::string::npos);
  EXPECT_NE(page.find("&lt;script&gt;alert(1)&lt;/script&gt;&amp;&#39;"), std::string::npos);
  EXPECT_NE(page.find("raw\\x01\\xff\\xfe"), std::string::npos);
  EXPECT_TRUE(util::is_valid_utf8(page));
  EXPECT_NE(page.find("<td>http://127.0.0.1:9003</td>"), std::string::npos);
  expect_no_external_reference(page);
  std::size_t rows = 0;
  for (std::size_t p = 0; (p = page.find("<tr class=\"tenant\">", p)) != std::string::npos; ++p) ++rows;
  EXPECT_EQ(rows, report.tenants.size());
  std::ostringstream history;
  render_history_html(trends, std::nullopt, history);
  EXPECT_TRUE(well_formed(history.str(), why)) << why;
  EXPECT_TRUE(util::is_valid_utf8(history.str()));
  expect_no_external_reference(history.str());
}

TEST(ReconcileHistory, TextJsonAndHtml) {
  auto report = every_verdict_report();
  auto trends = three_runs(report);
  std::ostringstream text, one, json, html;
  render_history_text(trends, std::nullopt, text);
  render_history_text(trends, std::string("alpha"), one);
  render_history_json(trends, std::string("alpha"), json);
  render_history_html(trends, std::nullopt, html);
  EXPECT_NE(text.str().find("runs:      3"), std::string::npos);
  EXPECT_NE(one.str().find("PERSISTENT 3 consecutive run(s) live over, rate +4096 B/h"), std::string::npos)
      << one.str();
  auto j = nlohmann::json::parse(json.str());
  ASSERT_EQ(j["tenants"].size(), 1u);
  EXPECT_EQ(j["tenants"][0]["persistent"], true);
  EXPECT_EQ(j["tenants"][0]["points"].size(), 3u);
  EXPECT_TRUE(j["tenants"][0]["rate_bytes_per_hour"].is_number_integer()) << "whole bytes/hour, same in every format";
  EXPECT_EQ(j["tenants"][0]["rate_bytes_per_hour"], 4096);
  std::string why;
  EXPECT_TRUE(well_formed(html.str(), why)) << why;
}

// Issue 11 item 22: "1 requests".
TEST(ReconcileText, CountsReadInTheRightNumber) {
  auto report = every_verdict_report();
  report.live.requests = 1;
  report.live.retries = 1;
  report.live.transport_failures = 1;
  std::ostringstream one;
  render_reconcile_text(report, nullptr, {}, one);
  EXPECT_NE(one.str().find(", 1 request, 1 retry, 1 transport failure)"), std::string::npos) << one.str();
  report.live.requests = 3;
  report.live.retries = 0;
  report.live.transport_failures = 2;
  std::ostringstream more;
  render_reconcile_text(report, nullptr, {}, more);
  EXPECT_NE(more.str().find(", 3 requests, 0 retries, 2 transport failures)"), std::string::npos) << more.str();
}

// Issue 11 item 22: "no run recorded tenant 'nobody'".
TEST(ReconcileHistory, AnUnknownTenantReadsSensibly) {
  auto report = every_verdict_report();
  auto trends = three_runs(report);
  std::ostringstream text;
  render_history_text(trends, std::string("nobody"), text);
  EXPECT_NE(text.str().find("\nno recorded run has tenant 'nobody'\n"), std::string::npos) << text.str();
}

// Issue 11 item 22: the help showed "--no-metrics{false}".
TEST(ReconcileHelp, NoMetricsIsAPlainFlag) {
  const auto help = test::run_tool("quota-reconcile", {"--help"});
  ASSERT_EQ(help.exit_code, 0) << help.err;
  EXPECT_NE(help.out.find("--no-metrics"), std::string::npos) << help.out;
  EXPECT_EQ(help.out.find("{false}"), std::string::npos) << help.out;
  EXPECT_EQ(help.out.find("{true}"), std::string::npos) << help.out;
}

}  // namespace
}  // namespace moonquota::report
