#include "restore/promote_path.hpp"

#include "source/embedded_catalog.hpp"
#include "source/redis_catalog.hpp"

namespace moonquota::restore {

namespace {

// GetLatest only: the standby never falls back to an older snapshot.
util::Status bootstrap(source::ObjectStore& object_store, const StoreSelection& selection,
                       const RestoreOptions& options, StandbyStore& store, PromoteOutcome& out) {
  if (!selection.snapshot_dir.empty()) {
    const source::SnapshotDirectory dir = source::locate_snapshot_directory(selection.snapshot_dir);
    out.bootstrap = load_standby_snapshot(object_store, dir.dir, dir.snapshot_id, options, store);
    out.bootstrap.catalog_root = dir.catalog_root;
    return {};
  }
  if (selection.store_dir.empty()) {
    out.no_snapshot_source = true;
    return {};
  }
  util::Result<source::CatalogListing> listing =
      selection.catalog == "redis"
          ? source::read_redis_catalog(object_store, selection.redis, selection.store_dir, selection.cluster_id,
                                       selection.net)
          : source::read_embedded_catalog(object_store, selection.store_dir, selection.cluster_id);
  if (!listing.ok()) return listing.status();
  out.catalog_findings = listing->findings;
  if (!listing->latest_error.empty()) {
    out.bootstrap.catalog_root = listing->root;
    out.bootstrap.failure = "GetLatest failed: " + listing->latest_error;
    return {};
  }
  if (!listing->latest) {
    out.bootstrap.catalog_root = listing->root;
    return {};  // no snapshot: not a failure, replay from sequence 1
  }
  out.bootstrap =
      load_standby_snapshot(object_store, listing->root + *listing->latest, *listing->latest, options, store);
  out.bootstrap.catalog_root = listing->root;
  return {};
}

}  // namespace

util::Result<PromoteOutcome> bootstrap_and_replay(source::ObjectStore& object_store, const StoreSelection& selection,
                                                  const source::OpLogSelection& oplog, const RestoreOptions& options,
                                                  const ReplayOptions& replay_options, StandbyStore& store,
                                                  const AfterBootstrap& after_bootstrap) {
  PromoteOutcome out;
  source::OpLogReadLimits limits;
  limits.keep_values = false;  // the replay reads each batch when it decodes it
  MQ_ASSIGN_OR_RETURN(source::OpLogKeySet keys, source::read_oplog(oplog, selection.cluster_id, limits));
  MQ_RETURN_IF_ERROR(bootstrap(object_store, selection, options, store, out));
  if (after_bootstrap && !after_bootstrap(out.bootstrap, store)) return out;
  MQ_ASSIGN_OR_RETURN(out.replay, replay_oplog(keys, store, out.bootstrap.last_included_seq, replay_options));
  for (auto& f : keys.findings) out.replay.findings.push_back(std::move(f));
  return out;
}

util::Result<PromoteOutcome> promote_standby(source::ObjectStore& object_store, const StoreSelection& selection,
                                             const source::OpLogSelection& oplog, const RestoreOptions& options,
                                             const ReplayOptions& replay_options) {
  StandbyStore store;
  MQ_ASSIGN_OR_RETURN(PromoteOutcome out,
                      bootstrap_and_replay(object_store, selection, oplog, options, replay_options, store));
  out.validation = validate_promotion(store);
  return out;
}

}  // namespace moonquota::restore
