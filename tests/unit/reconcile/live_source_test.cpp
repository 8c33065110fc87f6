#include "reconcile/live_source.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <vector>

#include "reconcile/live_checks.hpp"
#include "support/master_stand_in_process.hpp"
#include "support/run_tool.hpp"

namespace moonquota::reconcile {
namespace {

using test::StandInProcess;

LiveRequest fast_request(const std::string& url) {
  LiveRequest r;
  r.master_urls = {url};
  r.interval_ms = 1;
  r.retry = {4, 5, 20};
  r.timeouts = {500, 1000};
  return r;
}

const LiveTenantView& find(const LiveObservation& obs, const std::string& id) {
  for (const auto& t : obs.tenants) {
    if (t.last.tenant_id == id) return t;
  }
  throw std::runtime_error("no tenant " + id);
}

TEST(FoldReadings, MinMaxAndAbsenceCountsAsZero) {
  LiveReading a{
      ReadingKind::list, 0, 1, "a", {{"x", 0, 0, 100, true, true, false}, {"y", 5, 5, 7, false, true, true}}, {}};
  LiveReading b{ReadingKind::list, 1, 2, "b", {{"x", 0, 0, 40, true, true, false}}, {}};
  auto views = fold_readings({a, b});
  ASSERT_EQ(views.size(), 2u);
  EXPECT_EQ(views[0].min_charged_bytes, 40u);
  EXPECT_EQ(views[0].max_charged_bytes, 100u);
  EXPECT_EQ(views[1].min_charged_bytes, 0u) << "absent from the second reading: not visible, charged 0";
  EXPECT_EQ(views[1].max_charged_bytes, 7u);
}

// Audit item 10: a fact seen in every sample was printed once per sample.
TEST(LiveChecks, AFactSeenInSeveralSamplesIsOneFindingNamingThem) {
  LiveObservation obs;
  LiveTenant bad;
  bad.tenant_id = "b";
  bad.has_explicit_policy = true;
  bad.over_quota = true;  // charged 0, effective 0: over_quota should be false
  LiveTenant good;
  good.tenant_id = "a";
  good.has_explicit_policy = true;
  for (std::uint32_t sample : {0u, 1u, 2u, 4u}) {
    LiveReading r;
    r.kind = ReadingKind::list;
    r.sample = sample;
    r.origin = "/api/v1/tenant_quotas";
    r.tenants = {sample == 4 ? bad : good, sample == 4 ? good : bad};  // sample 5 also breaks the order
    obs.readings.push_back(r);
  }
  const model::Findings findings = check_live_observation(obs);
  std::vector<std::string> lines;
  for (const auto& f : findings) lines.push_back(f.location + ": " + f.message);
  const std::vector<std::string> want = {
      "/api/v1/tenant_quotas (samples 1, 2, 3, 5): tenant 'b': over_quota is true but charged 0 vs effective 0",
      "/api/v1/tenant_quotas (sample 5): tenant 'a' breaks the bytewise order or is duplicated"};
  EXPECT_EQ(lines, want);
}

TEST(LiveSource, GenuineSavedResponsesAreConsistent) {
  LiveRequest r;
  r.list_files = {test::source_path("snapshots/genuine-live/r1_quiescent_orphan/api_list.json")};
  r.metrics_files = {test::source_path("snapshots/genuine-live/r1_quiescent_orphan/metrics.txt")};
  auto obs = collect_live(r);
  ASSERT_TRUE(obs.ok()) << obs.status().message();
  EXPECT_EQ(obs->tenants.size(), 6u);
  EXPECT_EQ(obs->capacity_bytes, 10485760u);
  for (const auto& f : obs->findings) {
    EXPECT_EQ(f.severity, model::Severity::info) << f.location << ": " << f.message;
  }
}

TEST(LiveSource, SamplesFlagIsForTheMasterOnly) {
  LiveRequest r;
  r.list_files = {test::source_path("snapshots/genuine-live/r1_quiescent_orphan/api_list.json")};
  r.samples = 3;
  auto obs = collect_live(r);
  ASSERT_FALSE(obs.ok());
  EXPECT_EQ(obs.status().code(), util::StatusCode::invalid_argument);
  EXPECT_NE(obs.status().message().find("one sample"), std::string::npos) << obs.status().message();
}

TEST(LiveSource, SamplesAlternateAndTheMinimumIsTheSettledCharge) {
  StandInProcess stand_in({"--inflight", "alpha=4096"});
  ASSERT_TRUE(stand_in.running());
  auto req = fast_request(stand_in.url());
  req.samples = 3;
  auto obs = collect_live(req);
  ASSERT_TRUE(obs.ok()) << obs.status().message();
  EXPECT_EQ(obs->samples, 3u);
  EXPECT_EQ(obs->readings.size(), 6u);
  EXPECT_EQ(obs->readings[0].kind, ReadingKind::list);
  EXPECT_EQ(obs->readings[1].kind, ReadingKind::metrics);
  const auto& alpha = find(*obs, "alpha");
  EXPECT_EQ(alpha.min_charged_bytes, 840257u);
  EXPECT_EQ(alpha.max_charged_bytes, 840257u + 4096u);
}

TEST(LiveSource, UnavailableThenRecovery) {
  StandInProcess stand_in({"--unavailable-first", "2"});
  ASSERT_TRUE(stand_in.running());
  auto obs = collect_live(fast_request(stand_in.url()));
  ASSERT_TRUE(obs.ok()) << obs.status().message();
  EXPECT_EQ(obs->unavailable_answers, 2u);
  EXPECT_EQ(obs->retries, 2u);
  EXPECT_EQ(obs->tenants.size(), 6u);
}

// An HA cell: the first endpoint is a standby (503 for ever), the second the serving leader. The
// list moves on to the leader, and /metrics is read from the leader, never from the standby.
TEST(LiveSource, SeveralEndpointsFindTheServingLeader) {
  StandInProcess standby({"--unavailable-first", "100000", "--drift", "alpha=999"});
  StandInProcess leader({"--drift", "beta=4096"});
  ASSERT_TRUE(standby.running() && leader.running());
  auto request = fast_request(standby.url());
  request.master_urls.push_back(leader.url());
  request.samples = 2;
  auto obs = collect_live(request);
  ASSERT_TRUE(obs.ok()) << obs.status().message();
  EXPECT_EQ(obs->source, leader.url());
  EXPECT_EQ(obs->unavailable_answers, 1u) << "after the first round the leader is asked first";
  ASSERT_EQ(obs->readings.size(), 4u);
  for (const auto& r : obs->readings) {
    if (r.kind == ReadingKind::metrics) { EXPECT_TRUE(r.metrics->block_present) << "a standby's /metrics was used"; }
  }
  EXPECT_EQ(find(*obs, "beta").min_charged_bytes, 2162688u + 4096u);
  EXPECT_EQ(find(*obs, "alpha").max_charged_bytes, 840257u);
  bool noted = false;
  for (const auto& f : obs->findings)
    noted = noted || (f.location == standby.url() && f.severity == model::Severity::info);
  EXPECT_TRUE(noted) << "the report says the standby was passed over";
}

TEST(LiveSource, EveryEndpointUnavailableIsUnavailableNamingTheRounds) {
  StandInProcess a({"--unavailable-first", "100000"});
  const std::string down = "http://127.0.0.1:" + std::to_string(test::unused_loopback_port());
  ASSERT_TRUE(a.running());
  auto request = fast_request(a.url());
  request.master_urls.push_back(down);
  request.retry = {3, 1, 4};
  auto obs = collect_live(request);
  ASSERT_FALSE(obs.ok());
  EXPECT_EQ(obs.status().code(), util::StatusCode::unavailable);
  EXPECT_NE(obs.status().message().find("after 6 attempts over 2 master endpoints"), std::string::npos)
      << obs.status().message();
}

TEST(LiveSource, UnavailableBeyondTheRetryBudgetIsUnavailable) {
  StandInProcess stand_in({"--unavailable-first", "100"});
  ASSERT_TRUE(stand_in.running());
  auto obs = collect_live(fast_request(stand_in.url()));
  ASSERT_FALSE(obs.ok());
  EXPECT_EQ(obs.status().code(), util::StatusCode::unavailable);
  EXPECT_NE(obs.status().message().find("service plane is not active"), std::string::npos);
  EXPECT_NE(obs.status().message().find("after 4 attempts"), std::string::npos) << obs.status().message();
}

TEST(LiveSource, ConnectionRefusedAfterBoundedRetries) {
  auto req = fast_request("http://127.0.0.1:" + std::to_string(test::unused_loopback_port()));
  const auto start = std::chrono::steady_clock::now();
  auto obs = collect_live(req);
  ASSERT_FALSE(obs.ok());
  EXPECT_EQ(obs.status().code(), util::StatusCode::unavailable);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(LiveSource, ConnectionResetsAreRetried) {
  StandInProcess stand_in({"--reset-first", "2"});
  ASSERT_TRUE(stand_in.running());
  auto obs = collect_live(fast_request(stand_in.url()));
  ASSERT_TRUE(obs.ok()) << obs.status().message();
  EXPECT_EQ(obs->transport_failures, 2u);
}

TEST(LiveSource, SlowAnswersTimeOut) {
  StandInProcess stand_in({"--slow-ms", "400"});
  ASSERT_TRUE(stand_in.running());
  auto req = fast_request(stand_in.url());
  req.timeouts.read_timeout_ms = 100;
  req.retry.attempts = 2;
  auto obs = collect_live(req);
  ASSERT_FALSE(obs.ok());
  EXPECT_EQ(obs.status().code(), util::StatusCode::unavailable);
  req.timeouts.read_timeout_ms = 2000;
  auto patient = collect_live(req);
  EXPECT_TRUE(patient.ok()) << patient.status().message();
}

TEST(LiveSource, ModeOffAndMalformedBodiesAreFinalAtOnce) {
  StandInProcess off({"--mode-off"});
  ASSERT_TRUE(off.running());
  auto obs = collect_live(fast_request(off.url()));
  ASSERT_FALSE(obs.ok());
  EXPECT_EQ(obs.status().code(), util::StatusCode::unsupported);
  for (const char* kind : {"json", "negative", "float", "metrics"}) {
    StandInProcess bad({"--malformed", kind});
    ASSERT_TRUE(bad.running());
    auto r = collect_live(fast_request(bad.url()));
    ASSERT_FALSE(r.ok()) << kind;
    EXPECT_EQ(r.status().code(), util::StatusCode::corruption) << kind << ": " << r.status().message();
  }
}

TEST(LiveSource, MetricsWithoutTheTenantBlockWhileTheListAnswersIsAFinding) {
  StandInProcess stand_in({"--no-tenant-block"});
  ASSERT_TRUE(stand_in.running());
  auto obs = collect_live(fast_request(stand_in.url()));
  ASSERT_TRUE(obs.ok()) << obs.status().message();
  bool found = false;
  for (const auto& f : obs->findings) found = found || f.message.find("no tenant block") != std::string::npos;
  EXPECT_TRUE(found);
  EXPECT_EQ(obs->tenants.size(), 6u);
}

// --- issue 11 item 11: non-2xx answers lead with the status; 5xx and cut bodies are retried ---

TEST(LiveSource, AProxysBadGatewayPageIsRetriedThenNamedByStatusNotAsBadJson) {
  StandInProcess stand_in({"--proxy-error-first", "100"});
  ASSERT_TRUE(stand_in.running());
  auto obs = collect_live(fast_request(stand_in.url()));
  ASSERT_FALSE(obs.ok());
  const std::string& m = obs.status().message();
  EXPECT_EQ(obs.status().code(), util::StatusCode::unavailable) << m;
  EXPECT_NE(m.find("master GET " + stand_in.url() + "/api/v1/tenant_quotas: the master answered HTTP 502 Bad Gateway"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("502 Proxy Error"), std::string::npos) << m;
  EXPECT_NE(m.find("(after 4 attempts)"), std::string::npos) << m;
  EXPECT_EQ(m.find("JSON"), std::string::npos) << m;
  EXPECT_EQ(m.find("<html"), std::string::npos) << m;
  EXPECT_LT(m.size(), 300u) << m;
}

TEST(LiveSource, AProxys503ThenA200IsRetried) {
  StandInProcess stand_in({"--proxy-error-first", "1", "--proxy-status", "503"});
  ASSERT_TRUE(stand_in.running());
  auto obs = collect_live(fast_request(stand_in.url()));
  ASSERT_TRUE(obs.ok()) << obs.status().message();
  EXPECT_EQ(obs->retries, 1u);
  EXPECT_EQ(obs->tenants.size(), 6u);
}

TEST(LiveSource, A404PageIsCorruptionLeadingWithTheStatus) {
  StandInProcess stand_in({"--proxy-error-first", "100", "--proxy-status", "404"});
  ASSERT_TRUE(stand_in.running());
  auto obs = collect_live(fast_request(stand_in.url()));
  ASSERT_FALSE(obs.ok());
  EXPECT_EQ(obs.status().code(), util::StatusCode::corruption);
  EXPECT_NE(obs.status().message().find("the master answered HTTP 404 Not Found ("), std::string::npos)
      << obs.status().message();
  EXPECT_EQ(obs.status().message().find("not valid JSON"), std::string::npos) << obs.status().message();
}

TEST(LiveSource, ABodyCutShortIsRetriedThenNamed) {
  StandInProcess once({"--truncate-first", "1"});
  ASSERT_TRUE(once.running());
  auto recovered = collect_live(fast_request(once.url()));
  ASSERT_TRUE(recovered.ok()) << recovered.status().message();
  EXPECT_EQ(recovered->transport_failures, 1u);
  StandInProcess always({"--truncate-first", "100"});
  ASSERT_TRUE(always.running());
  auto obs = collect_live(fast_request(always.url()));
  ASSERT_FALSE(obs.ok());
  EXPECT_EQ(obs.status().code(), util::StatusCode::unavailable);
  EXPECT_NE(obs.status().message().find("body truncated at byte "), std::string::npos) << obs.status().message();
}

TEST(LiveSource, ASilentMasterTimesOutNamingTheTimeout) {
  test::SilentListener silent;
  auto req = fast_request("http://" + silent.host_port());
  req.timeouts = {300, 300};
  req.retry.attempts = 2;
  auto obs = collect_live(req);
  ASSERT_FALSE(obs.ok());
  EXPECT_EQ(obs.status().code(), util::StatusCode::unavailable);
  EXPECT_NE(obs.status().message().find("timed out after 300 ms waiting for the answer (after 2 attempts)"),
            std::string::npos)
      << obs.status().message();
}

// --- issue 11 item 10: every attempt, retry and backoff is reported on the hook ---

TEST(LiveSource, EveryAttemptRetryAndBackoffIsLogged) {
  const std::string url = "http://127.0.0.1:" + std::to_string(test::unused_loopback_port());
  auto req = fast_request(url);
  req.retry = {2, 7, 20};
  std::vector<std::string> info, debug;
  req.log = [&](util::NetLogLevel level, const std::string& m) {
    (level == util::NetLogLevel::info ? info : debug).push_back(m);
  };
  auto obs = collect_live(req);
  ASSERT_FALSE(obs.ok());
  const std::string what = "master GET " + url + "/api/v1/tenant_quotas";
  ASSERT_EQ(info.size(), 4u);
  EXPECT_EQ(info[0], what + ": attempt 1 of 2");
  EXPECT_EQ(info[1], what + ": attempt 1 of 2 failed: connection refused; retrying in 7 ms");
  EXPECT_EQ(info[2], what + ": attempt 2 of 2");
  EXPECT_NE(info[3].find("; giving up"), std::string::npos) << info[3];
  ASSERT_EQ(debug.size(), 2u);
  EXPECT_EQ(debug[0].rfind("GET " + url + "/api/v1/tenant_quotas -> connection refused, 0 bytes, ", 0), 0u) << debug[0];
}

// --- issue 11 item 21: a /metrics lacking a series for a tenant is a finding, not a failure ---

TEST(LiveSource, AMetricsSeriesMissingForATenantIsAFindingAndTheListGivesItsValues) {
  StandInProcess stand_in({"--omit-series", "alpha=over_quota"});
  ASSERT_TRUE(stand_in.running());
  auto obs = collect_live(fast_request(stand_in.url()));
  ASSERT_TRUE(obs.ok()) << obs.status().message();
  EXPECT_EQ(find(*obs, "alpha").min_charged_bytes, 840257u) << "the incomplete reading does not count as 0";
  EXPECT_EQ(obs->tenants.size(), 6u);
  bool found = false;
  for (const auto& f : obs->findings) {
    found = found ||
            (f.severity == model::Severity::warning &&
             f.message.find("tenant 'alpha' lacks the series mooncake_tenant_quota_over_quota") != std::string::npos &&
             f.message.find("taken from the tenant list") != std::string::npos);
    EXPECT_EQ(f.message.find("have no metric series"), std::string::npos) << f.message;
    EXPECT_EQ(f.message.find("_sum"), std::string::npos) << f.message;
  }
  EXPECT_TRUE(found);
}

TEST(LiveSource, SavedMetricsAloneLackingASeriesStillFail) {
  std::string text = test::read_source_file("snapshots/genuine-live/r1_quiescent_orphan/metrics.txt");
  const std::string line = "mooncake_tenant_quota_over_quota{tenant_id=\"alpha\"} 0\n";
  const auto at = text.find(line);
  ASSERT_NE(at, std::string::npos);
  text.erase(at, line.size());
  const std::string path = ::testing::TempDir() + "/metrics-without-alpha-over-quota.txt";
  {
    std::ofstream out(path, std::ios::binary);
    out << text;
  }
  LiveRequest alone;
  alone.metrics_files = {path};
  auto obs = collect_live(alone);
  ASSERT_FALSE(obs.ok());
  EXPECT_EQ(obs.status().code(), util::StatusCode::corruption);
  EXPECT_NE(obs.status().message().find("tenant 'alpha' has no mooncake_tenant_quota_over_quota series"),
            std::string::npos)
      << obs.status().message();
  LiveRequest both = alone;
  both.list_files = {test::source_path("snapshots/genuine-live/r1_quiescent_orphan/api_list.json")};
  auto compared = collect_live(both);
  ASSERT_TRUE(compared.ok()) << compared.status().message();
  EXPECT_EQ(find(*compared, "alpha").min_charged_bytes, 840257u);
}

}  // namespace
}  // namespace moonquota::reconcile
