#include "restore/standby_loader.hpp"

#include <algorithm>
#include <mutex>
#include <unordered_map>

#include "format/shard_decoder.hpp"
#include "restore/snapshot_reader.hpp"
#include "util/uuid.hpp"

namespace moonquota::restore {

using util::Status;

namespace {

struct SegmentEndpoints {
  std::unordered_map<std::string, std::string> by_id_text;  // "ms" key / id text -> te_endpoint
};

// A decoder skip the standby turns into a silent drop rather than a load failure.
bool is_invalid_memory_skip(const std::string& reason) {
  return reason.find("MEMORY replica on segment") != std::string::npos ||
         reason.find("MEMORY replica segment id") != std::string::npos;
}

format::PayloadReplica to_payload_replica(const format::ReplicaView& v, const SegmentEndpoints& endpoints) {
  format::PayloadReplica r;
  r.id = v.id;
  r.status = v.status;
  switch (v.type) {
    case model::replica_type::memory: {
      r.variant = format::payload_variant::memory;
      r.buffer_size = v.mem_size;
      r.buffer_address = v.mem_address;
      r.protocol = "tcp";
      auto it = endpoints.by_id_text.find(std::string(v.segment_id));
      if (it != endpoints.by_id_text.end()) r.transport_endpoint = it->second;
      break;
    }
    case model::replica_type::disk:
      r.variant = format::payload_variant::disk;
      r.file_path = v.file_path;
      r.object_size = v.object_size;
      break;
    case model::replica_type::local_disk: {
      r.variant = format::payload_variant::local_disk;
      if (auto uuid = util::parse_uuid_lenient(v.client_id)) {
        r.client_first = uuid->first;
        r.client_second = uuid->second;
      }
      r.object_size = v.object_size;
      r.transport_endpoint = v.transport_endpoint;
      break;
    }
    default:
      r.variant = format::payload_variant::dfs;
      r.file_path = v.file_path;
      r.object_size = v.object_size;
      r.dfs_offset = v.dfs_offset;
      r.dfs_aligned_size = v.dfs_aligned_size;
      r.dfs_shard_idx = v.dfs_shard_idx;
      break;
  }
  return r;
}

// Collects one shard's entries into the store under the standby rules.
class StandbyShardVisitor : public ShardAnalyzer {
 public:
  StandbyShardVisitor(StandbyStore& store, std::mutex& mutex, const SegmentEndpoints& endpoints, std::uint64_t now_ms,
                      ChargeModel charge_model, LeaseModel lease_model, StandbyBootstrap& out)
      : m_store(store),
        m_mutex(mutex),
        m_endpoints(endpoints),
        m_now_ms(now_ms),
        m_live(charge_model == ChargeModel::live),
        m_keep_leases(lease_model == LeaseModel::keep),
        m_out(out) {}

  void on_entry(const format::ShardEntry& entry) override {
    const auto& obj = *entry.object;
    const auto& result = *entry.result;
    std::lock_guard lock(m_mutex);
    if (!m_error.empty()) return;
    if (result.outcome == format::DecodeOutcome::skipped) {
      if (is_invalid_memory_skip(result.reason)) {
        ++m_out.dropped.invalid_memory;
        ++tenant(obj.tenant_id).objects.invalid_memory;
        return;
      }
      m_error = "shard " + std::to_string(entry.shard_index) + " entry " + std::to_string(entry.entry_index) + ": " +
                result.reason + " (the master would skip this object; the standby fails the load)";
      return;
    }
    if (obj.size == 0) {
      ++m_out.dropped.size_zero;
      ++tenant(obj.tenant_id).objects.size_zero;
      return;
    }
    // The live model: what the primary held at the snapshot, so no bootstrap-time erasure.
    if (!m_live && !m_keep_leases && obj.lease_timeout_ms <= m_now_ms) {
      ++m_out.dropped.lease_expired;
      auto& t = tenant(obj.tenant_id);
      ++t.objects.lease_expired;
      t.lease_expired_bytes += committed_charge(obj);
      t.lease_expired_size_bytes += obj.size;
      return;
    }
    for (const auto& r : obj.replicas) {
      if (!m_live && r.status != model::replica_status::complete) {
        ++m_out.dropped.non_complete;
        auto& t = tenant(obj.tenant_id);
        ++t.objects.non_complete;
        t.non_complete_bytes += committed_charge(obj);
        t.non_complete_size_bytes += obj.size;
        return;
      }
    }
    StandbyObject o;
    if (auto uuid = util::parse_uuid_lenient(obj.client_id)) {
      o.client_first = uuid->first;
      o.client_second = uuid->second;
    }
    o.size = obj.size;
    o.group_id = obj.group_id;
    o.data_type = obj.data_type;
    o.hard_pinned = obj.hard_pinned;
    o.bootstrap_lease_timeout_ms = obj.lease_timeout_ms;
    o.replicas.reserve(obj.replicas.size());
    for (const auto& r : obj.replicas) o.replicas.push_back(to_payload_replica(r, m_endpoints));
    if (!m_store.insert_new(obj.tenant_id, obj.key, std::move(o))) {
      m_error = "duplicate object (tenant '" + std::string(obj.tenant_id) + "', key '" + std::string(obj.key) +
                "') in shard " + std::to_string(entry.shard_index) +
                ": a hard error when inserted into the standby store";
      return;
    }
    ++m_out.objects_loaded;
  }

