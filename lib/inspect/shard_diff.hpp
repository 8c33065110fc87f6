// Comparison of one metadata shard index between two snapshots (`diff`). Both sides are decoded
// with the master's decoders (side B's entries that repeat side A's bytes take A's decode when
// B's segment table keeps A's usable segments: shard_diff_reuse.hpp); entries are matched by
// (tenant, key) with a merge walk (the writer sorts entries by (tenant, key), §5.3; an unsorted
// side is sorted first). An object is `changed` when its size, its replica set (type and
// location: segment, path or client), its replica statuses, or its decodability differ. Leases
// and put times are not compared: reads extend leases, so they change between any two snapshots.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "format/object_decoder.hpp"
#include "model/finding.hpp"
#include "restore/shard_tally.hpp"
#include "util/status.hpp"

namespace moonquota::inspect {

struct ReplicaSummary {
  std::uint64_t id = 0;
  std::int8_t type = 0;
  std::int16_t status = 0;
  std::string location;  // MEMORY: segment id; DISK/DFS: path; LOCAL_DISK: client id
  std::uint64_t bytes = 0;
  friend bool operator==(const ReplicaSummary&, const ReplicaSummary&) = default;
};

struct ObjectSummary {
  std::uint32_t shard = 0;
  bool decoded = true;
  std::string skip_reason;
  std::uint64_t size = 0;
  std::vector<ReplicaSummary> replicas;
  friend bool operator==(const ObjectSummary&, const ObjectSummary&) = default;
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

// One replica of a side of a change, its location a view (into the decompressed shard, or into
// ShardChanges' bytes).
struct ReplicaRef {
  std::uint64_t id = 0;
  std::int8_t type = 0;
  std::int16_t status = 0;
  std::string_view location;
  std::uint64_t bytes = 0;
};

// One side of a change as diff_shard sees it (views into the decompressed shard).
struct SideRef {
  bool decoded = true;
  std::uint64_t size = 0;
  std::string_view skip_reason;
  const ReplicaRef* replicas = nullptr;
  std::size_t replica_count = 0;
};

// Field bits of a `changed` object; ObjectChange::fields lists them in this order.
inline constexpr unsigned k_field_decodable = 1;
inline constexpr unsigned k_field_size = 2;
inline constexpr unsigned k_field_replicas = 4;
inline constexpr unsigned k_field_statuses = 8;

// The changes of one shard in (tenant, key) order, compact: one byte buffer holds every tenant id,
// key, location and skip reason, beside fixed-size records (about half the memory of
// ObjectChange values, and one allocation per buffer instead of several per change). get() fills
// a caller's ObjectChange, reusing its capacity.
class ShardChanges {
 public:
  void add(ChangeKind kind, std::string_view tenant, std::string_view key, unsigned fields, const SideRef* a,
           const SideRef* b);
  [[nodiscard]] std::size_t size() const { return m_changes.size(); }
  void get(std::size_t i, std::uint32_t shard, ObjectChange& out) const;

 private:
  struct Span {
    std::size_t offset = 0;
    std::size_t length = 0;
  };
  struct Replica {
    std::uint64_t id = 0;
    std::uint64_t bytes = 0;
    Span location;
    std::int16_t status = 0;
    std::int8_t type = 0;
  };
  struct Side {
    std::uint64_t size = 0;
    Span skip_reason;
    std::size_t first_replica = 0;
    std::size_t replicas = 0;
    bool present = false;
    bool decoded = true;
  };
  struct Change {
    Span tenant;
    Span key;
    Side a;
    Side b;
    ChangeKind kind = ChangeKind::changed;
    unsigned fields = 0;
  };
  Span store(std::string_view bytes);
  Side store(const SideRef* side);
  void load(const Side& side, std::uint32_t shard, std::optional<ObjectSummary>& out) const;
  [[nodiscard]] std::string_view view(Span s) const { return {m_bytes.data() + s.offset, s.length}; }

  std::string m_bytes;
  std::vector<Replica> m_replicas;
  std::vector<Change> m_changes;
};

struct ShardDiff {
  std::uint32_t shard = 0;
  DiffCounts counts;
  ShardChanges changes;         // in (tenant, key) order
  restore::ShardTally tally_a;  // the master model of each side at the restore time
  restore::ShardTally tally_b;
  bool b_reused = false;  // side B was walked taking side A's entries (ShardDiffOptions), not decoded whole
};

struct ShardDiffOptions {
  std::uint64_t restore_time_ms = 0;
  // The caller has shown that every segment usable under A's table is usable under B's
  // (format::SegmentTable::usable_segments_usable_in): then B decodes every object A decoded
  // alike, and side B's entries whose bytes repeat an entry A decoded take that entry's decode
  // instead of being decoded again (shard_diff_reuse.hpp), with the same result. B's table may
  // have more segments (one mounted between the snapshots) or more usable ones.
  bool a_usable_segments_usable_in_b = false;
  // When set, both sides' decoder and restore-model findings are appended (A's, then B's): a
  // diff does not report them; tests compare them.
  model::Findings* findings = nullptr;
};

// The buffers of diff_shard, reused between calls on one thread (capacity only: no state carries
// over from one call to the next).
class ShardDiffScratch {
 public:
  ShardDiffScratch();
  ~ShardDiffScratch();
  ShardDiffScratch(const ShardDiffScratch&) = delete;
  ShardDiffScratch& operator=(const ShardDiffScratch&) = delete;
  ShardDiffScratch(ShardDiffScratch&&) noexcept;
  ShardDiffScratch& operator=(ShardDiffScratch&&) noexcept;
  struct Impl;
  [[nodiscard]] Impl& impl() { return *m_impl; }

 private:
  std::unique_ptr<Impl> m_impl;
};

// Compares decompressed shard `shard` of A and B (either may be empty: the shard is absent on
// that side), at the restore time of `options`. Errors: a rejection inside either shard
// (Status::corruption naming side and entry).
[[nodiscard]] util::Result<ShardDiff> diff_shard(std::uint32_t shard, std::optional<std::string_view> a,
                                                 const format::SegmentTable& segments_a,
                                                 std::optional<std::string_view> b,
                                                 const format::SegmentTable& segments_b,
                                                 const ShardDiffOptions& options, ShardDiffScratch& scratch);

}  // namespace moonquota::inspect
