// /metrics of quota-reconcile serve: the exact text for a small state, before the first audit,
// after a failure (the last good series stay), and that our own parser reads it back.
#include "service/metrics_text.hpp"

#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "reconcile/prometheus_text.hpp"
#include "report/prom_text.hpp"
#include "report/rebuild/rebuild_prom.hpp"
#include "report/reconcile/reconcile_prom.hpp"

namespace moonquota::service {
namespace {

const BuildInfo k_build{"0.1.0", "v0.1.0-3-gabc", "3b5a5941"};

// One tenant over by 4096 bytes in the live model, sampled 90 s after its snapshot.
std::shared_ptr<app::AuditResult> small_audit() {
  auto audit = std::make_shared<app::AuditResult>();
  auto& r = audit->report;
  r.metadata.charge_model = restore::ChargeModel::live;
  r.tolerance_bytes = 0;
  r.live.samples = 1;
  r.metadata_point_ms = 1'795'956'205'000;
  r.metadata_age_ms = 90'000;
  reconcile::TenantDiff d;
  d.tenant_id = "a\"b";
  d.expected_charged_bytes = 1000;
  d.live_charged_bytes = 5096;
  d.live_max_charged_bytes = 5096;
  d.delta_bytes = 4096;
  d.verdict = reconcile::Verdict::live_over;
  d.within_tolerance = false;
  d.unexplained_bytes = 4096;
  d.unexplained_within_tolerance = false;
  r.tenants.push_back(d);
  r.counts.tenants = 1;
  r.counts.drift = 1;
  r.counts.by_verdict[static_cast<int>(reconcile::Verdict::live_over)] = 1;
  audit->run_at_ms = 1'795'956'295'000;
  audit->exit_code = 1;
  return audit;
}

std::string render(const StateView& view, std::uint64_t now_ms) {
  std::ostringstream out;
  render_service_metrics(view, k_build, "cell-a", now_ms, out);
  return out.str();
}

const char* const k_head = R"(# HELP moonquota_build_info The build of quota-reconcile serve (the value is always 1)
# TYPE moonquota_build_info gauge
moonquota_build_info{version="0.1.0",git="v0.1.0-3-gabc",upstream_commit="3b5a5941",cluster="cell-a"} 1
# HELP moonquota_reconcile_runs_total Audits finished since the service started, by result
# TYPE moonquota_reconcile_runs_total counter
)";

TEST(ServiceMetrics, BeforeTheFirstAuditOnlyTheRunSeries) {
  StateView view;
  view.running = true;
  EXPECT_EQ(render(view, 1'795'956'300'000),
            std::string(k_head) + R"(moonquota_reconcile_runs_total{result="ok",cluster="cell-a"} 0
moonquota_reconcile_runs_total{result="drift",cluster="cell-a"} 0
moonquota_reconcile_runs_total{result="error",cluster="cell-a"} 0
# HELP moonquota_reconcile_running 1 while an audit is in progress
# TYPE moonquota_reconcile_running gauge
moonquota_reconcile_running{cluster="cell-a"} 1
)");
}

TEST(ServiceMetrics, ExactTextAfterADriftRun) {
  StateView view;
  app::RunOutcome last;
  last.result = app::RunResult::drift;
  last.exit_code = 1;
  last.audit = small_audit();
  last.finished_ms = 1'795'956'295'250;
  last.duration_ms = 1250;
  view.compared = last.audit;
  view.last = last;
  view.last_success_ms = last.finished_ms;
  view.runs_total = {2, 1, 0};
  const std::string text = render(view, 1'795'956'300'000);
  const std::string expected = std::string(k_head) + R"(moonquota_reconcile_runs_total{result="ok",cluster="cell-a"} 2
moonquota_reconcile_runs_total{result="drift",cluster="cell-a"} 1
moonquota_reconcile_runs_total{result="error",cluster="cell-a"} 0
# HELP moonquota_reconcile_running 1 while an audit is in progress
# TYPE moonquota_reconcile_running gauge
moonquota_reconcile_running{cluster="cell-a"} 0
# HELP moonquota_reconcile_last_run_timestamp_seconds When the newest audit finished (Unix seconds)
# TYPE moonquota_reconcile_last_run_timestamp_seconds gauge
moonquota_reconcile_last_run_timestamp_seconds{cluster="cell-a"} 1795956295.250
# HELP moonquota_reconcile_last_run_success 1 when the newest audit compared metadata with the live master (and recorded it with --db), 0 when it failed
# TYPE moonquota_reconcile_last_run_success gauge
moonquota_reconcile_last_run_success{cluster="cell-a"} 1
# HELP moonquota_reconcile_last_run_duration_seconds Wall time of the newest audit (seconds)
# TYPE moonquota_reconcile_last_run_duration_seconds gauge
moonquota_reconcile_last_run_duration_seconds{cluster="cell-a"} 1.250
# HELP moonquota_reconcile_last_run_exit_code The exit code the one-shot audit would have returned for the newest audit (cli-contract.md)
# TYPE moonquota_reconcile_last_run_exit_code gauge
moonquota_reconcile_last_run_exit_code{cluster="cell-a"} 1
# HELP moonquota_reconcile_last_success_timestamp_seconds When the newest successful audit finished (Unix seconds): the age of the per-tenant series
# TYPE moonquota_reconcile_last_success_timestamp_seconds gauge
moonquota_reconcile_last_success_timestamp_seconds{cluster="cell-a"} 1795956295.250
# HELP moonquota_reconcile_snapshot_age_seconds Now minus the created_at of the snapshot the newest comparison read (seconds)
# TYPE moonquota_reconcile_snapshot_age_seconds gauge
moonquota_reconcile_snapshot_age_seconds{cluster="cell-a"} 95.000
# HELP moonquota_reconcile_expected_charged_bytes Charge rebuilt from metadata (bytes)
# TYPE moonquota_reconcile_expected_charged_bytes gauge
moonquota_reconcile_expected_charged_bytes{tenant_id="a\"b",model="live",cluster="cell-a"} 1000
# HELP moonquota_reconcile_live_charged_bytes Live charge, minimum over samples (bytes)
# TYPE moonquota_reconcile_live_charged_bytes gauge
moonquota_reconcile_live_charged_bytes{tenant_id="a\"b",model="live",cluster="cell-a"} 5096
# HELP moonquota_reconcile_live_max_charged_bytes Live charge, maximum over samples (bytes)
# TYPE moonquota_reconcile_live_max_charged_bytes gauge
moonquota_reconcile_live_max_charged_bytes{tenant_id="a\"b",model="live",cluster="cell-a"} 5096
# HELP moonquota_reconcile_delta_bytes Live minus expected charge (bytes, signed)
# TYPE moonquota_reconcile_delta_bytes gauge
moonquota_reconcile_delta_bytes{tenant_id="a\"b",model="live",cluster="cell-a"} 4096
# HELP moonquota_reconcile_within_tolerance 1 when |delta| <= tolerance
# TYPE moonquota_reconcile_within_tolerance gauge
moonquota_reconcile_within_tolerance{tenant_id="a\"b",model="live",cluster="cell-a"} 0
# HELP moonquota_reconcile_in_flight_bytes Bytes of PROCESSING MEMORY replicas in the metadata: puts not yet committed (only this cause of in-flight charge; the others are in unexplained_bytes' causes)
# TYPE moonquota_reconcile_in_flight_bytes gauge
moonquota_reconcile_in_flight_bytes{tenant_id="a\"b",model="live",cluster="cell-a"} 0
# HELP moonquota_reconcile_unexplained_bytes Delta left after the causes the metadata shows (bytes, signed): what to alert on
# TYPE moonquota_reconcile_unexplained_bytes gauge
moonquota_reconcile_unexplained_bytes{tenant_id="a\"b",model="live",cluster="cell-a"} 4096
# HELP moonquota_reconcile_unexplained_within_tolerance 1 when |unexplained| <= tolerance
# TYPE moonquota_reconcile_unexplained_within_tolerance gauge
moonquota_reconcile_unexplained_within_tolerance{tenant_id="a\"b",model="live",cluster="cell-a"} 0
# HELP moonquota_reconcile_verdict 1 for the tenant's verdict (match, live_over, live_under, missing_live, missing_metadata, flags_mismatch)
# TYPE moonquota_reconcile_verdict gauge
moonquota_reconcile_verdict{tenant_id="a\"b",model="live",verdict="live_over",cluster="cell-a"} 1
# HELP moonquota_reconcile_tenants Tenants per verdict
# TYPE moonquota_reconcile_tenants gauge
moonquota_reconcile_tenants{verdict="match",model="live",cluster="cell-a"} 0
moonquota_reconcile_tenants{verdict="live_over",model="live",cluster="cell-a"} 1
moonquota_reconcile_tenants{verdict="live_under",model="live",cluster="cell-a"} 0
moonquota_reconcile_tenants{verdict="missing_live",model="live",cluster="cell-a"} 0
moonquota_reconcile_tenants{verdict="missing_metadata",model="live",cluster="cell-a"} 0
moonquota_reconcile_tenants{verdict="flags_mismatch",model="live",cluster="cell-a"} 0
# HELP moonquota_reconcile_model The model of the expected side (live: a running master; restore: a restore at a time) and its lease model (upstream: lease-expired objects erased at restore; keep: leases ignored; the live model has no lease filter)
# TYPE moonquota_reconcile_model gauge
moonquota_reconcile_model{model="live",lease_model="upstream",cluster="cell-a"} 1
# HELP moonquota_reconcile_tolerance_bytes Tolerance used for the verdicts (bytes)
# TYPE moonquota_reconcile_tolerance_bytes gauge
moonquota_reconcile_tolerance_bytes{cluster="cell-a"} 0
# HELP moonquota_reconcile_samples Live samples taken
# TYPE moonquota_reconcile_samples gauge
moonquota_reconcile_samples{cluster="cell-a"} 1
# HELP moonquota_reconcile_snapshot_created_timestamp_seconds created_at of the snapshot the comparison read (Unix seconds)
# TYPE moonquota_reconcile_snapshot_created_timestamp_seconds gauge
moonquota_reconcile_snapshot_created_timestamp_seconds{cluster="cell-a"} 1795956205.000
# HELP moonquota_reconcile_metadata_age_seconds Live sample time minus the snapshot's created_at (seconds)
# TYPE moonquota_reconcile_metadata_age_seconds gauge
moonquota_reconcile_metadata_age_seconds{cluster="cell-a"} 90.000
)";
  EXPECT_EQ(text, expected);
  auto parsed = reconcile::parse_prometheus_text(text);
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_EQ(parsed->types.at("moonquota_reconcile_runs_total"), "counter");
}

