#include "restore/promote_path.hpp"

#include "source/embedded_catalog.hpp"
#include "source/redis_catalog.hpp"

namespace moonquota::restore {

namespace {

// Where the standby bootstraps from: the catalog's latest snapshot (GetLatest only: the standby
// never falls back to an older one) or the directory given.
struct BootstrapSource {
  std::string dir;
  std::string id;
  std::string catalog_root;
};

// nullopt: nothing to load (the standby replays from sequence 1); `out` says why.
util::Result<std::optional<BootstrapSource>> locate_bootstrap(source::ObjectStore& object_store,
                                                              const StoreSelection& selection, PromoteOutcome& out) {
  if (!selection.snapshot_dir.empty()) {
    const source::SnapshotDirectory dir = source::locate_snapshot_directory(selection.snapshot_dir);
    return std::optional<BootstrapSource>(BootstrapSource{dir.dir, dir.snapshot_id, dir.catalog_root});
  }
  if (selection.store_dir.empty()) {
    out.no_snapshot_source = true;
    return std::optional<BootstrapSource>();
  }
  util::Result<source::CatalogListing> listing =
      selection.catalog == "redis"
          ? source::read_redis_catalog(object_store, selection.redis, selection.store_dir, selection.cluster_id,
                                       selection.net)
          : source::read_embedded_catalog(object_store, selection.store_dir, selection.cluster_id);
  if (!listing.ok()) return listing.status();
  out.catalog_findings = listing->findings;
  out.bootstrap.catalog_root = listing->root;
  if (!listing->latest_error.empty()) {
    out.bootstrap.failure = "GetLatest failed: " + listing->latest_error;
    return std::optional<BootstrapSource>();
  }
  if (!listing->latest) return std::optional<BootstrapSource>();  // no snapshot: replay from sequence 1
  return std::optional<BootstrapSource>(
      BootstrapSource{listing->root + *listing->latest, *listing->latest, listing->root});
}

util::Result<source::OpLogKeySet> read_keys(const source::OpLogSelection& oplog, const std::string& cluster_id) {
  source::OpLogReadLimits limits;
  limits.keep_values = false;  // the replay reads each batch when it decodes it
  return source::read_oplog(oplog, cluster_id, limits);
}

// The whole-map path: the standby's object map, bootstrapped, then the tail replayed onto it.
util::Result<PromoteOutcome> whole_map(source::ObjectStore& object_store, const std::optional<BootstrapSource>& from,
                                       source::OpLogKeySet& keys, const RestoreOptions& options,
                                       const ReplayOptions& replay_options, StandbyStore& store, PromoteOutcome out,
                                       const AfterBootstrap& after_bootstrap) {
  if (from) {
    out.bootstrap = load_standby_snapshot(object_store, from->dir, from->id, options, store);
    out.bootstrap.catalog_root = from->catalog_root;
  }
  if (after_bootstrap && !after_bootstrap(out.bootstrap, store)) return out;
  MQ_ASSIGN_OR_RETURN(out.replay, replay_oplog(keys, store, out.bootstrap.last_included_seq,
                                               replay_options_for(replay_options, options.threads)));
  for (auto& f : keys.findings) out.replay.findings.push_back(std::move(f));
  return out;
}

// The stream's bootstrap, replay and validation into `out`, with what the caller read.
void take_streamed(StreamedPromotion&& streamed, const BootstrapSource& from, source::OpLogKeySet& keys,
                   PromoteOutcome& out) {
  out.bootstrap = std::move(streamed.bootstrap);
  out.bootstrap.catalog_root = from.catalog_root;
  out.replay = std::move(streamed.replay);
  for (auto& f : keys.findings) out.replay.findings.push_back(std::move(f));
  out.validation = std::move(streamed.validation);
}

}  // namespace

util::Result<PromoteOutcome> bootstrap_and_replay(source::ObjectStore& object_store, const StoreSelection& selection,
                                                  const source::OpLogSelection& oplog, const RestoreOptions& options,
                                                  const ReplayOptions& replay_options, StandbyStore& store,
                                                  const AfterBootstrap& after_bootstrap) {
  PromoteOutcome out;
  MQ_ASSIGN_OR_RETURN(source::OpLogKeySet keys, read_keys(oplog, selection.cluster_id));
  MQ_ASSIGN_OR_RETURN(std::optional<BootstrapSource> from, locate_bootstrap(object_store, selection, out));
  return whole_map(object_store, from, keys, options, replay_options, store, std::move(out), after_bootstrap);
}

util::Result<PromoteOutcome> promote_standby_whole_map(source::ObjectStore& object_store,
                                                       const StoreSelection& selection,
                                                       const source::OpLogSelection& oplog,
                                                       const RestoreOptions& options,
                                                       const ReplayOptions& replay_options) {
  StandbyStore store;
  MQ_ASSIGN_OR_RETURN(PromoteOutcome out,
                      bootstrap_and_replay(object_store, selection, oplog, options, replay_options, store));
  out.validation = validate_promotion(store);
  return out;
}

util::Result<std::optional<StreamedPoints>> promote_standby_at_points(source::ObjectStore& object_store,
                                                                      const StoreSelection& selection,
                                                                      const source::OpLogSelection& oplog,
                                                                      const RestoreOptions& options,
                                                                      const ReplayOptions& replay_options,
                                                                      const std::vector<std::uint64_t>& lease_points) {
  StreamedPoints out;
  MQ_ASSIGN_OR_RETURN(source::OpLogKeySet keys, read_keys(oplog, selection.cluster_id));
  MQ_ASSIGN_OR_RETURN(std::optional<BootstrapSource> from, locate_bootstrap(object_store, selection, out.outcome));
  if (!from) return std::optional<StreamedPoints>();
  MQ_ASSIGN_OR_RETURN(std::optional<StreamedPromotion> streamed,
                      stream_promotion(object_store, from->dir, from->id, keys, options, replay_options, lease_points));
  if (!streamed || !streamed->bootstrap.loaded) return std::optional<StreamedPoints>();
  out.point_validations = std::move(streamed->point_validations);
  out.lease_drops = std::move(streamed->lease_drops);
  take_streamed(std::move(*streamed), *from, keys, out.outcome);
  return std::optional<StreamedPoints>(std::move(out));
}

util::Result<PromoteOutcome> promote_standby(source::ObjectStore& object_store, const StoreSelection& selection,
                                             const source::OpLogSelection& oplog, const RestoreOptions& options,
                                             const ReplayOptions& replay_options, PromoteEngine* engine) {
  PromoteOutcome out;
  MQ_ASSIGN_OR_RETURN(source::OpLogKeySet keys, read_keys(oplog, selection.cluster_id));
  MQ_ASSIGN_OR_RETURN(std::optional<BootstrapSource> from, locate_bootstrap(object_store, selection, out));
  if (from) {
    MQ_ASSIGN_OR_RETURN(std::optional<StreamedPromotion> streamed,
                        stream_promotion(object_store, from->dir, from->id, keys, options, replay_options));
    if (streamed) {
      if (engine != nullptr) *engine = PromoteEngine::streaming;
      take_streamed(std::move(*streamed), *from, keys, out);
      return out;
    }
  }
  // Nothing to bootstrap (the map holds only the tail), or a check failed that the whole map names.
  if (engine != nullptr) *engine = from ? PromoteEngine::whole_map_fallback : PromoteEngine::tail_only;
  StandbyStore store;
  MQ_ASSIGN_OR_RETURN(out, whole_map(object_store, from, keys, options, replay_options, store, std::move(out), {}));
  out.validation = validate_promotion(store);
  return out;
}

}  // namespace moonquota::restore
