// The per-object checks of `verify`, run on every decoded entry beside the master model:
// skipped objects with their reason (§5.5), legacy layouts (§5.5, info), the documented shard
// index (§5.2: an error for default-tenant and grouped objects, a warning naming the Boost 1.74
// x86-64 variant for other tenants), zero and repeated replica ids inside an object (§5.6),
// replica status values outside the enum (§8, warning), DISK / LOCAL_DISK object_size != size
// (§5.6, warning), MEMORY replicas against the allocator (allocator_check.hpp), and
// non-smallest msgpack encodings per shard (§4.2, info).
//
// For the snapshot-wide checks it keeps, per shard, the objects stored outside their documented
// shard (a 64-bit hash of (tenant, key) and the expected shard: a (tenant, key) can only be in two
// shards if at least one copy is mis-sharded), and it spills the shard's sorted replica ids to a
// SpilledRuns file. verify.cpp merges them to find duplicate candidates and confirms them by
// re-reading the shards involved. Memory does not grow with the object count (only with the
// number of mis-sharded objects).
#pragma once

#include <cstdint>
#include <mutex>
#include <vector>

#include "inspect/allocator_check.hpp"
#include "inspect/spilled_runs.hpp"
#include "inspect/verify_findings.hpp"
#include "restore/snapshot_reader.hpp"
#include "util/hashing.hpp"

namespace moonquota::inspect {

// (tenant, key) -> 64 bits, for duplicate candidates only (confirmed on the exact bytes).
[[nodiscard]] std::uint64_t object_key_hash(std::string_view tenant_id, std::string_view key);

struct MisShardedKey {
  std::uint64_t key_hash = 0;
  std::uint32_t expected_shard = 0;
};

// What every worker contributes per shard index; the latest blob of an index wins (§5.1).
// Slot k_metadata_shards of `replica_ids` is for discarded replicas.
struct ShardIdSets {
  explicit ShardIdSets(std::string temp_dir) : replica_ids(util::k_metadata_shards + 1, std::move(temp_dir)) {}
  std::mutex mutex;
  std::vector<std::uint64_t> sequence = std::vector<std::uint64_t>(util::k_metadata_shards, 0);
  std::vector<bool> present = std::vector<bool>(util::k_metadata_shards, false);
  std::vector<std::vector<MisShardedKey>> mis_sharded =
      std::vector<std::vector<MisShardedKey>>(util::k_metadata_shards);
  SpilledRuns replica_ids;
};

class VerifyAnalyzer final : public restore::ShardAnalyzer {
 public:
  // `findings_per_rule`: what the merged collector keeps (VerifyOptions::findings_per_rule); each
  // worker keeps as many, so the merge keeps the same smallest findings whichever worker saw them.
  VerifyAnalyzer(AllocatorIndex& allocators, ShardIdSets& sets, std::size_t findings_per_rule)
      : m_allocators(allocators), m_sets(sets), m_findings(findings_per_rule) {}
  void begin_shard(const restore::ShardContext& shard) override;
  void on_entry(const format::ShardEntry& entry) override;
  bool end_shard(const restore::ShardContext& shard) override;

  [[nodiscard]] FindingCollector& findings() { return m_findings; }
  [[nodiscard]] std::uint64_t max_replica_id() const { return m_max_replica_id; }

 private:
  void check_encodings(const restore::ShardContext& shard);

  AllocatorIndex& m_allocators;
  ShardIdSets& m_sets;
  FindingCollector m_findings;
  std::uint64_t m_max_replica_id = 0;
  std::vector<MisShardedKey> m_mis_sharded;
  std::vector<std::uint64_t> m_replica_ids;
  std::vector<std::uint64_t> m_object_ids;  // scratch
};

}  // namespace moonquota::inspect
