// restore/fingerprint_runs and restore/range_runs: the compact facts the streaming promotion keeps
// instead of objects, checked against the obvious answer on sorted vectors.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include "restore/fingerprint_runs.hpp"
#include "restore/range_runs.hpp"

namespace moonquota::restore {
namespace {

TEST(FingerprintRuns, FindsADuplicateWithinARunAcrossRunsAndNoneOtherwise) {
  FingerprintRuns none;
  for (std::uint64_t v : {5, 1, 9}) none.add(v);
  none.seal();
  EXPECT_FALSE(none.has_duplicate());
  EXPECT_TRUE(none.contains(9));
  EXPECT_FALSE(none.contains(2));

  FingerprintRuns within;
  for (std::uint64_t v : {5, 1, 5}) within.add(v);
  within.seal();
  EXPECT_TRUE(within.has_duplicate());

  FingerprintRuns other;
  for (std::uint64_t v : {7, 9}) other.add(v);
  other.seal();
  none.absorb(std::move(other));
  EXPECT_EQ(none.size(), 5u);
  EXPECT_TRUE(none.has_duplicate());  // 9 in both runs
}

TEST(FingerprintRuns, AgreesWithASetOnRandomRuns) {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 200; ++round) {
    FingerprintRuns runs;
    std::multiset<std::uint64_t> all;
    const int parts = 1 + static_cast<int>(rng() % 4);
    for (int p = 0; p < parts; ++p) {
      FingerprintRuns part;
      const int n = static_cast<int>(rng() % 50);
      for (int i = 0; i < n; ++i) {
        const std::uint64_t v = rng() % 400;  // collisions are likely
        part.add(v);
        all.insert(v);
      }
      part.seal();
      runs.absorb(std::move(part));
    }
    bool duplicate = false;
    for (auto it = all.begin(); it != all.end(); ++it) duplicate = duplicate || all.count(*it) > 1;
    EXPECT_EQ(runs.has_duplicate(), duplicate) << "round " << round;
  }
}

// Values spread over every bucket (the top bits), runs that fill and partition, and the buckets
// shared among threads: a duplicate planted anywhere is found, and contains_any sees exactly the
// values present.
TEST(FingerprintRuns, FindsAPlantedDuplicateInAnyBucketAcrossFullRunsWithThreads) {
  std::mt19937_64 rng(3);
  std::vector<std::uint64_t> values(FingerprintRuns::k_run_length + 5000);
  for (auto& v : values) v = rng();
  values.push_back(0);  // 0 is a value like any other
  for (const unsigned threads : {1u, 2u, 3u}) {
    FingerprintRuns first;
    FingerprintRuns second;
    for (std::size_t i = 0; i < values.size(); ++i) (i % 2 == 0 ? first : second).add(values[i]);
    first.seal();
    second.seal();
    first.absorb(std::move(second));
    EXPECT_EQ(first.size(), values.size());
    EXPECT_FALSE(first.has_duplicate(threads)) << threads;
    EXPECT_TRUE(first.contains_any({rng(), values[77], rng()}));
    EXPECT_TRUE(first.contains(0));
    EXPECT_FALSE(first.contains_any({values[5] + 1, values[6] ^ 1, 1}));
    EXPECT_FALSE(first.contains_any({}));
    FingerprintRuns planted;
    planted.add(values[values.size() / 2]);
    planted.seal();
    first.absorb(std::move(planted));
    EXPECT_TRUE(first.has_duplicate(threads)) << threads;
  }
  FingerprintRuns zeros;
  zeros.add(0);
  zeros.add(0);
  zeros.seal();
  EXPECT_TRUE(zeros.has_duplicate(2));
}

TEST(RangeRuns, TouchingRangesDoNotOverlapSharedBytesDo) {
  RangeRuns runs(2);
  runs.add(0, 100, 200);
  runs.add(0, 0, 100);
  runs.add(1, 50, 60);
  runs.seal();
  runs.add(0, 200, 300);
  runs.add(1, 59, 70);
  runs.seal();
  EXPECT_FALSE(runs.any_overlap(0));
  EXPECT_TRUE(runs.any_overlap(1));
  EXPECT_TRUE(runs.any_segment_overlaps(1));
  EXPECT_TRUE(runs.any_segment_overlaps(2));

  RangeRuns apart(3);
  for (std::size_t segment = 0; segment < 3; ++segment) apart.add(segment, 0, 10);
  apart.seal();
  EXPECT_FALSE(apart.any_segment_overlaps(2));
  apart.add(2, 9, 12);
  apart.seal();
  EXPECT_TRUE(apart.any_segment_overlaps(2));
}

TEST(RangeRuns, AgreesWithAPairwiseCheckOnRandomRanges) {
  std::mt19937_64 rng(11);
  for (int round = 0; round < 300; ++round) {
    RangeRuns runs(1);
    std::vector<std::pair<std::uint64_t, std::uint64_t>> all;
    const int n = static_cast<int>(rng() % 12);
    for (int i = 0; i < n; ++i) {
      const std::uint64_t begin = rng() % 1000 + (std::uint64_t{1} << 40);
      const std::uint64_t end = begin + 1 + rng() % 60;
      runs.add(0, begin, end);
      all.emplace_back(begin, end);
      if (rng() % 3 == 0) runs.seal();
    }
    runs.seal();
    bool overlap = false;
    for (std::size_t i = 0; i < all.size(); ++i) {
      for (std::size_t j = i + 1; j < all.size(); ++j) {
        overlap = overlap || (all[i].first < all[j].second && all[j].first < all[i].second);
      }
    }
    EXPECT_EQ(runs.any_overlap(0), overlap) << "round " << round;
  }
}

}  // namespace
}  // namespace moonquota::restore
