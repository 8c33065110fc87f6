// Finds the size-changing Upserts in flight in one snapshot's metadata (live-master-api.md §11
// item 8; snapshot-format.md §5.8, §15): an UpsertStart leaves the object with its new size in
// PROCESSING MEMORY replicas and parks the old MEMORY buffers in "discarded_replicas" with
// ttl_ms = upsert time + put_start_release_timeout (600000 ms by default). A running master keeps
// charging the old bytes until the UpsertEnd settles. The metadata links the two halves only by
// that time: an in-flight write whose put_start_time_ms + the timeout equals a discarded item's
// ttl_ms takes every still unmatched item with that ttl (two upserts in one millisecond are
// attributed to the first, in tenant and shard order).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "model/snapshot_types.hpp"
#include "restore/restored_state.hpp"

namespace moonquota::restore {

inline constexpr std::uint64_t k_put_start_release_timeout_ms = 600'000;

// Fills TenantEvidence::upserts of every tenant from its in-flight list. Returns the number of
// discarded items matched.
std::uint64_t match_upserts_in_flight(std::map<std::string, TenantTally, std::less<>>& tenants,
                                      const std::vector<model::DiscardedItem>& discarded,
                                      std::uint64_t release_timeout_ms = k_put_start_release_timeout_ms);

}  // namespace moonquota::restore
