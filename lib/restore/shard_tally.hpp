// Reduces one decoded metadata shard to per-tenant tallies under a charge model: duplicate
// (tenant, key) entries in one shard keep the first decoded entry's replicas and the last decoded
// entry's lease (snapshot-format.md §5.3). The restore model then applies the post-restore filter
// (§10: objects with any non-COMPLETE replica or lease_timeout <= restore time are erased); the
// live model keeps every decoded object (quota-semantics.md §3). Both record the evidence
// (in-flight, REMOVED and dropped bytes) of every decoded object.
#pragma once

#include <cstdint>
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
  void reset() {
    m_entries.clear();
    m_group_starts.clear();
    m_sorted = true;
  }
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

  // Collects `e` as if on_entry had reduced an entry to it (a diff's side B taking side A's entry
  // whose bytes it repeats: shard_diff_reuse.hpp).
  void append(const Entry& e);
  // Whether the entries collected so far arrived in (tenant, key) order (each >= the one before).
  [[nodiscard]] bool sorted() const { return m_sorted; }
  // The entries collected so far, in arrival order (one per on_entry or append).
  [[nodiscard]] const Entry& entry(std::size_t i) const { return m_entries[i]; }

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
  // (restore/survival): calls `on_object(const Resolved&)` once per (tenant, key), in (tenant,
  // key) order, and adds finish()'s sorting and duplicate findings. The entries stay collected
  // (finish() and reset() clear them). A shard whose entries arrived sorted (what writers produce)
  // is walked in place along the groups on_entry marked; any other is stably sorted first.
  template <typename OnObject>
  void resolve(std::uint32_t shard_index, model::Findings& findings, OnObject&& on_object) const;

 private:
  // The object of the entries [first, last) of one (tenant, key) in `at` order: the first decoded
  // entry's replicas, the last decoded entry's lease; calls `on_object` (and reports a duplicate).
  template <typename At, typename OnObject>
  void resolve_group(std::size_t first, std::size_t last, const At& at, std::uint32_t shard_index,
                     model::Findings& findings, OnObject& on_object) const;
  // The unsorted_entries finding, and the entries' indexes stably sorted by (tenant, key).
  [[nodiscard]] std::vector<std::size_t> sorted_order(std::uint32_t shard_index, model::Findings& findings) const;
  // on_entry's and append's bookkeeping of the entry just collected (group starts, order).
  void link_last();
  static void add_duplicate_finding(const Entry& head, std::size_t entries, std::uint32_t shard_index,
                                    model::Findings& findings);
  [[nodiscard]] static bool same_object(const Entry& a, const Entry& b) {
    return format::same_bytes(a.key, b.key) && format::same_bytes(a.tenant, b.tenant);
  }

  std::vector<Entry> m_entries;
  // Where each run of equal (tenant, key) begins in m_entries (file order), and whether every
  // entry is >= the one before it; both kept by on_entry.
  std::vector<std::size_t> m_group_starts;
  bool m_sorted = true;
};

template <typename At, typename OnObject>
void ShardTallyBuilder::resolve_group(std::size_t first, std::size_t last, const At& at, std::uint32_t shard_index,
                                      model::Findings& findings, OnObject& on_object) const {
  const Entry& head = at(first);
  Resolved resolved;
  resolved.tenant = head.tenant;
  resolved.key = head.key;
  resolved.entries = last - first;
  for (std::size_t k = first; k < last; ++k) {
    const Entry& e = at(k);
    if (!e.decoded) {
      ++resolved.undecodable;
    } else if (!resolved.object) {
      resolved.object = e;
    } else {
      resolved.object->lease_timeout_ms = e.lease_timeout_ms;
    }
  }
  if (last - first > 1) add_duplicate_finding(head, last - first, shard_index, findings);
  on_object(resolved);
}

template <typename OnObject>
void ShardTallyBuilder::resolve(std::uint32_t shard_index, model::Findings& findings, OnObject&& on_object) const {
  const std::size_t count = m_entries.size();
  if (m_sorted) {
    auto at = [&](std::size_t k) -> const Entry& { return m_entries[k]; };
    const std::size_t groups = m_group_starts.size();
    for (std::size_t g = 0; g < groups; ++g) {
      const std::size_t last = g + 1 < groups ? m_group_starts[g + 1] : count;
      resolve_group(m_group_starts[g], last, at, shard_index, findings, on_object);
    }
    return;
  }
  const std::vector<std::size_t> order = sorted_order(shard_index, findings);
  auto at = [&](std::size_t k) -> const Entry& { return m_entries[order[k]]; };
  for (std::size_t i = 0; i < count;) {
    std::size_t j = i + 1;
    while (j < count && same_object(at(i), at(j))) ++j;
    resolve_group(i, j, at, shard_index, findings, on_object);
    i = j;
  }
}

// Why the restore model's post-restore filter (snapshot-format.md §10) erases a resolved object
// at `restore_time_ms`, if it does: a non-COMPLETE replica first, then lease_timeout <= restore time
// (the master erases when now >= lease_timeout).
enum class RestoreDrop { kept, non_complete, lease_expired };
// `keep`: an expired lease never erases an object (the non-COMPLETE erasure stays).
[[nodiscard]] RestoreDrop restore_filter(const ShardTallyBuilder::Entry& object, std::uint64_t restore_time_ms,
                                         LeaseModel lease_model = LeaseModel::upstream);

}  // namespace moonquota::restore
