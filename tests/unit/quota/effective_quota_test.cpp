// compute_effective_quotas against quota-semantics.md §11.3 (table), §7.6 and 128-bit extremes,
// plus a seeded property test that checks the characterisation of largest-remainder rounding.
#include "quota/effective_quota.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>

#include "util/checked_math.hpp"

namespace moonquota::quota {
namespace {

using Quotas = std::map<std::string, std::uint64_t>;
using util::u128;

constexpr std::uint64_t k_max = 9223372036854775807ULL;  // 2^63-1
constexpr std::uint64_t k_u64_max = 18446744073709551615ULL;

TEST(EffectiveQuota, SpecTableTwoTenantsScaleExactly) {
  EXPECT_EQ(compute_effective_quotas({{"a", 200}, {"b", 400}}, 300), (Quotas{{"a", 100}, {"b", 200}}));
}

TEST(EffectiveQuota, SpecTableOrphansAreNotInputs) {
  // The orphan (charged 20) has no policy: the caller gives it 0; it does not dilute S.
  EXPECT_EQ(compute_effective_quotas({{"a", 100}, {"b", 200}}, 150), (Quotas{{"a", 50}, {"b", 100}}));
}

TEST(EffectiveQuota, SpecTableTiesGoToTheSmallerId) {
  EXPECT_EQ(compute_effective_quotas({{"a", 1}, {"b", 1}, {"c", 1}}, 2), (Quotas{{"a", 1}, {"b", 1}, {"c", 0}}));
}

TEST(EffectiveQuota, SpecTableLargestRemainderFirst) {
  EXPECT_EQ(compute_effective_quotas({{"a", 300}, {"b", 500}, {"c", 200}}, 999),
            (Quotas{{"a", 300}, {"b", 499}, {"c", 200}}));
}

TEST(EffectiveQuota, SpecTableSingleTenantGetsTheCapacity) {
  EXPECT_EQ(compute_effective_quotas({{"tenant-a", 1000}}, 150), (Quotas{{"tenant-a", 150}}));
}

TEST(EffectiveQuota, SpecTableLeftoverIsNotHandedOut) {
  EXPECT_EQ(compute_effective_quotas({{"a", 100}, {"b", 200}}, 1000), (Quotas{{"a", 100}, {"b", 200}}));
}

TEST(EffectiveQuota, SpecTableZeroCapacityGivesZero) {
  EXPECT_EQ(compute_effective_quotas({{"a", 5}, {"b", k_max}}, 0), (Quotas{{"a", 0}, {"b", 0}}));
}

TEST(EffectiveQuota, WorkedExampleOfSection7_6) {
  Quotas requested{{"tenant-a", 1000}, {"tenant-b", 500}};
  EXPECT_EQ(compute_effective_quotas(requested, 1200), (Quotas{{"tenant-a", 800}, {"tenant-b", 400}}));
  EXPECT_EQ(compute_effective_quotas(requested, 0), (Quotas{{"tenant-a", 0}, {"tenant-b", 0}}));
}

TEST(EffectiveQuota, SingleTenantExampleOfSection7_6) {
  EXPECT_EQ(compute_effective_quotas({{"default", 1073741824}}, 16777216), (Quotas{{"default", 16777216}}));
}

TEST(EffectiveQuota, UpstreamCapacitySampledTest) {
  EXPECT_EQ(compute_effective_quotas({{"a", 1000}}, 100 + 50), (Quotas{{"a", 150}}));
}

TEST(EffectiveQuota, EmptyInputAndExactFit) {
  EXPECT_TRUE(compute_effective_quotas({}, 1000).empty());
  EXPECT_EQ(compute_effective_quotas({{"a", 600}, {"b", 400}}, 1000), (Quotas{{"a", 600}, {"b", 400}}));
}

TEST(EffectiveQuota, TieBreakIsBytewiseUnsigned) {
  // std::string compares through char_traits<char>: bytes as unsigned char.
  EXPECT_LT(std::string("a"), std::string("\x80"));
  EXPECT_LT(std::string("\x7f"), std::string("\xff"));
  EXPECT_LT(std::string("ab"), std::string("ab\x01"));  // a prefix sorts first
  EXPECT_EQ(compute_effective_quotas({{"\x80", 1}, {"a", 1}}, 1), (Quotas{{"\x80", 0}, {"a", 1}}));
  EXPECT_EQ(compute_effective_quotas({{"\xff"
                                       "z",
                                       1},
                                      {"\x7f", 1},
                                      {"ab", 1}},
                                     2),
            (Quotas{{"\xff"
                     "z",
                     0},
                    {"\x7f", 1},
                    {"ab", 1}}));
}

TEST(EffectiveQuota, MaximalCapacityAndRequestsFitWithoutScaling) {
  // S = 2^64-2 <= C = 2^64-1: requested values are returned unchanged.
  EXPECT_EQ(compute_effective_quotas({{"a", k_max}, {"b", k_max}}, k_u64_max), (Quotas{{"a", k_max}, {"b", k_max}}));
}

TEST(EffectiveQuota, SumAboveTwoToThe64NeedsWideArithmetic) {
  // S = 2^64 > C = 2^64-1. base = 2^63-2, 2^63-2, 1; rem = 2^63+1, 2^63+1, 2^64-2;
  // the 2 leftover bytes go to c (largest remainder), then a (tie with b, smaller id).
  EXPECT_EQ(compute_effective_quotas({{"a", k_max}, {"b", k_max}, {"c", 2}}, k_u64_max),
            (Quotas{{"a", k_max}, {"b", k_max - 1}, {"c", 2}}));
}

TEST(EffectiveQuota, TinyRequestWinsTheLeftoverOnRemainder) {
  // C = 2^63-1, S = 2^63: a base 2^63-2 rem 1, b base 0 rem 2^63-1 -> b takes the leftover.
  EXPECT_EQ(compute_effective_quotas({{"a", k_max}, {"b", 1}}, k_max), (Quotas{{"a", k_max - 1}, {"b", 1}}));
}

TEST(EffectiveQuota, ThousandMaximalTenantsShareMaximalCapacity) {
  Quotas requested;
  for (int i = 0; i < 1000; ++i) {
    std::string id = std::to_string(i);
    requested.emplace("t" + std::string(4 - id.size(), '0') + id, k_max);
  }
  auto effective = compute_effective_quotas(requested, k_u64_max);
  // (2^64-1) / 1000 = 18446744073709551 rem 615: the 615 smallest ids get one more byte.
  std::size_t index = 0;
  u128 total = 0;
  for (const auto& [id, bytes] : effective) {
    EXPECT_EQ(bytes, 18446744073709551ULL + (index < 615 ? 1 : 0)) << id;
    total += bytes;
    ++index;
  }
  EXPECT_EQ(total, k_u64_max);
}

// Checks the result against the definition of §11.3 without re-running the algorithm:
// each effective is base or base+1, exactly C - sum(base) tenants got the +1, and every tenant
// that got it precedes (rem descending, id ascending) every tenant that did not.
void expect_largest_remainder_split(const Quotas& requested, std::uint64_t capacity, const Quotas& effective) {
  u128 total_requested = 0;
  for (const auto& entry : requested) total_requested += entry.second;
  ASSERT_EQ(effective.size(), requested.size());
  if (total_requested <= capacity) {
    EXPECT_EQ(effective, requested);
    return;
  }
  u128 total_effective = 0;
  struct Split {
    u128 remainder;
    bool got_extra;
  };
  std::map<std::string, Split> splits;
  for (const auto& [id, bytes] : requested) {
    u128 product = static_cast<u128>(capacity) * bytes;
    u128 base = product / total_requested;
    std::uint64_t got = effective.at(id);
    ASSERT_TRUE(got == base || got == base + 1) << id;
    EXPECT_LE(got, bytes) << id;
    splits[id] = {product % total_requested, got == base + 1};
    total_effective += got;
  }
  EXPECT_EQ(total_effective, capacity);
  for (const auto& [winner, w] : splits) {
    if (!w.got_extra) continue;
    for (const auto& [loser, l] : splits) {
      if (l.got_extra) continue;
      bool precedes = w.remainder > l.remainder || (w.remainder == l.remainder && winner < loser);
      EXPECT_TRUE(precedes) << winner << " got the extra byte before " << loser;
    }
  }
}

TEST(EffectiveQuota, PropertySumEqualsCapacityWhenOversubscribed) {
  std::mt19937_64 random(20260822);
  int oversubscribed_cases = 0;
  for (int round = 0; round < 3000; ++round) {
    std::size_t tenant_count = 1 + random() % 40;
    // Small values create many remainder ties; large ones exercise 128-bit products.
    std::uint64_t limit = (round % 3 == 0) ? 10 : (round % 3 == 1) ? 1000000 : k_max;
    Quotas requested;
    u128 total = 0;
    while (requested.size() < tenant_count) {
      std::string id(1 + random() % 3, '\0');
      for (auto& c : id) c = static_cast<char>(0x20 + random() % 0xe0);  // includes bytes >= 0x80
      std::uint64_t bytes = 1 + random() % limit;
      if (requested.emplace(id, bytes).second) total += bytes;
    }
    // Capacity below, at or above S (clamped to 2^64-1).
    u128 span = total + total / 4 + 1;
    u128 drawn = (static_cast<u128>(random()) << 64 | random()) % span;
    auto capacity = static_cast<std::uint64_t>(drawn > k_u64_max ? k_u64_max : drawn);
    if (total > capacity) ++oversubscribed_cases;
    auto effective = compute_effective_quotas(requested, capacity);
    expect_largest_remainder_split(requested, capacity, effective);
    if (::testing::Test::HasFailure()) { FAIL() << "round " << round << " capacity " << capacity; }
  }
  EXPECT_GT(oversubscribed_cases, 1500);
}

}  // namespace
}  // namespace moonquota::quota
