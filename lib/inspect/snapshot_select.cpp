#include "inspect/snapshot_select.hpp"

#include <filesystem>

#include "source/embedded_catalog.hpp"
#include "source/snapshot_id.hpp"

namespace moonquota::inspect {

namespace fs = std::filesystem;
using util::Status;

util::Result<SelectedSnapshot> select_snapshot(const restore::StoreSelection& selection) {
  SelectedSnapshot out;
  std::error_code ec;
  if (!selection.snapshot_dir.empty()) {
    if (!fs::is_directory(selection.snapshot_dir, ec)) {
      return Status::not_found("no snapshot directory '" + selection.snapshot_dir + "'");
    }
    fs::path dir = fs::path(selection.snapshot_dir).lexically_normal();
    if (dir.filename().empty()) dir = dir.parent_path();
    out.snapshot_id = dir.filename().string();
    out.snapshot_dir = dir.string();
    out.catalog_root = dir.parent_path().string() + "/";
    return out;
  }
  if (selection.store_dir.empty()) return Status::invalid_argument("one of --store or --snapshot-dir is required");
  MQ_ASSIGN_OR_RETURN(const source::CatalogListing listing, restore::read_catalog(selection));
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
  if (!fs::is_directory(out.snapshot_dir, ec)) {
    return Status::not_found("no snapshot " + out.snapshot_id + " under " + listing.root);
  }
  return out;
}

MasterVerdict master_verdict(const SelectedSnapshot& selected, const std::string& rejection,
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
    auto state = restore::decode_candidate(selected.catalog_root + id, id, options);
    verdict.fallback.push_back({id, state.ok(), state.ok() ? std::string() : state.status().message()});
    if (state.ok()) {
      verdict.restored_id = id;
      break;
    }
  }
  return verdict;
}

}  // namespace moonquota::inspect
