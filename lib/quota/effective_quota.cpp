// BuildEffectiveQuotaAssignments: proportional scaling with largest-remainder rounding.
#include "quota/effective_quota.hpp"

#include <algorithm>
#include <vector>

#include "util/checked_math.hpp"

namespace moonquota::quota {
namespace {

using util::u128;

struct ScaledShare {
  const std::string* tenant;
  std::uint64_t bytes;  // floor(C*r/S), later + 1 for the winners of the leftover
  u128 remainder;       // C*r mod S
};

// rem descending, then tenant id ascending. std::string compares through
// char_traits<char>, which orders bytes as unsigned char: the master's bytewise order.
bool hands_out_first(const ScaledShare& a, const ScaledShare& b) {
  if (a.remainder != b.remainder) return a.remainder > b.remainder;
  return *a.tenant < *b.tenant;
}

}  // namespace

std::map<std::string, std::uint64_t> compute_effective_quotas(
    const std::map<std::string, std::uint64_t>& explicit_requested, std::uint64_t capacity_bytes) {
  // At most 2^64 entries of < 2^64 each, so the sum cannot wrap 128 bits.
  u128 total_requested = 0;
  for (const auto& entry : explicit_requested) total_requested += entry.second;
  if (total_requested <= capacity_bytes) return explicit_requested;

  // S > C >= 0, so S > 0. C*r < 2^128; base <= C because r <= S.
  std::vector<ScaledShare> shares;
  shares.reserve(explicit_requested.size());
  u128 handed_out = 0;
  for (const auto& [tenant, requested] : explicit_requested) {
    u128 product = static_cast<u128>(capacity_bytes) * requested;
    auto base = static_cast<std::uint64_t>(product / total_requested);
    shares.push_back({&tenant, base, product % total_requested});
    handed_out += base;
  }

  // Sum of rem/S over tenants is below the tenant count, so one pass hands out everything.
  u128 leftover = static_cast<u128>(capacity_bytes) - handed_out;
  std::sort(shares.begin(), shares.end(), hands_out_first);
  for (auto& share : shares) {
    if (leftover == 0) break;
    ++share.bytes;
    --leftover;
  }

  std::map<std::string, std::uint64_t> effective;
  for (const auto& share : shares) effective.emplace(*share.tenant, share.bytes);
  return effective;
}

}  // namespace moonquota::quota
