// `snapshot-inspect verify`: every rule the master enforces (a candidate rejection is an error
// Status, exit 3; what the master accepts but drops or mis-handles is a finding) plus the deeper
// checks of snapshot-format.md §15 (writer checklist) that are observable in the bytes.
//
// Snapshot-wide checks after the scan: duplicate (tenant, key) across shards (§5.3, error),
// replica ids used twice anywhere, discarded replicas included (§5.6), replica_next_id not above
// every id (§5.9, error), allocator totals per segment (§6.3), "an" names without an OK segment
// and "cs" segments absent from "ms" (§6.1, warnings), task enum values (§8, warning), the
// master's verdict on the snapshot (§16, error when it rejects it), and on an object store the
// CRC32C of each object read whole against the server's (object_checksums.hpp).
// Memory: the allocator index (allocator_check.hpp), 12 bytes per mis-sharded object and fixed
// merge buffers; replica ids are spilled to an unlinked temporary file (spilled_runs.hpp, about
// 2 bytes per replica on disk).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "inspect/object_checksums.hpp"
#include "inspect/verify_findings.hpp"
#include "restore/snapshot_reader.hpp"

namespace moonquota::inspect {

struct VerifyOptions {
  restore::ScanOptions scan;
  unsigned threads = 1;
  std::size_t findings_per_rule = 1000;  // also caps the duplicate replica ids located
  std::string temp_dir;                  // for the spilled replica ids (empty: $TMPDIR or /tmp)
};

struct VerifyResult {
  restore::ScannedSnapshot snapshot;
  FindingCollector findings;
  std::vector<VerifyFinding> listed;  // kept findings, sorted
  std::uint64_t max_replica_id = 0;
  std::uint64_t spilled_bytes = 0;         // size of the temporary file of replica ids
  std::optional<ChecksumCheck> checksums;  // object stores only (S3): the CRC32C comparison

  [[nodiscard]] bool failed() const { return findings.count(model::Severity::error) > 0; }
};

// Errors: what restore::scan_snapshot returns (the master cannot decode the snapshot: exit 3).
// `catalog_findings` (from select_snapshot) are folded in. The snapshot is read from `store`.
[[nodiscard]] util::Result<VerifyResult> verify_snapshot(source::ObjectStore& store, const std::string& snapshot_dir,
                                                         const std::string& snapshot_id, const VerifyOptions& options,
                                                         const model::Findings& catalog_findings);

}  // namespace moonquota::inspect
