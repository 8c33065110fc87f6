// The master restore path (path A, snapshot-format.md §3): pick candidates from the catalog,
// decode them in order, the first that decodes wins; if none does, the master starts empty.
#pragma once

#include <string>

#include "restore/candidate_decoder.hpp"
#include "restore/restored_state.hpp"
#include "source/embedded_catalog.hpp"
#include "util/net_config.hpp"
#include "util/status.hpp"

namespace moonquota::restore {

struct StoreSelection {
  std::string store_dir;  // --store
  std::string cluster_id = "mooncake_cluster";
  std::string snapshot = "latest";   // --snapshot: "latest" or one id
  std::string snapshot_dir;          // --snapshot-dir (instead of a store)
  std::string catalog = "embedded";  // --catalog embedded | redis
  std::string redis;                 // --redis HOST:PORT (catalog redis)
  util::NetConfig net;               // Redis and etcd (policy) timeouts and logging hook
};

// Where the objects of `selection` live: its --snapshot-dir, else its --store (what a caller
// resolves into the store it hands to the functions below).
[[nodiscard]] const std::string& store_location(const StoreSelection& selection);

// The catalog of `selection` in `store` (embedded, or Redis with `catalog == "redis"`): the listing, with
// a warning finding added when GetLatest failed. Errors: invalid_argument (redis without an
// address), unavailable (Redis), not_found (no snapshot root), io_error.
[[nodiscard]] util::Result<source::CatalogListing> read_catalog(source::ObjectStore& store,
                                                                const StoreSelection& selection);

// Restores from `store`, the store of `selection` (its --store or --snapshot-dir, resolved by the
// caller). Errors: only when nothing can be read at all (no store root, unreadable directory): NotFound
// or IOError. Every candidate problem is part of the outcome, never an error.
[[nodiscard]] util::Result<RestoreOutcome> restore_master(source::ObjectStore& store, const StoreSelection& selection,
                                                          const RestoreOptions& options);

}  // namespace moonquota::restore
