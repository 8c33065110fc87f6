// Knobs of the one reader (restore::scan_snapshot) that only tests turn, kept apart from
// ScanOptions, which says what a caller reads: include this header in tests only.
#pragma once

#include <string>
#include <vector>

#include "restore/snapshot_reader.hpp"
#include "source/object_store.hpp"
#include "util/status.hpp"

namespace moonquota::restore {

struct ScanHooks {
  // With the overlap (ScanOptions::overlap_segments), every shard is decoded speculatively, also
  // once the segment table is known (the speculation is checked against it all the same).
  bool speculate_every_shard = false;
};

// scan_snapshot with `hooks`.
[[nodiscard]] util::Result<ScannedSnapshot> scan_snapshot_with_hooks(
    source::ObjectStore& store, const std::string& snapshot_dir, const std::string& snapshot_id,
    const ScanOptions& options, const std::vector<ShardAnalyzer*>& analyzers, const ScanHooks& hooks);

}  // namespace moonquota::restore
