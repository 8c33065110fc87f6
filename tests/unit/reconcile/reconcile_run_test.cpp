#include "reconcile/reconcile_run.hpp"

#include <gtest/gtest.h>

#include "support/local_store.hpp"
#include "support/run_tool.hpp"

namespace moonquota::reconcile {
namespace {

const std::string k_r1 = "snapshots/genuine-live/r1_quiescent_orphan/";

ReconcileRequest genuine_request() {
  ReconcileRequest r;
  r.metadata.selection.store_dir = test::source_path(k_r1 + "store");
  r.metadata.policy_file = test::source_path(k_r1 + "policy.yaml");
  r.metadata.restore.restore_time_ms = 1795956296529;
  r.live.sampled_at_ms = 1795956295488;  // aux/live_meta.json fetch_finished_ms
  return r;
}

void expect_all_in_balance(const ReconcileReport& report) {
  ASSERT_EQ(report.tenants.size(), 6u);
  for (const auto& d : report.tenants) {
    EXPECT_EQ(d.verdict, Verdict::match) << d.tenant_id;
    EXPECT_EQ(d.delta_bytes, 0) << d.tenant_id;
    EXPECT_TRUE(d.flag_differences.empty()) << d.tenant_id;
  }
  EXPECT_FALSE(report.drift());
  for (const auto& f : report.live.findings) {
    EXPECT_EQ(f.severity, model::Severity::info) << f.location << ": " << f.message;
  }
}

TEST(GenuineLive, InBalanceFromTheJsonList) {
  auto r = genuine_request();
  r.live.list_files = {test::source_path(k_r1 + "api_list.json")};
  auto report = run_reconcile(test::local_files(), r);
  ASSERT_TRUE(report.ok()) << report.status().message();
  expect_all_in_balance(*report);
  ASSERT_TRUE(report->metadata_age_ms.has_value());
  EXPECT_EQ(*report->metadata_age_ms, 0) << "the snapshot id's time equals the capture time";
}

// Audit item 14: saved responses with --sampled-at and a restore time 101 h later modelled a
// restore the sampled master could not have made, without a word.
TEST(GenuineLive, ARestoreTimeLaterThanTheSampleIsAWarning) {
  auto r = genuine_request();
  r.live.list_files = {test::source_path(k_r1 + "api_list.json")};
  r.metadata.restore.charge_model = restore::ChargeModel::restore;
  r.metadata.restore.restore_time_ms = 1795956295488 + 101ull * 3'600'000;
  auto report = run_reconcile(test::local_files(), r);
  ASSERT_TRUE(report.ok()) << report.status().message();
  std::string warned;
  for (const auto& f : report->live.findings) {
    if (f.location == "--restore-time" && f.severity == model::Severity::warning) warned = f.message;
  }
  EXPECT_NE(warned.find("101h 00m 00s after the live sample (2026-11-29T12:44:55.488Z): a master sampled then had "
                        "not restored later"),
            std::string::npos)
      << warned;
}

TEST(GenuineLive, InBalanceFromMetricsAlone) {
  auto r = genuine_request();
  r.live.metrics_files = {test::source_path(k_r1 + "metrics.txt")};
  auto report = run_reconcile(test::local_files(), r);
  ASSERT_TRUE(report.ok()) << report.status().message();
  expect_all_in_balance(*report);
  EXPECT_EQ(report->live.capacity_bytes, 10485760u);
}

TEST(GenuineLive, InBalanceFromBoth) {
  auto r = genuine_request();
  r.live.list_files = {test::source_path(k_r1 + "api_list.json")};
  r.live.metrics_files = {test::source_path(k_r1 + "metrics.txt")};
  auto report = run_reconcile(test::local_files(), r);
  ASSERT_TRUE(report.ok()) << report.status().message();
  expect_all_in_balance(*report);
  for (const auto& d : report->tenants) EXPECT_EQ(d.live->readings_present, 2u);
}

TEST(GenuineLive, PreActivationResponsesCannotBeReconciled) {
  auto r = genuine_request();
  r.live.list_files = {test::source_path(k_r1 + "pre_activation/api_list.json")};
  auto list = run_reconcile(test::local_files(), r);
  ASSERT_FALSE(list.ok());
  EXPECT_EQ(list.status().code(), util::StatusCode::unavailable);
  auto m = genuine_request();
  m.live.metrics_files = {test::source_path(k_r1 + "pre_activation/metrics.txt")};
  auto metrics = run_reconcile(test::local_files(), m);
  ASSERT_FALSE(metrics.ok());
  EXPECT_EQ(metrics.status().code(), util::StatusCode::unsupported);
}

TEST(GenuineLive, MetadataErrorsComeFirst) {
  auto r = genuine_request();
  r.metadata.policy_file = "/nonexistent/policy.yaml";
  r.live.master_urls = {"http://127.0.0.1:1"};
  auto report = run_reconcile(test::local_files(), r);
  ASSERT_FALSE(report.ok());
  EXPECT_NE(report.status().code(), util::StatusCode::unavailable) << "no request is made for refused metadata";
}

}  // namespace
}  // namespace moonquota::reconcile
