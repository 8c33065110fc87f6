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
#include "restore/standby_entry.hpp"
#include "restore/standby_store.hpp"
#include "util/checked_math.hpp"

namespace moonquota::restore {

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

// The standby's rules under a restore's options.
[[nodiscard]] StandbyRules standby_rules(const RestoreOptions& options);
// The registry a bootstrap starts from: one memory segment per mounted segment, by endpoint.
void add_snapshot_segments(const model::SegmentsPayload& segments, std::map<std::string, StandbySegment>& registry);
// Marks `out` failed with `failure`: nothing loaded, no drops, no baseline (the standby replays
// from sequence 1).
void fail_bootstrap(StandbyBootstrap& out, std::string failure);

// Loads `snapshot_dir` of `object_store` into `store` (cleared first; cleared again on failure).
[[nodiscard]] StandbyBootstrap load_standby_snapshot(source::ObjectStore& object_store, const std::string& snapshot_dir,
                                                     const std::string& snapshot_id, const RestoreOptions& options,
                                                     StandbyStore& store);

}  // namespace moonquota::restore
