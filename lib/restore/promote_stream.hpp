// The promotion path in bounded memory (docs/ARCHITECTURE.md, "Promote"): the same bootstrap,
// replay and validation as the whole-map path (restore/promote_path), without the standby's
// object map.
//
//   1. The OpLog tail is replayed first, as soon as the snapshot's descriptor and segments are
//      read, into a store that keeps tombstones: it holds the tail's final record of every key
//      the tail decides (a replay never reads an object it does not write, so its result does not
//      depend on the bootstrapped objects), and the final registry.
//   2. The metadata shards are read once, in parallel, under the standby's rules. Each kept
//      object leaves a 64-bit fingerprint of its (tenant, key); an object the tail decided is
//      skipped; any other is checked on the spot (tenant, replicas) and tallied, its counted
//      memory ranges appended to compact per-segment runs and its sizes to per-segment totals.
//   3. Then the global checks: no fingerprint twice (no bootstrap duplicate), no segment over its
//      capacity (a prefix can cross it only if the total does), no two ranges overlap, no
//      NUL-scoped key resolves onto another object.
// Memory: the tail's objects, 8 bytes per snapshot object and a few bytes per counted range.
//
// When every check passes, the result is the promotion's, byte for byte. When one fails, which
// violation the master reports (the first in raw key order, the pair std::sort puts side by side)
// needs the whole map: the caller then runs the whole-map path (no result here). A bootstrap that
// fails on the snapshot's bytes is decided here: the standby starts empty and replays the tail
// from sequence 1, which holds only the tail.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "restore/oplog_replay.hpp"
#include "restore/promotion_validation.hpp"
#include "restore/standby_loader.hpp"
#include "restore/survival.hpp"
#include "source/object_store.hpp"
#include "source/oplog_source.hpp"

namespace moonquota::restore {

// Per snapshot tenant (as the bootstrap reads it) and lease point: the objects a bootstrap at that
// point is the first to drop for their lease.
using LeaseDrops = std::map<std::string, std::vector<SurvivalAmount>, std::less<>>;

struct StreamedPromotion {
  StandbyBootstrap bootstrap;  // snapshot_id set; catalog_root left to the caller
  ReplayResult replay;         // without the key set's findings (the caller appends them)
  PromotionValidation validation;
  // With lease points, when the bootstrap loaded: per point, the validation of what a standby that
  // bootstrapped at that instant holds after the replay, and the lease drops.
  std::vector<PromotionValidation> point_validations;
  LeaseDrops lease_drops;
};

// Promotes a standby that bootstraps from snapshot `snapshot_id` under `snapshot_dir` of
// `object_store` and replays `keys`. nullopt: a check failed that only the whole map names.
// `lease_points` (ascending; survival on the promotion path, restore/promote_survival): the
// bootstrap is expected to keep leases (options.lease_model keep) and each point is answered as a
// bootstrap at that instant would be: objects the bootstrap loaded with a lease_timeout <= it and
// the tail never wrote are absent (oplog-format.md §13.2: a replay replaces or erases whole
// records, so the tail's outcome does not depend on the instant).
// Errors: the replay's (a fatal reader rule after a successful bootstrap: corruption).
[[nodiscard]] util::Result<std::optional<StreamedPromotion>> stream_promotion(
    source::ObjectStore& object_store, const std::string& snapshot_dir, const std::string& snapshot_id,
    const source::OpLogKeySet& keys, const RestoreOptions& options, const ReplayOptions& replay_options,
    const std::vector<std::uint64_t>& lease_points = {});

}  // namespace moonquota::restore
