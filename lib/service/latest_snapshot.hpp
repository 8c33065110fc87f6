// What serve probes between audits: the id the catalog names as latest, so that a new snapshot
// starts an audit at once.
#pragma once

#include <optional>
#include <string>

#include "restore/restore_path.hpp"
#include "source/object_store.hpp"
#include "util/status.hpp"

namespace moonquota::service {

// Whether the selection follows the catalog's latest snapshot (--snapshot latest from a store),
// so that probing the latest pointer means something.
[[nodiscard]] bool follows_latest(const restore::StoreSelection& selection);

// The id the catalog names as latest, read cheaply: the embedded catalog's latest.txt (one small
// object of `store`), or Redis' catalog. nullopt when there is no latest pointer. Errors: those of the store
// or of Redis (unavailable, io_error).
[[nodiscard]] util::Result<std::optional<std::string>> read_latest_snapshot_id(
    source::ObjectStore& store, const restore::StoreSelection& selection);

}  // namespace moonquota::service
