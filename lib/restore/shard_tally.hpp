// Reduces one decoded metadata shard to per-tenant tallies under a charge model: duplicate
// (tenant, key) entries in one shard keep the first decoded entry's replicas and the last decoded
// entry's lease (snapshot-format.md §5.3). The restore model then applies the post-restore filter
// (§10: objects with any non-COMPLETE replica or lease_timeout <= restore time are erased); the
// live model keeps every decoded object (quota-semantics.md §3). Both record the evidence
// (in-flight, REMOVED and dropped bytes) of every decoded object.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "format/shard_decoder.hpp"
#include "restore/restored_state.hpp"

namespace moonquota::restore {

struct ShardTally {
  std::uint64_t sequence = 0;
  std::map<std::string, TenantTally, std::less<>> tenants;
  DropCounts dropped;
  std::uint64_t objects = 0;
};

// Rule ids of the findings of finish() that name one (model::Finding::rule).
inline constexpr const char* k_rule_duplicate_key = "duplicate-key";
inline constexpr const char* k_rule_unsorted_entries = "unsorted-entries";

// Collects entries of one shard (a ShardVisitor) and reduces them with `finish`.
// Lifetime: the entries keep views of tenant ids and keys into the decompressed shard buffer, so
// that buffer must stay alive and unchanged from the first on_entry until finish() returns.
class ShardTallyBuilder final : public format::ShardVisitor {
 public:
  void reset() { m_entries.clear(); }
  void on_entry(const format::ShardEntry& entry) override;
  // Resolves duplicates, applies `charge_model` (the restore filter at `restore_time_ms`), fills `out`.
  // `lease_model` keep: the restore filter drops no object for its lease (non-COMPLETE still drops).
  // Findings, each with location "shard N" and the shard as a field: duplicates
  // (k_rule_duplicate_key), unsorted entries (k_rule_unsorted_entries), invalid tenant ids.
  void finish(std::uint32_t shard_index, ChargeModel charge_model, std::uint64_t restore_time_ms, ShardTally& out,
              model::Findings& findings, LeaseModel lease_model = LeaseModel::upstream);

  // One entry as the tally keeps it (public for the evidence helper in shard_tally.cpp).
  struct Entry {
    std::string_view tenant;
    std::string_view key;
    bool decoded = false;
    std::uint64_t size = 0;
    std::uint32_t complete_memory = 0;
    std::uint32_t processing_memory = 0;
    std::uint32_t removed_memory = 0;
    bool all_complete = true;
    std::uint64_t lease_timeout_ms = 0;
    std::uint64_t put_start_time_ms = 0;
  };

 private:
  std::vector<Entry> m_entries;
};

}  // namespace moonquota::restore
