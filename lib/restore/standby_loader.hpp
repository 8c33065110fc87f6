// The standby's snapshot bootstrap (snapshot-format.md §11, oplog-format.md §15.1): the catalog's
// LATEST snapshot only, no fallback, loaded with the standby rules:
//   manifest (standby rule) -> segments -> metadata (task_manager is not read)
//   every decode error fails the whole load, including objects the master would only skip;
//   objects dropped silently: size 0, lease_timeout <= now (not with LeaseModel::keep), any replica not COMPLETE, a
//   MEMORY replica whose segment/allocator is invalid; a duplicate (tenant, key) is a hard error.
// The registry gets one memory segment per mounted segment ("ms"); a MEMORY replica takes its
// endpoint from its segment record. last_included_seq comes from descriptor.txt.
// A failed load is part of the result (the standby then starts empty and replays from 1).
// Approximation: our metadata scanner applies the master's top-level rules (discarded_replicas and
// replica_next_id required, shard keys u32 < 1024), which the standby does not require.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "model/finding.hpp"
#include "restore/candidate_decoder.hpp"
#include "restore/standby_store.hpp"
#include "util/checked_math.hpp"

namespace moonquota::restore {

struct StandbyDrops {
  std::uint64_t size_zero = 0;
  std::uint64_t lease_expired = 0;
  std::uint64_t non_complete = 0;
  std::uint64_t invalid_memory = 0;
};

// One tenant's drops: the counts, and the committed charge (size x COMPLETE MEMORY replicas) of the
// lease-expired and non-COMPLETE ones (size-0 objects charge 0; an invalid-MEMORY one has no size).
struct StandbyTenantDrops {
  StandbyDrops objects;
  util::u128 lease_expired_bytes = 0;
  util::u128 non_complete_bytes = 0;
  // The sum of those objects' sizes (what they held, charged or not).
  util::u128 lease_expired_size_bytes = 0;
  util::u128 non_complete_size_bytes = 0;
};

struct StandbyBootstrap {
  std::string catalog_root;
  std::optional<std::string> snapshot_id;  // the latest snapshot, when the catalog names one
  bool loaded = false;
  std::string failure;                        // non-empty: the load failed; the standby starts EMPTY
  std::uint64_t last_included_seq = 0;        // 0 unless loaded
  std::optional<std::int64_t> created_at_ms;  // descriptor.txt's, when loaded
  std::uint64_t objects_loaded = 0;
  StandbyDrops dropped;
  // Per tenant, only tenants with a drop. Both empty after a failed load (everything is lost then).
  std::map<std::string, StandbyTenantDrops, std::less<>> tenants;
  model::Findings findings;
};

// Loads `snapshot_dir` of `object_store` into `store` (cleared first; cleared again on failure).
[[nodiscard]] StandbyBootstrap load_standby_snapshot(source::ObjectStore& object_store, const std::string& snapshot_dir,
                                                     const std::string& snapshot_id, const RestoreOptions& options,
                                                     StandbyStore& store);

}  // namespace moonquota::restore
