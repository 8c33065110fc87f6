#include "restore/standby_loader.hpp"

#include <algorithm>
#include <mutex>

#include "restore/snapshot_reader.hpp"
#include "util/uuid.hpp"

namespace moonquota::restore {

using util::Status;

namespace {

// Collects one shard's entries into the store under the standby rules.
class StandbyShardVisitor : public ShardAnalyzer {
 public:
  StandbyShardVisitor(StandbyStore& store, std::mutex& mutex, const SegmentEndpoints& endpoints,
                      const StandbyRules& rules, StandbyBootstrap& out)
      : m_store(store), m_mutex(mutex), m_endpoints(endpoints), m_rules(rules), m_out(out) {}

  void on_entry(const format::ShardEntry& entry) override {
    const auto& obj = *entry.object;
    std::lock_guard lock(m_mutex);
    if (!m_error.empty()) return;
    const StandbyDecision decision = decide_standby_entry(entry, m_rules);
    if (decision == StandbyDecision::fail) {
      m_error = standby_entry_failure(entry);
      return;
    }
    if (decision != StandbyDecision::keep) {
      m_drops.record(decision, obj);
      return;
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
  StandbyDropTally& drops() { return m_drops; }

 private:
  StandbyStore& m_store;
  std::mutex& m_mutex;
  const SegmentEndpoints& m_endpoints;
  StandbyRules m_rules;
  StandbyBootstrap& m_out;
  StandbyDropTally m_drops;
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
    endpoints.add(segments);
    add_snapshot_segments(segments, store.registry());
  };
  StandbyShardVisitor visitor(store, mutex, endpoints, standby_rules(options), out);
  const std::vector<ShardAnalyzer*> workers(std::max(1u, options.threads), &visitor);
  auto snap = scan_snapshot(object_store, dir, id, scan, workers);
  if (!snap.ok()) return snap.status();
  out.findings = std::move(snap->findings);
  if (!visitor.error().empty()) return Status::corruption("metadata: " + visitor.error());
  out.dropped = visitor.drops().dropped;
  out.tenants = std::move(visitor.drops().tenants);
  out.last_included_seq = snap->descriptor->last_included_seq;
  out.created_at_ms = snap->descriptor->created_at_ms;
  return {};
}

}  // namespace

StandbyRules standby_rules(const RestoreOptions& options) {
  return StandbyRules{options.restore_time_ms, options.charge_model == ChargeModel::live,
                      options.lease_model == LeaseModel::keep};
}

void add_snapshot_segments(const model::SegmentsPayload& segments, std::map<std::string, StandbySegment>& registry) {
  for (const auto& seg : segments.mounted) {
    registry[seg.te_endpoint] = StandbySegment{seg.name, seg.te_endpoint, seg.size, true, ""};
  }
}

void fail_bootstrap(StandbyBootstrap& out, std::string failure) {
  out.loaded = false;
  out.failure = std::move(failure);
  out.objects_loaded = 0;
  // A failed load drops everything; the counts of the part read before the failure (which
  // depends on the threads' order) would only mislead.
  out.dropped = {};
  out.tenants.clear();
  out.last_included_seq = 0;
  out.created_at_ms.reset();
}

StandbyBootstrap load_standby_snapshot(source::ObjectStore& object_store, const std::string& snapshot_dir,
                                       const std::string& snapshot_id, const RestoreOptions& options,
                                       StandbyStore& store) {
  StandbyBootstrap out;
  out.snapshot_id = snapshot_id;
  store.clear();
  Status s = load(object_store, snapshot_dir, snapshot_id, options, store, out);
  if (!s.ok()) {
    store.clear();
    fail_bootstrap(out, s.message());
    return out;
  }
  out.loaded = true;
  return out;
}

}  // namespace moonquota::restore
