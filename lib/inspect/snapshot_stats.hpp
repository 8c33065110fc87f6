// Whole-snapshot statistics for `summary`, `tenants` and `top`: objects and replicas by
// replica type x status, bytes by type, per-tenant usage with the biggest objects, the shard fill
// histogram, and the largest objects by size or charge. Memory grows with tenants and K, not
// with objects. Counts cover every decoded entry of every shard blob read (a duplicate shard
// blob, which the master replaces, is counted too; verify reports it).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "inspect/top_k.hpp"
#include "restore/snapshot_reader.hpp"
#include "util/hashing.hpp"

namespace moonquota::inspect {

// One object in a ranking. `charge_bytes` = size x COMPLETE MEMORY replicas (what the object
// adds to its tenant's charge if the restore keeps it), saturated at 2^64-1.
struct RankedObject {
  std::uint64_t value = 0;  // what is ranked: size or charge
  std::string tenant_id;
  std::string key;
  std::uint32_t shard = 0;
  std::uint64_t size = 0;
  std::uint64_t charge_bytes = 0;
  std::uint32_t replicas = 0;
};

struct RankBetter {
  bool operator()(const RankedObject& a, const RankedObject& b) const {
    if (a.value != b.value) return a.value > b.value;
    return std::tie(a.tenant_id, a.key, a.shard) < std::tie(b.tenant_id, b.key, b.shard);
  }
};
using ObjectRanking = TopK<RankedObject, RankBetter>;

struct ReplicaTally {
  std::uint64_t replicas = 0;
  std::uint64_t bytes = 0;  // MEMORY buffer size, or the object_size of DISK / LOCAL_DISK / DFS
};

struct TenantUsage {
  std::uint64_t objects = 0;  // decoded entries
  std::uint64_t skipped = 0;  // entries the master skips
  std::uint64_t replicas = 0;
  std::uint64_t logical_bytes = 0;  // sum of object sizes
  std::uint64_t memory_bytes = 0;
  std::uint64_t disk_bytes = 0;
  std::uint64_t local_disk_bytes = 0;
  std::uint64_t charge_if_all_restored_bytes = 0;  // sum of charge_bytes over decoded objects
  ObjectRanking biggest{3};
};

enum class RankBy { size, charge };

struct StatsOptions {
  std::size_t biggest_per_tenant = 3;
  std::size_t top_objects = 0;  // 0: no global ranking
  RankBy rank_by = RankBy::size;
};

struct SnapshotStats {
  std::uint64_t entries = 0;
  std::uint64_t decoded = 0;
  std::uint64_t skipped = 0;
  std::uint64_t grouped = 0;
  std::uint64_t hard_pinned = 0;
  std::uint64_t with_checksum = 0;
  std::uint64_t all_replicas_complete = 0;
  std::map<std::pair<std::int8_t, std::int16_t>, ReplicaTally> replicas;  // (type, status)
  std::map<std::pair<std::int8_t, std::int16_t>, std::uint64_t>
      objects;  // by (type, status) of its replicas, once each
  std::map<std::uint8_t, std::uint64_t> objects_by_data_type;
  std::map<std::string, TenantUsage, std::less<>> tenants;
  std::array<std::uint64_t, util::k_metadata_shards> shard_entries{};
  ObjectRanking top_objects{0};

  void merge(const SnapshotStats& other);
};

class StatsAnalyzer final : public restore::ShardAnalyzer {
 public:
  explicit StatsAnalyzer(const StatsOptions& options);
  void begin_shard(const restore::ShardContext& shard) override { m_shard = shard.shard_index; }
  void on_entry(const format::ShardEntry& entry) override;
  [[nodiscard]] const SnapshotStats& stats() const { return m_stats; }

 private:
  StatsOptions m_options;
  SnapshotStats m_stats;
  std::uint32_t m_shard = 0;
};

// Power-of-two fill histogram of the 1024 shards: bucket 0 = empty shards, bucket b >= 1 =
// shards with [2^(b-1), 2^b) entries. Trailing empty buckets are dropped.
[[nodiscard]] std::vector<std::uint64_t> shard_fill_histogram(
    const std::array<std::uint64_t, util::k_metadata_shards>& entries);

// Runs `threads` StatsAnalyzers over the snapshot and merges them.
struct StatsScan {
  restore::ScannedSnapshot snapshot;
  SnapshotStats stats;
};
[[nodiscard]] util::Result<StatsScan> scan_stats(source::ObjectStore& store, const std::string& snapshot_dir,
                                                 const std::string& snapshot_id, const restore::ScanOptions& options,
                                                 const StatsOptions& stats_options, unsigned threads);

}  // namespace moonquota::inspect
