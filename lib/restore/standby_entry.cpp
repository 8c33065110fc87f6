#include "restore/standby_entry.hpp"

#include "model/enums.hpp"
#include "util/uuid.hpp"

namespace moonquota::restore {

namespace {

// A decoder skip the standby turns into a silent drop rather than a load failure.
bool is_invalid_memory_skip(const std::string& reason) {
  return reason.find("MEMORY replica on segment") != std::string::npos ||
         reason.find("MEMORY replica segment id") != std::string::npos;
}

std::uint8_t payload_variant_of(std::int8_t type) {
  switch (type) {
    case model::replica_type::memory: return format::payload_variant::memory;
    case model::replica_type::disk: return format::payload_variant::disk;
    case model::replica_type::local_disk: return format::payload_variant::local_disk;
    default: return format::payload_variant::dfs;
  }
}

// What the object would be charged: size x COMPLETE MEMORY replicas (quota-semantics.md §2.1).
util::u128 committed_charge(const format::ObjectView& obj) {
  std::uint64_t complete_memory = 0;
  for (const auto& r : obj.replicas) {
    if (r.type == model::replica_type::memory && r.status == model::replica_status::complete) ++complete_memory;
  }
  return util::clamped_mul(obj.size, complete_memory);
}

}  // namespace

void SegmentEndpoints::add(const model::SegmentsPayload& segments) {
  for (const auto& seg : segments.mounted) {
    if (auto uuid = util::parse_uuid_lenient(seg.map_key)) {
      m_by_id_text.emplace(seg.map_key, seg.te_endpoint);
      m_by_id_text.emplace(uuid->to_string(), seg.te_endpoint);
    }
  }
}

std::string_view SegmentEndpoints::find(std::string_view id) const {
  const auto it = m_by_id_text.find(id);
  return it == m_by_id_text.end() ? std::string_view{} : std::string_view(it->second);
}

format::PayloadReplica to_payload_replica(const format::ReplicaView& v, const SegmentEndpoints& endpoints) {
  format::PayloadReplica r;
  r.id = v.id;
  r.status = v.status;
  r.variant = payload_variant_of(v.type);
  switch (r.variant) {
    case format::payload_variant::memory:
      r.buffer_size = v.mem_size;
      r.buffer_address = v.mem_address;
      r.protocol = "tcp";
      r.transport_endpoint = endpoints.find(v.segment_id);
      break;
    case format::payload_variant::disk:
      r.file_path = v.file_path;
      r.object_size = v.object_size;
      break;
    case format::payload_variant::local_disk:
      if (auto uuid = util::parse_uuid_lenient(v.client_id)) {
        r.client_first = uuid->first;
        r.client_second = uuid->second;
      }
      r.object_size = v.object_size;
      r.transport_endpoint = v.transport_endpoint;
      break;
    default:
      r.file_path = v.file_path;
      r.object_size = v.object_size;
      r.dfs_offset = v.dfs_offset;
      r.dfs_aligned_size = v.dfs_aligned_size;
      r.dfs_shard_idx = v.dfs_shard_idx;
      break;
  }
  return r;
}

namespace {

template <typename Find>
ReplicaFacts facts_with(const format::ReplicaView& v, const Find& find) {
  ReplicaFacts f;
  f.id = v.id;
  f.status = v.status;
  f.variant = payload_variant_of(v.type);
  if (f.variant == format::payload_variant::memory) {
    f.buffer_size = v.mem_size;
    f.buffer_address = v.mem_address;
    f.endpoint = find(v.segment_id);
  } else {
    f.object_size = v.object_size;
    // A LOCAL_DISK replica's endpoint is its own; the validation reads endpoints of MEMORY only.
    if (f.variant == format::payload_variant::local_disk) f.endpoint = v.transport_endpoint;
  }
  return f;
}

}  // namespace

ReplicaFacts facts_of(const format::ReplicaView& v, const SegmentEndpoints& endpoints) {
  return facts_with(v, [&](std::string_view id) { return endpoints.find(id); });
}

ReplicaFacts facts_of(const format::ReplicaView& v, const SegmentEndpoints& endpoints, std::string& last_id,
                      std::string_view& last_endpoint) {
  return facts_with(v, [&](std::string_view id) { return endpoints.find_cached(id, last_id, last_endpoint); });
}

StandbyDecision decide_standby_entry(const format::ShardEntry& entry, const StandbyRules& rules) {
  const auto& obj = *entry.object;
  if (entry.result->outcome == format::DecodeOutcome::skipped) {
    return is_invalid_memory_skip(entry.result->reason) ? StandbyDecision::drop_invalid_memory : StandbyDecision::fail;
  }
  if (obj.size == 0) return StandbyDecision::drop_size_zero;
  // The live model: what the primary held at the snapshot, so no bootstrap-time erasure.
  if (!rules.live && !rules.keep_leases && obj.lease_timeout_ms <= rules.now_ms) {
    return StandbyDecision::drop_lease_expired;
  }
  if (!rules.live) {
    for (const auto& r : obj.replicas) {
      if (r.status != model::replica_status::complete) return StandbyDecision::drop_non_complete;
    }
  }
  return StandbyDecision::keep;
}

std::string standby_entry_failure(const format::ShardEntry& entry) {
  return "shard " + std::to_string(entry.shard_index) + " entry " + std::to_string(entry.entry_index) + ": " +
         entry.result->reason + " (the master would skip this object; the standby fails the load)";
}

void StandbyDropTally::record(StandbyDecision decision, const format::ObjectView& obj) {
  if (decision == StandbyDecision::keep || decision == StandbyDecision::fail) return;
  auto it = tenants.find(obj.tenant_id);
  if (it == tenants.end()) it = tenants.emplace(std::string(obj.tenant_id), StandbyTenantDrops{}).first;
  StandbyTenantDrops& t = it->second;
  switch (decision) {
    case StandbyDecision::drop_invalid_memory:
      ++dropped.invalid_memory;
      ++t.objects.invalid_memory;
      break;
    case StandbyDecision::drop_size_zero:
      ++dropped.size_zero;
      ++t.objects.size_zero;
      break;
    case StandbyDecision::drop_lease_expired:
      ++dropped.lease_expired;
      ++t.objects.lease_expired;
      t.lease_expired_bytes += committed_charge(obj);
      t.lease_expired_size_bytes += obj.size;
      break;
    case StandbyDecision::drop_non_complete:
      ++dropped.non_complete;
      ++t.objects.non_complete;
      t.non_complete_bytes += committed_charge(obj);
      t.non_complete_size_bytes += obj.size;
      break;
    default: break;
  }
}

void StandbyDropTally::merge(StandbyDropTally&& other) {
  dropped.size_zero += other.dropped.size_zero;
  dropped.lease_expired += other.dropped.lease_expired;
  dropped.non_complete += other.dropped.non_complete;
  dropped.invalid_memory += other.dropped.invalid_memory;
  for (auto& [tenant, drops] : other.tenants) {
    StandbyTenantDrops& t = tenants[tenant];
    t.objects.size_zero += drops.objects.size_zero;
    t.objects.lease_expired += drops.objects.lease_expired;
    t.objects.non_complete += drops.objects.non_complete;
    t.objects.invalid_memory += drops.objects.invalid_memory;
    t.lease_expired_bytes += drops.lease_expired_bytes;
    t.non_complete_bytes += drops.non_complete_bytes;
    t.lease_expired_size_bytes += drops.lease_expired_size_bytes;
    t.non_complete_size_bytes += drops.non_complete_size_bytes;
  }
}

}  // namespace moonquota::restore
