// SpilledRuns: values repeated across sorted runs kept in an unlinked temporary file, compared
// against a plain in-memory count.
#include "inspect/spilled_runs.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <map>
#include <random>

namespace moonquota::inspect {
namespace {

using Sets = std::map<std::uint64_t, std::set<std::uint32_t>>;

TEST(SpilledRuns, FindsValuesInTwoRunsAndNamesBothSlots) {
  SpilledRuns runs(4, "");
  ASSERT_TRUE(runs.add_run(0, 0, {1, 5, 9}));
  ASSERT_TRUE(runs.add_run(2, 1, {2, 5, 10}));
  ASSERT_TRUE(runs.add_run(3, 2, {9, 11}));
  auto r = runs.repeated(false, 100);
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  EXPECT_EQ(r->values, (Sets{{5, {0, 2}}, {9, {0, 3}}}));
  EXPECT_EQ(r->total, 2u);
}

TEST(SpilledRuns, RepeatsInsideOneRunCountOnlyWhenAsked) {
  SpilledRuns runs(2, "");
  ASSERT_TRUE(runs.add_run(1, 0, {3, 3, 4}));
  EXPECT_TRUE(runs.repeated(false, 10)->values.empty());
  EXPECT_EQ(runs.repeated(true, 10)->values, (Sets{{3, {1}}}));
}

TEST(SpilledRuns, LaterSequenceReplacesAnEarlierRunOfTheSameSlot) {
  SpilledRuns runs(2, "");
  ASSERT_TRUE(runs.add_run(0, 5, {7}));
  ASSERT_TRUE(runs.add_run(1, 6, {8}));
  EXPECT_FALSE(runs.add_run(0, 4, {8}));  // older blob of shard 0: ignored
  EXPECT_TRUE(runs.repeated(false, 10)->values.empty());
  ASSERT_TRUE(runs.add_run(0, 9, {8}));  // newer blob: replaces {7}
  EXPECT_EQ(runs.repeated(false, 10)->values, (Sets{{8, {0, 1}}}));
}

TEST(SpilledRuns, ExtremeValuesRoundTrip) {
  constexpr auto max = std::numeric_limits<std::uint64_t>::max();
  SpilledRuns runs(2, "");
  ASSERT_TRUE(runs.add_run(0, 0, {0, 127, 128, max}));
  ASSERT_TRUE(runs.add_run(1, 1, {0, 128, max}));
  EXPECT_EQ(runs.repeated(false, 10)->values, (Sets{{0, {0, 1}}, {128, {0, 1}}, {max, {0, 1}}}));
}

TEST(SpilledRuns, CapKeepsTheSmallestButCountsAll) {
  SpilledRuns runs(2, "");
  std::vector<std::uint64_t> v(100);
  for (std::uint64_t i = 0; i < v.size(); ++i) v[i] = i * 3;
  ASSERT_TRUE(runs.add_run(0, 0, v));
  ASSERT_TRUE(runs.add_run(1, 1, v));
  auto r = runs.repeated(false, 4);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->total, 100u);
  ASSERT_EQ(r->values.size(), 4u);
  EXPECT_EQ(r->values.rbegin()->first, 9u);
}

TEST(SpilledRuns, MatchesAnInMemoryCountOnRandomRuns) {
  std::mt19937_64 rng(11);
  constexpr std::uint32_t slots = 64;
  SpilledRuns runs(slots, "");
  std::map<std::uint64_t, std::set<std::uint32_t>> seen;
  for (std::uint32_t s = 0; s < slots; ++s) {
    std::vector<std::uint64_t> v(3000);  // bigger than one 16 KiB read buffer once encoded
    for (auto& x : v) x = rng() % 2'000'000;
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    for (auto x : v) seen[x].insert(s);
    ASSERT_TRUE(runs.add_run(s, s, v));
  }
  Sets expected;
  for (auto& [x, where] : seen) {
    if (where.size() > 1) expected[x] = where;
  }
  auto r = runs.repeated(false, 1'000'000);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->total, expected.size());
  EXPECT_EQ(r->values, expected);
  EXPECT_GT(runs.bytes_written(), 0u);
}

TEST(SpilledRuns, UnusableTempDirIsAnIoErrorNamingIt) {
  SpilledRuns runs(1, "/nonexistent/moonquota-tmp");
  EXPECT_FALSE(runs.add_run(0, 0, {1}));
  EXPECT_EQ(runs.status().code(), util::StatusCode::io_error);
  EXPECT_NE(runs.status().message().find("/nonexistent/moonquota-tmp"), std::string::npos);
  EXPECT_FALSE(runs.repeated(false, 1).ok());
}

}  // namespace
}  // namespace moonquota::inspect
