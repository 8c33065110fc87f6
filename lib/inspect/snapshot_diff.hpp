// `snapshot-inspect diff A B`: two snapshots compared shard by shard. Both metadata files are
// first read for shard locations only (nothing decompressed); then shard index i of A and of B
// are fetched, decompressed and compared together (shard_diff.hpp; when the two segment tables
// are the same table, B's entries that repeat A's bytes are not decoded again), a window of
// shards at a time on worker threads, and the changes are handed to a sink in shard order. Memory: per worker
// the two decompressed shards and their entries (buffers reused from shard to shard), and the
// window's changes in compact form (ShardChanges), each shard's released once delivered; nothing
// is kept across windows but the per-tenant tallies.
//
// Also compared: per-tenant restored objects and charge under the master model at the restore
// time (delta B - A), segments by "ms" key (added, removed, status/size/name changed), task and
// discarded-replica counts. The snapshots differ when any object or segment differs.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "inspect/shard_diff.hpp"
#include "restore/snapshot_reader.hpp"

namespace moonquota::inspect {

// One snapshot of a diff: the store it lives in (two sides may live in two stores) and where.
struct DiffSide {
  source::ObjectStore& store;
  std::string snapshot_dir;
  std::string snapshot_id;
};

struct TenantDelta {
  std::uint64_t objects_a = 0;
  std::uint64_t objects_b = 0;
  std::uint64_t charged_bytes_a = 0;  // restored charge (saturated at 2^64-1)
  std::uint64_t charged_bytes_b = 0;
};

struct SegmentChange {
  std::string id;  // the "ms" key
  ChangeKind kind = ChangeKind::changed;
  std::optional<restore::SegmentSummary> a;
  std::optional<restore::SegmentSummary> b;
  std::vector<std::string> fields;  // "status", "size", "name", "base"
};

struct DiffResult {
  restore::ScannedSnapshot a;  // headers: files, descriptor, segments, tasks, shard locations
  restore::ScannedSnapshot b;
  DiffCounts counts;
  std::map<std::string, TenantDelta, std::less<>> tenants;
  std::vector<SegmentChange> segments;
  std::uint64_t shards_compared = 0;

  [[nodiscard]] bool differs() const { return counts.added + counts.removed + counts.changed > 0 || !segments.empty(); }
};

struct DiffOptions {
  restore::ScanOptions scan;  // restore_time_ms, max_payload_bytes, progress
  unsigned threads = 1;
};

// Called in shard order, on the calling thread. The change is valid during the call only (its
// storage is reused for the next one).
using ChangeSink = std::function<void(const ObjectChange&)>;

[[nodiscard]] util::Result<DiffResult> diff_snapshots(const DiffSide& a, const DiffSide& b, const DiffOptions& options,
                                                      const ChangeSink& sink);

}  // namespace moonquota::inspect