  bool end_shard(const ShardContext& /*shard*/) override {
    std::lock_guard lock(m_mutex);
    return m_error.empty();
  }

  [[nodiscard]] const std::string& error() const { return m_error; }

 private:
  // Called under m_mutex.
  StandbyTenantDrops& tenant(std::string_view id) {
    auto it = m_out.tenants.find(id);
    if (it == m_out.tenants.end()) it = m_out.tenants.emplace(std::string(id), StandbyTenantDrops{}).first;
    return it->second;
  }
  // What the object would be charged: size x COMPLETE MEMORY replicas (quota-semantics.md §2.1).
  static util::u128 committed_charge(const format::ObjectView& obj) {
    std::uint64_t complete_memory = 0;
    for (const auto& r : obj.replicas) {
      if (r.type == model::replica_type::memory && r.status == model::replica_status::complete) ++complete_memory;
    }
    return util::clamped_mul(obj.size, complete_memory);
  }

  StandbyStore& m_store;
  std::mutex& m_mutex;
  const SegmentEndpoints& m_endpoints;
  std::uint64_t m_now_ms;
  bool m_live;
  bool m_keep_leases;  // LeaseModel::keep: no lease filter
  StandbyBootstrap& m_out;
  std::string m_error;
};

// The standby's decision sequence through the one reader (ReadRules::standby); this visitor
// applies its drop rules and fills the store. Any error fails the whole load (§11).
Status load(source::ObjectStore& object_store, const std::string& dir, const std::string& id,
            const RestoreOptions& options, StandbyStore& store, StandbyBootstrap& out) {
  std::mutex mutex;
  SegmentEndpoints endpoints;
  ScanOptions scan;
  scan.rules = ReadRules::standby;
  scan.max_payload_bytes = options.max_payload_bytes;
  scan.restore_time_ms = options.restore_time_ms;
  scan.on_segments = [&](const model::SegmentsPayload& segments) {
    for (const auto& seg : segments.mounted) {
      if (auto uuid = util::parse_uuid_lenient(seg.map_key)) {
        endpoints.by_id_text.emplace(seg.map_key, seg.te_endpoint);
        endpoints.by_id_text.emplace(uuid->to_string(), seg.te_endpoint);
      }
      store.registry()[seg.te_endpoint] = StandbySegment{seg.name, seg.te_endpoint, seg.size, true, ""};
    }
  };
  StandbyShardVisitor visitor(store, mutex, endpoints, options.restore_time_ms, options.charge_model,
                              options.lease_model, out);
  const std::vector<ShardAnalyzer*> workers(std::max(1u, options.threads), &visitor);
  auto snap = scan_snapshot(object_store, dir, id, scan, workers);
  if (!snap.ok()) return snap.status();
  out.findings = std::move(snap->findings);
  if (!visitor.error().empty()) return Status::corruption("metadata: " + visitor.error());
  out.last_included_seq = snap->descriptor->last_included_seq;
  out.created_at_ms = snap->descriptor->created_at_ms;
  return {};
}

}  // namespace

StandbyBootstrap load_standby_snapshot(source::ObjectStore& object_store, const std::string& snapshot_dir,
                                       const std::string& snapshot_id, const RestoreOptions& options,
                                       StandbyStore& store) {
  StandbyBootstrap out;
  out.snapshot_id = snapshot_id;
  store.clear();
  Status s = load(object_store, snapshot_dir, snapshot_id, options, store, out);
  if (!s.ok()) {
    store.clear();
    out.failure = s.message();
    out.objects_loaded = 0;
    // A failed load drops everything; the counts of the part read before the failure (which
    // depends on the threads' order) would only mislead.
    out.dropped = {};
    out.tenants.clear();
    out.last_included_seq = 0;
    out.created_at_ms.reset();
    return out;
  }
  out.loaded = true;
  return out;
}

}  // namespace moonquota::restore
