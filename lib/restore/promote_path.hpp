// The promotion path (path B, quota-semantics.md §4.2, oplog-format.md §15-§16): the standby
// bootstraps from the catalog's latest snapshot (standby rules, no fallback; on failure it starts
// empty and replays from sequence 1), replays the OpLog tail, and the promoted master validates
// the exported state; a validation failure means EMPTY metadata.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "restore/oplog_replay.hpp"
#include "restore/promote_stream.hpp"
#include "restore/promotion_validation.hpp"
#include "restore/restore_path.hpp"
#include "restore/standby_loader.hpp"
#include "source/oplog_source.hpp"

namespace moonquota::restore {

struct PromoteOutcome {
  StandbyBootstrap bootstrap;
  ReplayResult replay;
  PromotionValidation validation;
  bool no_snapshot_source = false;  // neither --store nor --snapshot-dir: replay from sequence 1
  model::Findings catalog_findings;
  // The master serves empty metadata: validation failed.
  [[nodiscard]] bool starts_empty() const { return !validation.ok; }
};

// The standby's part of promote_standby: bootstraps `store` and replays the OpLog tail onto it,
// without the promotion validation (`validation` stays default). `after_bootstrap`, when given,
// sees the bootstrap and the store before the replay; returning false skips the replay (`replay`
// stays default). Errors: those of promote_standby.
using AfterBootstrap = std::function<bool(const StandbyBootstrap&, const StandbyStore&)>;
[[nodiscard]] util::Result<PromoteOutcome> bootstrap_and_replay(
    source::ObjectStore& object_store, const StoreSelection& selection, const source::OpLogSelection& oplog,
    const RestoreOptions& options, const ReplayOptions& replay_options, StandbyStore& store,
    const AfterBootstrap& after_bootstrap = {});

// Which engine decided a promotion (the result is the same; memory and time differ).
enum class PromoteEngine {
  streaming,           // restore/promote_stream: the snapshot read once, no object map
  whole_map_fallback,  // a check failed: the whole map names the first violation
  tail_only,           // no snapshot to bootstrap: the map holds only the tail
};

// The standby bootstraps from `object_store`, the store of `selection`: the streaming promotion
// (restore/promote_stream), or the whole map when a check fails or there is no snapshot to load.
// `engine`, when given, receives which one decided.
// Errors: the catalog cannot be read at all (not_found / io_error / unavailable), the OpLog cannot
// be read (unavailable / io_error), or the replay hits a fatal reader rule (corruption: exit 3).
[[nodiscard]] util::Result<PromoteOutcome> promote_standby(
    source::ObjectStore& object_store, const StoreSelection& selection, const source::OpLogSelection& oplog,
    const RestoreOptions& options, const ReplayOptions& replay_options, PromoteEngine* engine = nullptr);

// Survival's promotions (restore/promote_survival) from one streaming pass: the standby bootstraps
// under `options` (leases kept) and each of `lease_points` (ascending) is answered as a bootstrap
// at that instant would be (restore/promote_stream).
struct StreamedPoints {
  PromoteOutcome outcome;  // the shared bootstrap and replay; its validation holds every object
  std::vector<PromotionValidation> point_validations;  // per lease point
  LeaseDrops lease_drops;
};
// nullopt: no snapshot to bootstrap, a bootstrap that did not load, or a check that only the whole
// map names. Errors: those of promote_standby.
[[nodiscard]] util::Result<std::optional<StreamedPoints>> promote_standby_at_points(
    source::ObjectStore& object_store, const StoreSelection& selection, const source::OpLogSelection& oplog,
    const RestoreOptions& options, const ReplayOptions& replay_options, const std::vector<std::uint64_t>& lease_points);

// The whole-map promotion: the standby's object map, bootstrapped, replayed and validated as a
// whole (memory grows with the store). The reference the streaming promotion is tested against.
[[nodiscard]] util::Result<PromoteOutcome> promote_standby_whole_map(source::ObjectStore& object_store,
                                                                     const StoreSelection& selection,
                                                                     const source::OpLogSelection& oplog,
                                                                     const RestoreOptions& options,
                                                                     const ReplayOptions& replay_options);

}  // namespace moonquota::restore