TEST(ServiceMetrics, AFailureIsAMetricAndTheLastGoodSeriesStay) {
  StateView view;
  view.compared = small_audit();
  view.last_success_ms = 1'795'956'295'250;
  app::RunOutcome failed;
  failed.result = app::RunResult::error;
  failed.exit_code = 4;
  failed.error = "master GET http://m:9003/api/v1/tenant_quotas: connection refused (after 4 attempts)";
  failed.finished_ms = 1'795'956'395'000;
  failed.duration_ms = 7;
  view.last = failed;
  view.runs_total = {0, 1, 1};
  const std::string text = render(view, 1'795'956'400'000);
  EXPECT_NE(text.find("moonquota_reconcile_last_run_success{cluster=\"cell-a\"} 0\n"), std::string::npos) << text;
  EXPECT_NE(
      text.find("moonquota_reconcile_last_error_info{exit_code=\"4\",message=\"master GET "
                "http://m:9003/api/v1/tenant_quotas: connection refused (after 4 attempts)\",cluster=\"cell-a\"} 1\n"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("moonquota_reconcile_runs_total{result=\"error\",cluster=\"cell-a\"} 1\n"), std::string::npos);
  // The success timestamp still says when the per-tenant series below were true.
  EXPECT_NE(text.find("moonquota_reconcile_last_success_timestamp_seconds{cluster=\"cell-a\"} 1795956295.250\n"),
            std::string::npos);
  EXPECT_NE(text.find("moonquota_reconcile_delta_bytes{tenant_id=\"a\\\"b\",model=\"live\",cluster=\"cell-a\"} 4096\n"),
            std::string::npos);
  EXPECT_TRUE(reconcile::parse_prometheus_text(text).ok());
}

TEST(ServiceMetrics, ALongErrorMessageIsCutAtACharacterBoundary) {
  StateView view;
  app::RunOutcome failed;
  failed.error = std::string(k_max_message_label_bytes - 4, 'x') + "\xC3\xA9\xC3\xA9tail";  // é twice
  view.last = failed;
  const std::string text = render(view, 0);
  EXPECT_NE(text.find("message=\"" + std::string(k_max_message_label_bytes - 4, 'x') + "...\""), std::string::npos)
      << text;
  EXPECT_EQ(report::prom_seconds(-1500), "-1.500");
  EXPECT_EQ(report::prom_seconds(7), "0.007");
}

// The families named in a text exposition (from its TYPE lines), without `prefix`.
std::set<std::string> families(const std::string& text, const std::string& prefix) {
  std::set<std::string> names;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    const std::string type = "# TYPE " + prefix;
    if (line.rfind(type, 0) != 0) continue;
    names.insert(line.substr(type.size(), line.find(' ', type.size()) - type.size()));
  }
  return names;
}

