// Restore survival: for a list of restore instants ("points"), what the restore model keeps of
// one snapshot's metadata and what its post-restore filter (snapshot-format.md §10) drops, per
// tenant, in one pass over the metadata however many points are asked.
//
// Each object is resolved exactly as ShardTallyBuilder::finish resolves it (the same
// ShardTallyBuilder::resolve: first decoded entry's replicas, last decoded entry's lease; the
// last duplicate shard blob wins) and counted once, into the first point at which the filter
// drops it (restore_filter): an object with a non-COMPLETE replica at every point, a lease-
// expired one from the first point with at_ms >= lease_timeout_ms (lease model `upstream`) or
// never (lease model `keep`: leases ignored). Prefix sums over those buckets give each point's
// kept and dropped amounts, so memory is O(tenants x points) per worker, never per object. A
// snapshot with duplicate shard blobs (the master keeps the last blob of an index) is read a second
// time with one slot per shard index, the later blob replacing the earlier.
// The charge is size x COMPLETE MEMORY replicas, each product clamped at 2^64-1 like the
// restore model (util::clamped_mul), summed in 128 bits.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "restore/shard_tally.hpp"
#include "restore/snapshot_reader.hpp"
#include "util/checked_math.hpp"
#include "util/status.hpp"

namespace moonquota::restore {

// A sum over objects.
struct SurvivalAmount {
  std::uint64_t objects = 0;
  util::u128 bytes = 0;          // sum of object sizes
  util::u128 charged_bytes = 0;  // sum of size x COMPLETE MEMORY replicas (each clamped at 2^64-1)
  SurvivalAmount& operator+=(const SurvivalAmount& o) {
    objects += o.objects;
    bytes += o.bytes;
    charged_bytes += o.charged_bytes;
    return *this;
  }
};

// One tenant's decoded objects by the first point at which the restore drops them:
// first_dropped_at[p] (p < points) = dropped from point p on; first_dropped_at[points] = kept at
// every point. `undecodable` counts entries the decoder skipped (dropped at every point, size
// unknown, never in the amounts).
struct TenantSurvival {
  std::vector<SurvivalAmount> first_dropped_at;
  std::uint64_t undecodable = 0;
  // What the restore keeps / drops at point `p` (p < points).
  [[nodiscard]] SurvivalAmount kept_at(std::size_t p) const;
  [[nodiscard]] SurvivalAmount dropped_at(std::size_t p) const;
};

struct SurvivalOptions {
  std::vector<std::uint64_t> points_ms;  // restore instants, epoch ms, non-decreasing
  LeaseModel lease_model = LeaseModel::upstream;
};

// The first point at which the restore drops `object` under `options` (points_ms.size() when it
// is kept at every point).
[[nodiscard]] std::size_t first_drop_point(const ShardTallyBuilder::Entry& object, const SurvivalOptions& options);

// Per-worker analyzer: collects one shard's entries in a ShardTallyBuilder and reduces them to
// per-tenant buckets at end_shard: into its totals, or (`per_shard`) into one slot per shard
// index, the later blob replacing an earlier one.
class SurvivalAnalyzer final : public ShardAnalyzer {
 public:
  using Tenants = std::map<std::string, TenantSurvival, std::less<>>;
  SurvivalAnalyzer(const SurvivalOptions& options, bool per_shard) : m_options(options), m_per_shard(per_shard) {}
  void begin_shard(const ShardContext& shard) override;
  void on_entry(const format::ShardEntry& entry) override { m_builder.on_entry(entry); }
  bool end_shard(const ShardContext& shard) override;

  struct Slot {
    std::uint64_t sequence = 0;
    Tenants tenants;
  };
  [[nodiscard]] std::map<std::uint32_t, Slot>& slots() { return m_slots; }  // per_shard
  [[nodiscard]] Tenants& totals() { return m_totals; }                      // otherwise

 private:
  const SurvivalOptions& m_options;
  bool m_per_shard = false;
  ShardTallyBuilder m_builder;
  std::map<std::uint32_t, Slot> m_slots;
  Tenants m_totals;
  model::Findings m_ignored;  // the reader's own ShardTallyBuilder reports the same findings
};

struct SurvivalScan {
  ScannedSnapshot snapshot;
  std::map<std::string, TenantSurvival, std::less<>> tenants;  // every tenant seen in the metadata
};

// Reads the snapshot with `threads` SurvivalAnalyzers (restore::scan_snapshot, master rules) and
// merges them (a second read with shard slots when the snapshot has duplicate shard blobs).
// Errors: those of scan_snapshot.
[[nodiscard]] util::Result<SurvivalScan> scan_survival(source::ObjectStore& store, const std::string& snapshot_dir,
                                                       const std::string& snapshot_id, const ScanOptions& scan_options,
                                                       const SurvivalOptions& options, unsigned threads);

}  // namespace moonquota::restore
