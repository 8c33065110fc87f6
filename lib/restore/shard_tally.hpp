// Reduces one decoded metadata shard to per-tenant tallies under a charge model: duplicate
// (tenant, key) entries in one shard keep the first decoded entry's replicas and the last decoded
// entry's lease (snapshot-format.md §5.3). The restore model then applies the post-restore filter
// (§10: objects with any non-COMPLETE replica or lease_timeout <= restore time are erased); the
// live model keeps every decoded object (quota-semantics.md §3). Both record the evidence
// (in-flight, REMOVED and dropped bytes) of every decoded object.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
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

  // One entry as the tally keeps it (public for the evidence helper and for resolve()).
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

  // One (tenant, key) of the shard after duplicate resolution: `object` is the first decoded
  // entry with the last decoded entry's lease (empty when no entry decoded); `undecodable` counts
  // the entries the decoder skipped; `entries` all entries of the key.
  struct Resolved {
    std::string_view tenant;
    std::string_view key;
    std::optional<Entry> object;
    std::uint64_t undecodable = 0;
    std::size_t entries = 0;
  };

  // The duplicate-key resolution of finish(), shared with other reductions of the same entries
  // (restore/survival): calls `on_object` once per (tenant, key), in (tenant, key) order, and
  // adds finish()'s sorting and duplicate findings. The entries stay collected (finish() and
  // reset() clear them).
  void resolve(std::uint32_t shard_index, model::Findings& findings,
               const std::function<void(const Resolved&)>& on_object) const;

 private:
  std::vector<Entry> m_entries;
};

// Why the restore model's post-restore filter (snapshot-format.md §10) erases a resolved object
// at `restore_time_ms`, if it does: a non-COMPLETE replica first, then lease_timeout <= restore time
// (the master erases when now >= lease_timeout).
enum class RestoreDrop { kept, non_complete, lease_expired };
// `keep`: an expired lease never erases an object (the non-COMPLETE erasure stays).
[[nodiscard]] RestoreDrop restore_filter(const ShardTallyBuilder::Entry& object, std::uint64_t restore_time_ms,
                                         LeaseModel lease_model = LeaseModel::upstream);

}  // namespace moonquota::restore
