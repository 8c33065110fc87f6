// One snapshot entry under the standby's bootstrap rules (snapshot-format.md §11), shared by the
// whole-map bootstrap (restore/standby_loader) and the streaming promotion (restore/promote_stream):
//   a skip the master makes for a MEMORY replica whose segment/allocator is invalid: dropped;
//   any other skip: the whole load fails;
//   size 0: dropped; lease_timeout <= now (restore charge model, upstream lease model): dropped;
//   any replica not COMPLETE (restore charge model): dropped; otherwise kept.
// A kept object's MEMORY replicas take their endpoint from their segment's record.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>

#include "format/object_view.hpp"
#include "format/oplog_payloads.hpp"
#include "format/shard_decoder.hpp"
#include "model/snapshot_types.hpp"
#include "restore/promotion_checks.hpp"
#include "restore/restored_state.hpp"
#include "util/checked_math.hpp"

namespace moonquota::restore {

struct StandbyDrops {
  std::uint64_t size_zero = 0;
  std::uint64_t lease_expired = 0;
  std::uint64_t non_complete = 0;
  std::uint64_t invalid_memory = 0;
};

// One tenant's drops: the counts, and the committed charge (size x COMPLETE MEMORY replicas) of the
// lease-expired and non-COMPLETE ones (size-0 objects charge 0; an invalid-MEMORY one has no size).
struct StandbyTenantDrops {
  StandbyDrops objects;
  util::u128 lease_expired_bytes = 0;
  util::u128 non_complete_bytes = 0;
  // The sum of those objects' sizes (what they held, charged or not).
  util::u128 lease_expired_size_bytes = 0;
  util::u128 non_complete_size_bytes = 0;
};

// Segment id text (as the "ms" map key, and as canonical UUID text) -> the segment's te_endpoint.
class SegmentEndpoints {
 public:
  void add(const model::SegmentsPayload& segments);
  // The endpoint of segment `id`, or "" when the segments payload does not name it.
  [[nodiscard]] std::string_view find(std::string_view id) const;
  // find(), remembering the last id asked for (`last_id`, `last_endpoint`: one thread's).
  [[nodiscard]] std::string_view find_cached(std::string_view id, std::string& last_id,
                                             std::string_view& last_endpoint) const {
    if (id != last_id || last_id.empty()) {
      last_id.assign(id);
      last_endpoint = find(id);
    }
    return last_endpoint;
  }

 private:
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::unordered_map<std::string, std::string, Hash, std::equal_to<>> m_by_id_text;
};

// The standby's stored form of a snapshot replica, and what the validation reads of it (the same
// fields: facts_of(to_payload_replica(v)) equals facts_of(v)).
[[nodiscard]] format::PayloadReplica to_payload_replica(const format::ReplicaView& v,
                                                        const SegmentEndpoints& endpoints);
[[nodiscard]] ReplicaFacts facts_of(const format::ReplicaView& v, const SegmentEndpoints& endpoints);
// facts_of with SegmentEndpoints::find_cached.
[[nodiscard]] ReplicaFacts facts_of(const format::ReplicaView& v, const SegmentEndpoints& endpoints,
                                    std::string& last_id, std::string_view& last_endpoint);

enum class StandbyDecision { keep, drop_invalid_memory, drop_size_zero, drop_lease_expired, drop_non_complete, fail };

struct StandbyRules {
  std::uint64_t now_ms = 0;
  bool live = false;         // ChargeModel::live: no lease or non-COMPLETE drop
  bool keep_leases = false;  // LeaseModel::keep: no lease drop
};

[[nodiscard]] StandbyDecision decide_standby_entry(const format::ShardEntry& entry, const StandbyRules& rules);
// Why a `fail` decision fails the load.
[[nodiscard]] std::string standby_entry_failure(const format::ShardEntry& entry);

// The drops of a bootstrap, in total and per tenant (only tenants with a drop).
struct StandbyDropTally {
  StandbyDrops dropped;
  std::map<std::string, StandbyTenantDrops, std::less<>> tenants;

  void record(StandbyDecision decision, const format::ObjectView& object);
  void merge(StandbyDropTally&& other);
};

}  // namespace moonquota::restore
