#include "restore/upsert_match.hpp"

#include "util/checked_math.hpp"

namespace moonquota::restore {

std::uint64_t match_upserts_in_flight(std::map<std::string, TenantTally, std::less<>>& tenants,
                                      const std::vector<model::DiscardedItem>& discarded,
                                      std::uint64_t release_timeout_ms) {
  if (discarded.empty()) return 0;
  // ttl -> indices of unmatched items with that ttl (negative ttls never match a put time).
  std::multimap<std::uint64_t, std::size_t> by_ttl;
  for (std::size_t i = 0; i < discarded.size(); ++i) {
    if (discarded[i].ttl_ms >= 0) by_ttl.emplace(static_cast<std::uint64_t>(discarded[i].ttl_ms), i);
  }
  std::uint64_t matched = 0;
  for (auto& [tenant, tally] : tenants) {
    auto& evidence = tally.evidence;
    for (const auto& write : evidence.in_flight) {
      const std::uint64_t ttl = util::saturating_add(write.put_start_time_ms, release_timeout_ms);
      auto [first, last] = by_ttl.equal_range(ttl);
      if (first == last) continue;
      util::u128 old_bytes = 0;
      for (auto it = first; it != last; ++it) {
        old_bytes += discarded[it->second].mem_size;
        ++matched;
      }
      by_ttl.erase(first, last);
      ++evidence.upserts.objects;
      evidence.upserts.old_bytes += old_bytes;
      evidence.upserts.new_bytes += util::clamped_mul(write.size, write.processing_memory);
    }
  }
  return matched;
}

}  // namespace moonquota::restore
