// The endpoint answers of quota-reconcile serve without HTTP: /healthz logic, /report before and
// after the first audit, /history's errors, unknown paths.
#include "service/endpoints.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "history/trend.hpp"

namespace moonquota::service {
namespace {

constexpr std::uint64_t k_minute = 60'000;
constexpr std::uint64_t k_t0 = 1'795'956'295'000;

StateView succeeded_at(std::uint64_t finished_ms) {
  StateView view;
  app::RunOutcome ok;
  ok.result = app::RunResult::ok;
  ok.exit_code = 0;
  ok.finished_ms = finished_ms;
  auto audit = std::make_shared<app::AuditResult>();
  audit->report.metadata.charge_model = restore::ChargeModel::live;
  ok.audit = audit;
  view.compared = audit;
  view.last = ok;
  view.last_success_ms = finished_ms;
  view.runs_total = {1, 0, 0};
  return view;
}

TEST(ServiceHealth, OkWhileTheLastSuccessIsYoungerThanThreeIntervals) {
  StateView none;
  EXPECT_FALSE(health_of(none, 5 * k_minute, k_t0).ok);
  EXPECT_EQ(health_of(none, 5 * k_minute, k_t0).reason, "no audit has finished yet");

  const StateView view = succeeded_at(k_t0);
  EXPECT_TRUE(health_of(view, 5 * k_minute, k_t0).ok);
  EXPECT_TRUE(health_of(view, 5 * k_minute, k_t0 + 15 * k_minute - 1).ok);
  const Health stale = health_of(view, 5 * k_minute, k_t0 + 15 * k_minute);
  EXPECT_FALSE(stale.ok);
  EXPECT_EQ(stale.reason, "the newest successful audit finished 0h 15m 00s ago, not less than 3 intervals (15m)");
  // A clock that went back counts as age 0.
  EXPECT_TRUE(health_of(view, 5 * k_minute, k_t0 - k_minute).ok);
}

TEST(ServiceHealth, FailuresAfterASuccessKeepItHealthyUntilTheSuccessIsStale) {
  StateView view = succeeded_at(k_t0);
  app::RunOutcome failed;
  failed.result = app::RunResult::error;
  failed.exit_code = 4;
  failed.error = "connection refused";
  view.last = failed;
  EXPECT_TRUE(health_of(view, k_minute, k_t0 + 2 * k_minute).ok);
  const Health stale = health_of(view, k_minute, k_t0 + 3 * k_minute);
  EXPECT_FALSE(stale.ok);
  EXPECT_NE(stale.reason.find("; the newest audit failed (exit 4): connection refused"), std::string::npos)
      << stale.reason;

  StateView never;
  never.last = failed;
  EXPECT_EQ(health_of(never, k_minute, k_t0).reason,
            "no audit has succeeded yet; the newest audit failed (exit 4): connection refused");
}

TEST(ServiceEndpoints, StatusCodesAndContentTypes) {
  EndpointContext context;
  context.interval_ms = k_minute;
  StateView none;
  EXPECT_EQ(answer_request("/report", {}, none, context, k_t0).status, 503);
  EXPECT_EQ(answer_request("/report", {}, none, context, k_t0).body, "no audit has finished yet\n");
  EXPECT_EQ(answer_request("/report.json", {}, none, context, k_t0).status, 503);
  EXPECT_EQ(answer_request("/healthz", {}, none, context, k_t0).status, 503);
  const HttpAnswer metrics = answer_request("/metrics", {}, none, context, k_t0);
  EXPECT_EQ(metrics.status, 200);
  EXPECT_EQ(metrics.content_type, "text/plain; version=0.0.4; charset=utf-8");
  EXPECT_EQ(answer_request("/", {}, none, context, k_t0).status, 404);
  EXPECT_EQ(answer_request("/metrics/", {}, none, context, k_t0).status, 404);

  const StateView view = succeeded_at(k_t0);
  const HttpAnswer health = answer_request("/healthz", {}, view, context, k_t0 + 1000);
  EXPECT_EQ(health.status, 200);
  EXPECT_EQ(health.body, "ok\n");
  const HttpAnswer html = answer_request("/report", {}, view, context, k_t0);
  EXPECT_EQ(html.status, 200);
  EXPECT_EQ(html.content_type, "text/html; charset=utf-8");
  EXPECT_NE(html.body.find("<html"), std::string::npos);
  const HttpAnswer json = answer_request("/report.json", {}, view, context, k_t0);
  EXPECT_EQ(json.status, 200);
  EXPECT_EQ(json.content_type, "application/json");
  EXPECT_EQ(nlohmann::json::parse(json.body).at("schema"), "quota-reconcile/1");
}

TEST(ServiceEndpoints, ReportsBeforeAnyComparisonSayWhyAndJsonIsJson) {
  EndpointContext context;
  StateView failed_only;
  app::RunOutcome failed;
  failed.result = app::RunResult::error;
  failed.exit_code = 4;
  failed.error = "connection refused";
  failed_only.last = failed;
  const HttpAnswer html = answer_request("/report", {}, failed_only, context, k_t0);
  EXPECT_EQ(html.status, 503);
  EXPECT_EQ(html.body, "no audit has compared the master yet; the newest audit failed (exit 4): connection refused\n");
  const HttpAnswer json = answer_request("/report.json", {}, failed_only, context, k_t0);
  EXPECT_EQ(json.status, 503);
  EXPECT_EQ(json.content_type, "application/json");
  EXPECT_EQ(nlohmann::json::parse(json.body).at("error"),
            "no audit has compared the master yet; the newest audit failed (exit 4): connection refused");
}

TEST(ServiceEndpoints, AComparisonOlderThanAFailedAuditIsMarkedStale) {
  EndpointContext context;
  StateView view = succeeded_at(k_t0);
  auto audit = std::make_shared<app::AuditResult>(*view.compared);
  audit->run_at_ms = k_t0 - 2000;
  view.compared = audit;
  view.last->audit = audit;
  // Fresh: no banner, service.stale false.
  EXPECT_EQ(answer_request("/report", {}, view, context, k_t0).body.find("id=\"stale\""), std::string::npos);
  auto fresh = nlohmann::json::parse(answer_request("/report.json", {}, view, context, k_t0 + 1000).body);
  EXPECT_EQ(fresh.at("service").at("compared_at_ms"), k_t0 - 2000);
  EXPECT_EQ(fresh.at("service").at("age_ms"), 3000u);
  EXPECT_EQ(fresh.at("service").at("newest_audit").at("result"), "ok");
  EXPECT_FALSE(fresh.at("service").at("stale").get<bool>());

  app::RunOutcome failed;
  failed.result = app::RunResult::error;
  failed.exit_code = 4;
  failed.error = "master GET /metrics: connection refused";
  failed.finished_ms = k_t0 + 10 * k_minute;
  view.last = failed;
  const std::string html = answer_request("/report", {}, view, context, k_t0 + 12 * k_minute).body;
  const auto at = html.find("<p id=\"stale\" class=\"stale\">stale: this comparison sampled the master at ");
  ASSERT_NE(at, std::string::npos) << html;
  EXPECT_NE(html.find("0h 12m 02s ago; the newest audit (finished ", at), std::string::npos) << html;
  EXPECT_NE(html.find(") failed (exit 4): master GET /metrics: connection refused</p>", at), std::string::npos);
  auto stale = nlohmann::json::parse(answer_request("/report.json", {}, view, context, k_t0 + 12 * k_minute).body);
  EXPECT_TRUE(stale.at("service").at("stale").get<bool>());
  EXPECT_EQ(stale.at("service").at("newest_audit").at("exit_code"), 4);
  EXPECT_EQ(stale.at("service").at("newest_audit").at("error"), "master GET /metrics: connection refused");
}

TEST(ServiceEndpoints, HistoryNeedsDbAndOneTenant) {
  EndpointContext context;
  StateView view = succeeded_at(k_t0);
  const HttpAnswer no_db = answer_request("/history", {{"tenant", "a"}}, view, context, k_t0);
  EXPECT_EQ(no_db.status, 404);
  EXPECT_EQ(no_db.content_type, "application/json");
  EXPECT_EQ(nlohmann::json::parse(no_db.body).at("error"), "no history: the service runs without --db");

  context.has_db = true;
  EXPECT_EQ(answer_request("/history", {{"tenant", "a"}}, StateView{}, context, k_t0).status, 503);
  EXPECT_EQ(answer_request("/history", {{"tenant", "a"}}, view, context, k_t0).status, 503);  // not recorded

  auto audit = std::make_shared<app::AuditResult>(*view.compared);
  history::TrendTable trends;
  trends.model = "live";
  trends.run_times_ms = {k_t0};
  history::TenantTrend alpha;
  alpha.tenant_id = "alpha";
  alpha.points.push_back({k_t0, {}});
  trends.tenants.push_back(alpha);
  audit->trends = trends;
  view.compared = audit;

  EXPECT_EQ(answer_request("/history", {{"tenant", ""}}, view, context, k_t0).status, 400);
  EXPECT_EQ(answer_request("/history", {{"tenant", "a"}, {"tenant", "b"}}, view, context, k_t0).status, 400);
  EXPECT_EQ(answer_request("/history", {{"since", "1h"}}, view, context, k_t0).status, 400);
  EXPECT_EQ(answer_request("/history", {{"tenant", "nobody"}}, view, context, k_t0).status, 404);
  const HttpAnswer one = answer_request("/history", {{"tenant", "alpha"}}, view, context, k_t0);
  ASSERT_EQ(one.status, 200) << one.body;
  const auto j = nlohmann::json::parse(one.body);
  EXPECT_EQ(j.at("schema"), "quota-reconcile-history/1");
  ASSERT_EQ(j.at("tenants").size(), 1u);
  EXPECT_EQ(j.at("tenants")[0].at("tenant_id"), "alpha");
  EXPECT_EQ(answer_request("/history", {}, view, context, k_t0).status, 200);  // every tenant
}

TEST(ServiceEndpoints, HistoryErrorsNamingBytesThatAreNotUtf8AreJson) {
  // Regression (fuzz finding F7): a query name or tenant that is not UTF-8 made the JSON dump
  // throw, and cpp-httplib answered 500 with the exception text in a header.
  EndpointContext context;
  context.has_db = true;
  StateView view = succeeded_at(k_t0);
  auto audit = std::make_shared<app::AuditResult>(*view.compared);
  history::TrendTable trends;
  trends.model = "live";
  audit->trends = trends;
  view.compared = audit;
  const HttpAnswer name = answer_request("/history", {{"\xFF", "1"}}, view, context, k_t0);
  EXPECT_EQ(name.status, 400);
  EXPECT_EQ(nlohmann::json::parse(name.body).at("error"), "unknown query parameter '\xEF\xBF\xBD' (only tenant=ID)");
  const HttpAnswer tenant = answer_request("/history", {{"tenant", "a\xFF"}}, view, context, k_t0);
  EXPECT_EQ(tenant.status, 404);
  EXPECT_EQ(nlohmann::json::parse(tenant.body).at("error"),
            "tenant 'a\xEF\xBF\xBD' has no recorded point in the live model");
}

}  // namespace
}  // namespace moonquota::service
