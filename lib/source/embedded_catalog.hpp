// The embedded snapshot catalog in an object store (snapshot-format.md §2.4, §2.10, §3.1):
//   <store>/mooncake_master_snapshot/<cluster_id>/latest.txt      "<snapshot_id>" (trimmed on read)
//   <store>/mooncake_master_snapshot/<cluster_id>/<snapshot_id>/  descriptor.txt + payloads
// List: every directory right under the root that holds at least one file (recursively), whose
// name is a valid id and whose descriptor.txt parses, newest (string-greatest) first.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "model/finding.hpp"
#include "model/snapshot_types.hpp"
#include "source/object_store.hpp"
#include "util/status.hpp"

namespace moonquota::source {

// "<store>/mooncake_master_snapshot/" + "<cluster_id>/" when cluster_id is non-empty.
[[nodiscard]] std::string snapshot_root(const std::string& store_dir, const std::string& cluster_id);

// The cluster ids under <store_dir>/mooncake_master_snapshot/ (directories holding at least one
// object). Errors: the store's listing errors.
[[nodiscard]] util::Result<std::set<std::string>> cluster_ids_in_store(ObjectStore& store,
                                                                       const std::string& store_dir);

// "; --store names the folder that holds mooncake_master_snapshot/: try --store 'X' --cluster-id Y"
// when `store_dir` itself reaches into the snapshot root (the suffix would be doubled); else empty.
[[nodiscard]] std::string doubled_root_hint(const std::string& store_dir);

struct CatalogListing {
  std::string root;
  std::optional<std::string> latest;  // GetLatest succeeded with this id
  std::string latest_error;           // why GetLatest failed (empty: no failure, maybe no latest)
  std::vector<std::string> listed;    // List(): valid ids with parsable descriptors, newest first
  model::Findings findings;           // invisible directories, unpublished snapshots, ...
};

// Reads the catalog from `store`. Fails only when the root itself cannot be read (NotFound / IOError).
[[nodiscard]] util::Result<CatalogListing> read_embedded_catalog(ObjectStore& store, const std::string& store_dir,
                                                                 const std::string& cluster_id);

// The master's candidate order (§3.1 step 2): [latest] + listed ids <= latest, newest first,
// de-duplicated; without a latest: every listed id.
[[nodiscard]] std::vector<std::string> restore_candidates(const CatalogListing& listing);

// A snapshot named by its directory (--snapshot-dir): the directory normalised (no trailing '/'),
// the snapshot id (its last component) and the catalog root it sits in ("<parent>/").
struct SnapshotDirectory {
  std::string dir;
  std::string snapshot_id;
  std::string catalog_root;
};
[[nodiscard]] SnapshotDirectory locate_snapshot_directory(const std::string& snapshot_dir);

// Reads and parses <root><id>/descriptor.txt from `store`.
[[nodiscard]] util::Result<model::SnapshotDescriptor> read_descriptor(ObjectStore& store,
                                                                      const std::string& snapshot_dir);

}  // namespace moonquota::source
