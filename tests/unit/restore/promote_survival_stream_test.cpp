// Survival on the promotion path from one streaming pass (restore/promote_survival with
// restore/promote_stream's lease points) against its whole-map form: random snapshots and OpLog
// tails (random_promotion_case.hpp), points before, between and after the objects' lease ends,
// both lease models, one and two threads. Every point must be equal, field by field; the stream
// must answer most cases itself.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "restore/promote_survival.hpp"
#include "support/local_store.hpp"
#include "unit/restore/random_promotion_case.hpp"

namespace moonquota::restore {
namespace {

using differential::k_now_ms;
using differential::RandomCase;

void expect_same_amounts(const std::map<std::string, SurvivalAmount, std::less<>>& a,
                         const std::map<std::string, SurvivalAmount, std::less<>>& b, const std::string& what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  for (auto i = a.begin(), j = b.begin(); i != a.end(); ++i, ++j) {
    EXPECT_EQ(i->first, j->first) << what;
    EXPECT_EQ(i->second.objects, j->second.objects) << what << " " << i->first;
    EXPECT_EQ(differential::u128_text(i->second.bytes), differential::u128_text(j->second.bytes))
        << what << " " << i->first;
    EXPECT_EQ(differential::u128_text(i->second.charged_bytes), differential::u128_text(j->second.charged_bytes))
        << what << " " << i->first;
  }
}

// `racy_bootstrap`: two threads, where which of two duplicate objects a failed bootstrap names
// depends on which shard a thread reached first (as for the standby's own loader).
void expect_same_survival(const PromoteSurvival& s, const PromoteSurvival& w, bool racy_bootstrap) {
  EXPECT_EQ(s.per_point_runs, w.per_point_runs);
  EXPECT_EQ(s.outcome.bootstrap.loaded, w.outcome.bootstrap.loaded);
  EXPECT_EQ(s.outcome.bootstrap.objects_loaded, w.outcome.bootstrap.objects_loaded);
  EXPECT_EQ(s.outcome.replay.applied_seq, w.outcome.replay.applied_seq);
  EXPECT_EQ(s.outcome.replay.findings.size(), w.outcome.replay.findings.size());
  ASSERT_EQ(s.points.size(), w.points.size());
  for (std::size_t p = 0; p < s.points.size(); ++p) {
    const std::string what = "point " + std::to_string(p);
    const PromoteSurvivalPoint& a = s.points[p];
    const PromoteSurvivalPoint& b = w.points[p];
    EXPECT_EQ(a.bootstrap_loaded, b.bootstrap_loaded) << what;
    if (!racy_bootstrap || b.bootstrap_loaded) { EXPECT_EQ(a.bootstrap_failure, b.bootstrap_failure) << what; }
    EXPECT_EQ(a.starts_empty, b.starts_empty) << what;
    EXPECT_EQ(a.validation_failure, b.validation_failure) << what;
    expect_same_amounts(a.kept, b.kept, what + " kept");
    expect_same_amounts(a.dropped, b.dropped, what + " dropped");
  }
}

TEST(PromoteSurvivalStream, EqualsTheWholeMapOnRandomStoresAndTails) {
  int compared = 0;
  int streamed_cases = 0;
  int lease_drops_seen = 0;
  int empty_points = 0;
  differential::for_each_variant(80, [&](std::uint32_t, int variant, const StoreSelection& selection,
                                         const source::OpLogSelection& oplog, const RestoreOptions& options) {
    SurvivalOptions survival;
    // Before every expiring lease ends, amid them, at the instant, and after every lease.
    survival.points_ms = {k_now_ms - 6000, k_now_ms - 2500, k_now_ms - 2500, k_now_ms, test::k_future_lease_ms};
    survival.lease_model = variant < 2 ? LeaseModel::upstream : LeaseModel::keep;
    auto streamed = survive_promotion(test::local_files(), selection, oplog, options, ReplayOptions{}, survival);
    auto whole = survive_promotion_whole_map(test::local_files(), selection, oplog, options, ReplayOptions{}, survival);
    ASSERT_EQ(streamed.ok(), whole.ok()) << (streamed.ok() ? whole.status() : streamed.status()).message();
    if (!streamed.ok()) {
      EXPECT_EQ(streamed.status().message(), whole.status().message());
      return;
    }
    ++compared;
    streamed_cases += streamed->engine == PromoteEngine::streaming ? 1 : 0;
    const auto dropped_objects = [](const PromoteSurvivalPoint& point) {
      std::uint64_t n = 0;
      for (const auto& [tenant, amount] : point.dropped) n += amount.objects;
      return n;
    };
    for (const auto& point : whole->points) {
      empty_points += point.starts_empty ? 1 : 0;
      if (dropped_objects(point) > dropped_objects(whole->points.front())) ++lease_drops_seen;
    }
    expect_same_survival(*streamed, *whole, options.threads > 1);
  });
  // The cases must reach empty promotions and points that drop more than the first, and the stream
  // must answer most of them.
  EXPECT_GT(compared, 250);
  EXPECT_GT(streamed_cases, compared / 2) << compared;
  EXPECT_GT(empty_points, 50);
  EXPECT_GT(lease_drops_seen, 5);
}

}  // namespace
}  // namespace moonquota::restore
