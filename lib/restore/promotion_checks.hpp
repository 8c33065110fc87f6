// The pieces of RestoreFromStandbySnapshot's validation (oplog-format.md §16) that look at one
// thing at a time, shared by the whole-map validator (restore/promotion_validation) and the
// streaming promotion (restore/promote_stream), so both decide every object by the same code:
//   - the registry's memory segments and their aliases (name and endpoint);
//   - an object's name: the tenant it resolves to (the NUL-scoped form) and its validity;
//   - one replica's local checks (endpoint, size_, address overflow, NoF, disk, DFS) and whether
//     it counts against its segment's capacity;
//   - the per-tenant usage the promoted master rebuilds (a commutative sum over objects).
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "restore/restored_state.hpp"
#include "restore/standby_store.hpp"

namespace moonquota::restore {

// The registry's memory segments, in endpoint order, and every alias that names one.
class PromotionSegments {
 public:
  static constexpr std::size_t k_none = SIZE_MAX;

  // Indexes `registry` (by transport endpoint). `error()` is the first violation of the segment
  // rules (empty name or endpoint, capacity 0, an alias claimed by two memory segments).
  explicit PromotionSegments(const std::map<std::string, StandbySegment>& registry);

  [[nodiscard]] const std::string& error() const { return m_error; }
  // The memory segment `alias` (a name or an endpoint) names, or k_none.
  [[nodiscard]] std::size_t find(std::string_view alias) const;
  // find(), remembering the last alias asked for: `last` and `last_index` belong to one thread
  // (replicas of one object, and of objects near each other, name the same few segments).
  [[nodiscard]] std::size_t find_cached(std::string_view alias, std::string& last, std::size_t& last_index) const {
    if (alias == last && last_index != k_none) return last_index;
    last.assign(alias);
    return last_index = find(alias);
  }
  [[nodiscard]] std::size_t size() const { return m_memory.size(); }
  [[nodiscard]] const StandbySegment& segment(std::size_t index) const { return *m_memory[index]; }

  std::uint64_t registry_segments = 0;
  std::uint64_t registry_memory_segments = 0;
  std::uint64_t registry_memory_capacity_bytes = 0;  // saturating

 private:
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::vector<const StandbySegment*> m_memory;  // by endpoint
  std::unordered_map<std::string, std::size_t, Hash, std::equal_to<>> m_by_alias;
  std::string m_error;
};

// What the validation reads of a replica, whichever form it was stored in.
struct ReplicaFacts {
  std::uint64_t id = 0;
  std::uint8_t variant = 0;  // format::payload_variant
  std::int32_t status = 0;
  std::uint64_t buffer_size = 0;     // MEMORY, NoF
  std::uint64_t buffer_address = 0;  // MEMORY
  std::uint64_t object_size = 0;     // DISK, LOCAL_DISK
  std::string_view endpoint;         // MEMORY
};

[[nodiscard]] ReplicaFacts facts_of(const format::PayloadReplica& replica);

enum class ReplicaFault { none, memory_endpoint, memory_size, memory_overflow, nof_size, disk_size, dfs };

// One replica's local checks against the object size. For a MEMORY replica that passes them,
// `segment` receives its segment's index.
// The second form looks the endpoint up with PromotionSegments::find_cached.
[[nodiscard]] ReplicaFault check_replica(const ReplicaFacts& replica, std::uint64_t object_size,
                                         const PromotionSegments& segments, std::size_t& segment);
[[nodiscard]] ReplicaFault check_replica(const ReplicaFacts& replica, std::uint64_t object_size,
                                         const PromotionSegments& segments, std::size_t& segment,
                                         std::string& last_alias, std::size_t& last_segment);
// Whether a MEMORY replica counts against its segment's capacity and overlap (not REMOVED/FAILED).
[[nodiscard]] bool counts_against_segment(std::int32_t status);
// The validation's sentence for `fault` (`where`: the object as printable_object_name writes it).
[[nodiscard]] std::string replica_fault_message(ReplicaFault fault, const ReplicaFacts& replica,
                                                std::uint64_t object_size, const std::string& where);

// The tenant and user key an entry resolves to: TenantId(tenant), and with a NUL in the key the
// NUL-scoped form (a non-default prefix names the tenant of a "default" entry; the user key is
// the part after the first NUL).
struct ResolvedName {
  std::string tenant;
  std::string_view key;
  bool scoped = false;  // the key holds a NUL
};
[[nodiscard]] ResolvedName resolve_name(std::string_view raw_tenant, std::string_view raw_key);
// "<tenant>/<key>" with each NUL written as \0.
[[nodiscard]] std::string printable_object_name(std::string_view raw_tenant, std::string_view raw_key);

// The per-tenant usage the promoted master rebuilds, and the validation's other counts.
struct PromotionTotals {
  std::map<std::string, TenantTally> tenants;
  std::map<std::string, util::u128> tenant_object_bytes;
  std::uint64_t objects = 0;
  std::uint64_t placeholders = 0;
  std::map<std::string, std::uint64_t> non_complete;
  std::uint64_t legacy_scoped_keys = 0;

  // One held object of tenant `tenant` (resolved) with `replicas`.
  void add(std::string_view tenant, std::uint64_t size, bool placeholder, std::span<const ReplicaFacts> replicas);
  void merge(PromotionTotals&& other);
  // A copy that shares nothing with this one.
  [[nodiscard]] PromotionTotals copy() const;

 private:
  struct Slot {
    TenantTally* tally = nullptr;
    util::u128* object_bytes = nullptr;
  };
  Slot& slot(std::string_view tenant);
  std::string m_last_tenant;  // the tenant `m_last` points at (objects of a tenant come in runs)
  Slot m_last;
};

}  // namespace moonquota::restore
