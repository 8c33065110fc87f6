// Comparison of one metadata shard index between two snapshots (`diff`). Both sides are decoded
// with the master's decoders; entries are matched by (tenant, key) with a merge walk (the writer
// sorts entries by (tenant, key), §5.3; an unsorted side is sorted first). An object is
// `changed` when its size, its replica set (type and location: segment, path or client), its
// replica statuses, or its decodability differ. Leases and put times are not compared: reads
// extend leases, so they change between any two snapshots.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "format/object_decoder.hpp"
#include "restore/shard_tally.hpp"
#include "util/status.hpp"

namespace moonquota::inspect {

struct ReplicaSummary {
  std::uint64_t id = 0;
  std::int8_t type = 0;
  std::int16_t status = 0;
  std::string location;  // MEMORY: segment id; DISK/DFS: path; LOCAL_DISK: client id
  std::uint64_t bytes = 0;
};

struct ObjectSummary {
  std::uint32_t shard = 0;
  bool decoded = true;
  std::string skip_reason;
  std::uint64_t size = 0;
  std::vector<ReplicaSummary> replicas;
};

enum class ChangeKind { added, removed, changed };
[[nodiscard]] const char* change_kind_name(ChangeKind kind);

struct ObjectChange {
  ChangeKind kind = ChangeKind::changed;
  std::string tenant_id;
  std::string key;
  std::optional<ObjectSummary> a;   // absent for `added`
  std::optional<ObjectSummary> b;   // absent for `removed`
  std::vector<std::string> fields;  // for `changed`: "size", "replicas", "statuses", "decodable"
};

struct DiffCounts {
  std::uint64_t added = 0;
  std::uint64_t removed = 0;
  std::uint64_t changed = 0;
  std::uint64_t unchanged = 0;
  DiffCounts& operator+=(const DiffCounts& o) {
    added += o.added;
    removed += o.removed;
    changed += o.changed;
    unchanged += o.unchanged;
    return *this;
  }
};

struct ShardDiff {
  std::uint32_t shard = 0;
  DiffCounts counts;
  std::vector<ObjectChange> changes;  // in (tenant, key) order
  restore::ShardTally tally_a;        // the master model of each side at the restore time
  restore::ShardTally tally_b;
};

// Compares decompressed shard `shard` of A and B (either may be empty: the shard is absent on
// that side). Errors: a rejection inside either shard (Status::corruption naming side and entry).
[[nodiscard]] util::Result<ShardDiff> diff_shard(std::uint32_t shard, std::optional<std::string_view> a,
                                                 const format::SegmentTable& segments_a,
                                                 std::optional<std::string_view> b,
                                                 const format::SegmentTable& segments_b, std::uint64_t restore_time_ms);

}  // namespace moonquota::inspect
