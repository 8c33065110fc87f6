#include "history/trend.hpp"

#include <gtest/gtest.h>

namespace moonquota::history {
namespace {

RunRecord run(std::uint64_t at_ms, std::int64_t delta, bool within = false, const std::string& tenant = "a") {
  RunRecord r;
  r.run_at_ms = at_ms;
  r.tenants.push_back({tenant, 100, static_cast<std::uint64_t>(100 + delta), delta,
                       within ? "match" : (delta > 0 ? "live_over" : "live_under"), within, delta, within});
  return r;
}

constexpr std::uint64_t k_hour = 3'600'000;

TEST(Trend, ThreeSameSignRunsArePersistentWithARate) {
  auto t =
      analyse_trends({run(0, 0, true), run(k_hour, 1000), run(2 * k_hour, 2000), run(3 * k_hour, 3000)}, 3, "restore");
  ASSERT_EQ(t.tenants.size(), 1u);
  const auto& a = t.tenants[0];
  EXPECT_EQ(a.streak_runs, 3u);
  EXPECT_EQ(a.streak_sign, 1);
  EXPECT_TRUE(a.persistent);
  ASSERT_TRUE(a.rate_bytes_per_hour.has_value());
  EXPECT_NEAR(*a.rate_bytes_per_hour, 1000.0, 1e-6);
}

TEST(Trend, SignChangeOrABalancedRunBreaksTheStreak) {
  auto flip = analyse_trends({run(0, 500), run(k_hour, -500), run(2 * k_hour, -600)}, 3, "restore");
  EXPECT_EQ(flip.tenants[0].streak_runs, 2u);
  EXPECT_EQ(flip.tenants[0].streak_sign, -1);
  EXPECT_FALSE(flip.tenants[0].persistent);
  auto balanced = analyse_trends({run(0, 500), run(k_hour, 500), run(2 * k_hour, 0, true)}, 2, "restore");
  EXPECT_EQ(balanced.tenants[0].streak_runs, 0u);
  EXPECT_FALSE(balanced.tenants[0].persistent);
  EXPECT_FALSE(balanced.tenants[0].rate_bytes_per_hour.has_value());
}

TEST(Trend, ATenantMissingFromTheLatestRunHasNoStreak) {
  auto t = analyse_trends({run(0, 500), run(k_hour, 500), run(2 * k_hour, 500), run(3 * k_hour, 0, true, "b")}, 3,
                          "restore");
  ASSERT_EQ(t.tenants.size(), 2u);
  EXPECT_FALSE(t.tenants[0].persistent);
}

TEST(Trend, ConfigurablePersistenceRuns) {
  auto t = analyse_trends({run(0, 500), run(k_hour, 600)}, 2, "restore");
  EXPECT_TRUE(t.tenants[0].persistent);
  auto five = analyse_trends({run(0, 500), run(k_hour, 600)}, 5, "restore");
  EXPECT_FALSE(five.tenants[0].persistent);
}

// Runs of the live and the restore model share a store but never a trend (issue 10).
TEST(Trend, RunsOfTheOtherModelAreNeverCompared) {
  auto live = [](std::uint64_t at, std::int64_t delta) {
    RunRecord r = run(at, delta);
    r.model = "live";
    return r;
  };
  const std::vector<RunRecord> runs = {run(0, 500), live(k_hour, 0), run(2 * k_hour, 600), live(3 * k_hour, 0),
                                       run(4 * k_hour, 700)};
  auto restore = analyse_trends(runs, 3, "restore");
  EXPECT_EQ(restore.model, "restore");
  EXPECT_EQ(restore.run_times_ms.size(), 3u);
  EXPECT_TRUE(restore.tenants[0].persistent) << "the live runs in between do not break the restore streak";
  auto balanced = analyse_trends(runs, 3, "live");
  EXPECT_EQ(balanced.run_times_ms.size(), 2u);
  EXPECT_FALSE(balanced.tenants[0].persistent);
  EXPECT_EQ(latest_model(runs), "restore");
  EXPECT_EQ(latest_model({}), "live");
}

// Persistence is judged on the unexplained remainder, not on the raw delta.
TEST(Trend, ExplainedDriftIsNeverPersistent) {
  std::vector<RunRecord> runs;
  for (std::uint64_t i = 0; i < 4; ++i) {
    RunRecord r = run(i * k_hour, 4096);
    r.tenants[0].unexplained_bytes = 0;  // every delta explained by writes in flight
    r.tenants[0].unexplained_within_tolerance = true;
    runs.push_back(r);
  }
  auto t = analyse_trends(runs, 3, "restore");
  EXPECT_EQ(t.tenants[0].streak_runs, 0u);
  EXPECT_FALSE(t.tenants[0].persistent);
}

TEST(Since, AbsoluteAndRelative) {
  EXPECT_EQ(*parse_since("1795956295488", 0), 1795956295488u);
  EXPECT_EQ(*parse_since("24h", 100 * k_hour), 76 * k_hour);
  EXPECT_EQ(*parse_since("90m", 100 * k_hour), 100 * k_hour - 90 * 60'000);
  EXPECT_EQ(*parse_since("7d", 10), 0u) << "clamped at the epoch";
  for (const char* bad : {"", "h", "5w", "-1h", "1.5h"}) {
    auto r = parse_since(bad, 1000);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().code(), util::StatusCode::invalid_argument);
  }
}

}  // namespace
}  // namespace moonquota::history