// Audit 17: serve and the one-shot textfiles name each run fact alike, so the alerting rules read
// one name (no `or` unions between names of one fact).
TEST(ServiceMetrics, ServeAndTheTextfilesNameTheRunFactsAlike) {
  const std::set<std::string> after_success = {"last_run_timestamp_seconds", "last_run_success", "last_run_exit_code",
                                               "last_success_timestamp_seconds", "snapshot_created_timestamp_seconds"};
  const std::set<std::string> after_failure = {"last_run_timestamp_seconds", "last_run_success", "last_run_exit_code",
                                               "last_error_info"};
  const auto holds = [](const std::set<std::string>& have, const std::set<std::string>& want) {
    for (const auto& name : want) {
      if (have.count(name) == 0) return ::testing::AssertionFailure() << "no " << name;
    }
    return ::testing::AssertionSuccess();
  };
  const auto audit = small_audit();
  std::ostringstream one_shot;
  report::render_reconcile_prom(audit->report, nullptr, audit->run_at_ms, 1, "cell-a", one_shot);
  EXPECT_TRUE(holds(families(one_shot.str(), "moonquota_reconcile_"), after_success));
  std::ostringstream one_shot_failed;
  report::render_reconcile_prom_failure(audit->run_at_ms, 4, "refused", "cell-a", one_shot_failed);
  EXPECT_TRUE(holds(families(one_shot_failed.str(), "moonquota_reconcile_"), after_failure));
  std::ostringstream rebuild_failed;
  report::render_rebuild_prom_failure("cell-a", audit->run_at_ms, 3, "no store", rebuild_failed);
  EXPECT_TRUE(holds(families(rebuild_failed.str(), "moonquota_rebuild_"), after_failure));

  StateView view;
  app::RunOutcome last;
  last.result = app::RunResult::drift;
  last.exit_code = 1;
  last.audit = audit;
  last.finished_ms = 1'795'956'295'250;
  view.last = last;
  view.compared = audit;
  view.last_success_ms = last.finished_ms;
  EXPECT_TRUE(holds(families(render(view, 1'795'956'300'000), "moonquota_reconcile_"), after_success));
  last.result = app::RunResult::error;
  last.exit_code = 4;
  last.error = "refused";
  view.last = last;
  EXPECT_TRUE(holds(families(render(view, 1'795'956'300'000), "moonquota_reconcile_"), after_failure));
}

}  // namespace
}  // namespace moonquota::service
