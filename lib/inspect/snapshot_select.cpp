#include "inspect/snapshot_select.hpp"

#include "source/embedded_catalog.hpp"
#include "source/object_store.hpp"
#include "source/snapshot_id.hpp"

namespace moonquota::inspect {

using util::Status;

util::Result<SelectedSnapshot> select_snapshot(source::ObjectStore& store, const restore::StoreSelection& selection) {
  SelectedSnapshot out;
  if (!selection.snapshot_dir.empty()) {
    MQ_ASSIGN_OR_RETURN(const bool exists, source::prefix_exists(store, selection.snapshot_dir));
    if (!exists) { return Status::not_found("no snapshot directory '" + selection.snapshot_dir + "'"); }
    const source::SnapshotDirectory dir = source::locate_snapshot_directory(selection.snapshot_dir);
    out.snapshot_id = dir.snapshot_id;
    out.snapshot_dir = dir.dir;
    out.catalog_root = dir.catalog_root;
    return out;
  }
  if (selection.store_dir.empty()) return Status::invalid_argument("one of --store or --snapshot-dir is required");
  MQ_ASSIGN_OR_RETURN(const source::CatalogListing listing, restore::read_catalog(store, selection));
  out.catalog_root = listing.root;
  out.catalog_findings = listing.findings;
  if (selection.snapshot == "latest") {
    out.candidates = source::restore_candidates(listing);
    if (out.candidates.empty()) {
      return Status::not_found("the catalog under " + listing.root +
                               " holds no snapshot candidate (the master starts EMPTY)");
    }
    out.snapshot_id = out.candidates.front();
    out.from_catalog_latest = true;
  } else {
    if (!source::is_valid_snapshot_id(selection.snapshot)) {
      return Status::invalid_argument("--snapshot '" + selection.snapshot + "' is not a valid snapshot id");
    }
    out.snapshot_id = selection.snapshot;
  }
  out.snapshot_dir = listing.root + out.snapshot_id;
  MQ_ASSIGN_OR_RETURN(const bool exists, source::prefix_exists(store, out.snapshot_dir));
  if (!exists) { return Status::not_found("no snapshot " + out.snapshot_id + " under " + listing.root); }
  return out;
}

MasterVerdict master_verdict(source::ObjectStore& store, const SelectedSnapshot& selected, const std::string& rejection,
                             const restore::RestoreOptions& options) {
  MasterVerdict verdict;
  if (rejection.empty()) {
    verdict.restores_inspected = true;
    verdict.restored_id = selected.snapshot_id;
    return verdict;
  }
  verdict.rejection = rejection;
  if (!selected.from_catalog_latest) return verdict;  // an explicit choice has no fallback
  for (std::size_t i = 1; i < selected.candidates.size(); ++i) {
    const std::string& id = selected.candidates[i];
    auto state = restore::decode_candidate(store, selected.catalog_root + id, id, options);
    verdict.fallback.push_back({id, state.ok(), state.ok() ? std::string() : state.status().message()});
    if (state.ok()) {
      verdict.restored_id = id;
      break;
    }
  }
  return verdict;
}

}  // namespace moonquota::inspect
