#include "restore/restore_path.hpp"

#include "source/embedded_catalog.hpp"
#include "source/object_store.hpp"
#include "source/redis_catalog.hpp"
#include "source/snapshot_id.hpp"

namespace moonquota::restore {

namespace {

// Decodes candidates in order until one is restored. Only a hit of our own memory guard stops
// the walk with an error: the master would not have rejected that candidate.
util::Status try_candidates(source::ObjectStore& store, const std::string& root, const std::vector<std::string>& ids,
                            const RestoreOptions& options, RestoreOutcome& outcome) {
  for (const auto& id : ids) {
    auto state = decode_candidate(store, root + id, id, options);
    if (!state.ok() && state.status().code() == util::StatusCode::limit_exceeded) {
      return state.status().with_context("snapshot " + id + " (raise --max-payload-bytes)");
    }
    // A store we could not read (S3 after the retry bound) is our failure, not the master's
    // rejection: no table is predicted from it.
    if (!state.ok() && state.status().code() == util::StatusCode::unavailable) {
      return state.status().with_context("snapshot " + id);
    }
    if (state.ok()) {
      outcome.attempts.push_back({id, true, {}});
      outcome.state = std::move(state).value();
      return {};
    }
    outcome.attempts.push_back({id, false, state.status().message()});
  }
  outcome.empty_reason =
      ids.empty() ? "the catalog holds no snapshot candidate" : "every snapshot candidate was rejected";
  return {};
}

}  // namespace

const std::string& store_location(const StoreSelection& selection) {
  return selection.snapshot_dir.empty() ? selection.store_dir : selection.snapshot_dir;
}

util::Result<source::CatalogListing> read_catalog(source::ObjectStore& store, const StoreSelection& selection) {
  const bool redis = selection.catalog == "redis";
  if (redis && selection.redis.empty())
    return util::Status::invalid_argument("--catalog redis needs --redis HOST:PORT");
  auto listing = redis ? source::read_redis_catalog(store, selection.redis, selection.store_dir, selection.cluster_id,
                                                    selection.net)
                       : source::read_embedded_catalog(store, selection.store_dir, selection.cluster_id);
  if (!listing.ok()) return listing.status();
  if (!listing->latest_error.empty()) {
    listing->findings.push_back(
        {model::Severity::warning, listing->root + "latest.txt",
         "GetLatest failed (" + listing->latest_error + "): the master falls back to the listing"});
  }
  MQ_ASSIGN_OR_RETURN(const bool root_exists, source::prefix_exists(store, listing->root));
  if (redis && !root_exists) {
    return util::Status::not_found("no snapshot root '" + listing->root + "' (check --store and --cluster-id" +
                                   source::doubled_root_hint(selection.store_dir) + ")");
  }
  return listing;
}

util::Result<RestoreOutcome> restore_master(source::ObjectStore& store, const StoreSelection& selection,
                                            const RestoreOptions& options) {
  RestoreOutcome outcome;
  if (!selection.snapshot_dir.empty()) {
    MQ_ASSIGN_OR_RETURN(const bool exists, source::prefix_exists(store, selection.snapshot_dir));
    if (!exists) { return util::Status::not_found("no snapshot directory '" + selection.snapshot_dir + "'"); }
    const source::SnapshotDirectory dir = source::locate_snapshot_directory(selection.snapshot_dir);
    outcome.catalog_root = dir.catalog_root;
    auto descriptor = store.size(source::join_key(dir.dir, "descriptor.txt"));
    if (!descriptor.ok() && descriptor.status().code() == util::StatusCode::unavailable) return descriptor.status();
    if (!descriptor.ok()) {
      outcome.catalog_findings.push_back(
          {model::Severity::warning, dir.dir, "no descriptor.txt: last_included_seq taken as 0"});
    }
    MQ_RETURN_IF_ERROR(try_candidates(store, outcome.catalog_root, {dir.snapshot_id}, options, outcome));
    return outcome;
  }
  MQ_ASSIGN_OR_RETURN(auto listing, read_catalog(store, selection));
  outcome.catalog_root = listing.root;
  outcome.catalog_findings = listing.findings;
  std::vector<std::string> candidates;
  if (selection.snapshot == "latest") {
    candidates = source::restore_candidates(listing);
  } else {
    if (!source::is_valid_snapshot_id(selection.snapshot)) {
      return util::Status::invalid_argument("--snapshot '" + selection.snapshot + "' is not a valid snapshot id");
    }
    MQ_ASSIGN_OR_RETURN(const bool exists, source::prefix_exists(store, listing.root + selection.snapshot));
    if (!exists) { return util::Status::not_found("no snapshot " + selection.snapshot + " under " + listing.root); }
    candidates = {selection.snapshot};
  }
  MQ_RETURN_IF_ERROR(try_candidates(store, listing.root, candidates, options, outcome));
  return outcome;
}

}  // namespace moonquota::restore
