// Which snapshot an inspection reads (cli-contract.md input flags): `--snapshot-dir DIR`, one
// `--snapshot ID` of a store, or `latest` = the first candidate of the master's order
// (snapshot-format.md §3.1 step 2). Inspection reads that snapshot even when the master would
// reject it; `master_verdict` then says what the master does instead.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/finding.hpp"
#include "restore/candidate_decoder.hpp"
#include "restore/restore_path.hpp"
#include "util/status.hpp"

namespace moonquota::inspect {

struct SelectedSnapshot {
  std::string snapshot_id;
  std::string snapshot_dir;
  std::string catalog_root;          // "<store>/mooncake_master_snapshot/<cluster>/", or the parent of --snapshot-dir
  bool from_catalog_latest = false;  // chosen as the master's first candidate
  std::vector<std::string> candidates;  // the master's candidate order (catalog latest only)
  model::Findings catalog_findings;
};

// The snapshot of `selection` in `store` (its --store or --snapshot-dir, resolved by the caller).
// The catalog is the store's embedded one or, with `catalog == "redis"`, the Redis catalog.
// Errors: invalid_argument (bad --snapshot id, neither --store nor --snapshot-dir, redis without
// an address), unavailable (Redis cannot be read), not_found
// (no root, no such snapshot, an empty catalog), io_error.
[[nodiscard]] util::Result<SelectedSnapshot> select_snapshot(source::ObjectStore& store,
                                                             const restore::StoreSelection& selection);

// What the master does with the store when the inspected snapshot is `selected`:
// it restores the inspected snapshot, or rejects it and falls back (catalog latest only) to the
// next candidates in order, decoded from `store` with restore::decode_candidate, or starts EMPTY.
struct MasterVerdict {
  bool restores_inspected = false;
  std::string rejection;                            // why the inspected snapshot is rejected
  std::vector<restore::CandidateAttempt> fallback;  // later candidates tried, in order
  std::optional<std::string> restored_id;           // none: the master starts EMPTY
  // false when the metadata shards were not decoded before the verdict (objects and dump decide
  // it from manifest, segments and task_manager, then check the shards while listing): without a
  // rejection the verdict is then "not checked", never "restores".
  bool metadata_checked = true;
};

// `rejection` is empty when the master accepts the inspected snapshot.
[[nodiscard]] MasterVerdict master_verdict(source::ObjectStore& store, const SelectedSnapshot& selected,
                                           const std::string& rejection, const restore::RestoreOptions& options);

}  // namespace moonquota::inspect
