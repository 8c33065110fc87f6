// Restore survival on the promotion path (oplog-format.md §15-§16): for a list of instants at
// which a hot standby bootstraps from the catalog's latest snapshot, what the master promoted from
// it serves after the OpLog tail is replayed and the exported state validated, per tenant.
//
// Time enters only through the bootstrap's lease filter (snapshot-format.md §11: an object whose
// lease_timeout <= the bootstrap instant is dropped); replay and promotion grant no leases. Every
// object operation of the OpLog replaces or erases a whole (tenant, key) record (§13.2), so the
// replayed state at instant T is the state replayed once over a bootstrap that ignored leases,
// minus the objects that bootstrap loaded with a lease_timeout <= T and the OpLog never touched.
// That holds when the lease-ignoring bootstrap succeeds: its kept set contains every instant's, so
// no instant meets a duplicate key it did not meet. So: one bootstrap (leases ignored, each
// object's lease_timeout kept), one replay, then per point one promotion validation over the
// objects still present (validate_promotion with bootstrap_at_ms; a point where no loaded lease
// ended since the previous point reuses that point's validation). When that bootstrap fails (a
// duplicate key two expired leases would have hidden, say), each point runs the whole promotion
// on its own (promote_standby at that instant), exactly as quota-rebuild --path promote does.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "restore/promote_path.hpp"
#include "restore/survival.hpp"

namespace moonquota::restore {

struct PromoteSurvivalPoint {
  bool bootstrap_loaded = false;
  std::string bootstrap_failure;  // non-empty: the standby started EMPTY and replayed from sequence 1
  bool starts_empty = false;      // the promotion validation failed: the master serves EMPTY metadata
  std::string validation_failure;
  // What the promoted master holds, per tenant as the promotion resolves it: objects, the sum of
  // their sizes, their charge (size x COMPLETE MEMORY replicas). Empty when starts_empty.
  std::map<std::string, SurvivalAmount, std::less<>> kept;
  // What the bootstrap dropped, per tenant id of the snapshot (every filter: size 0, lease expired,
  // a non-COMPLETE replica, an invalid MEMORY replica): objects, sizes (an invalid MEMORY replica's
  // object counts no size), committed charge.
  std::map<std::string, SurvivalAmount, std::less<>> dropped;
};

struct PromoteSurvival {
  PromoteOutcome outcome;       // the shared bootstrap and replay (validation left default)
  bool per_point_runs = false;  // the lease-ignoring bootstrap failed: each point ran on its own
  PromoteEngine engine = PromoteEngine::whole_map_fallback;  // streaming: one pass, no object map
  std::vector<PromoteSurvivalPoint> points;                  // as SurvivalOptions::points_ms
};

// The bootstrap's pass is the streaming promotion's (restore/promote_stream, with the points as
// lease points): no object map. When the stream cannot decide (a check only the whole map names,
// a bootstrap that did not load), the whole-map form below answers.
// Errors: those of promote_standby (catalog, OpLog, fatal replay rules).
[[nodiscard]] util::Result<PromoteSurvival> survive_promotion(
    source::ObjectStore& object_store, const StoreSelection& selection, const source::OpLogSelection& oplog,
    const RestoreOptions& options, const ReplayOptions& replay_options, const SurvivalOptions& survival);

// The same answer from the standby's whole object map (memory grows with the store): the
// reference the streaming form is tested against.
[[nodiscard]] util::Result<PromoteSurvival> survive_promotion_whole_map(
    source::ObjectStore& object_store, const StoreSelection& selection, const source::OpLogSelection& oplog,
    const RestoreOptions& options, const ReplayOptions& replay_options, const SurvivalOptions& survival);

}  // namespace moonquota::restore
