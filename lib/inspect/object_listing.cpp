#include "inspect/object_listing.hpp"

namespace moonquota::inspect {

bool ObjectFilter::matches(const format::ShardEntry& entry) const {
  const format::ObjectView& obj = *entry.object;
  if (tenant_id && obj.tenant_id != *tenant_id) return false;
  if (!key_prefix.empty() && obj.key.substr(0, key_prefix.size()) != key_prefix) return false;
  const bool decoded = entry.result->outcome == format::DecodeOutcome::decoded;
  if (!decoded) { return include_skipped && !replica_type && !status && min_size == 0 && !group_id; }
  if (obj.size < min_size) return false;
  if (group_id && obj.group_id != *group_id) return false;
  if (replica_type || status) {
    bool any = false;
    for (const auto& r : obj.replicas) {
      any = any || ((!replica_type || r.type == *replica_type) && (!status || r.status == *status));
    }
    if (!any) return false;
  }
  return true;
}

bool OrderedObjectEmitter::deliver(std::uint64_t sequence, std::vector<ListedObject> objects) {
  std::lock_guard lock(m_mutex);
  m_waiting.emplace(sequence, std::move(objects));
  while (!m_waiting.empty() && m_waiting.begin()->first == m_next) {
    for (const auto& o : m_waiting.begin()->second) {
      if (limit_reached()) break;
      m_sink(o);
      ++m_emitted;
    }
    m_waiting.erase(m_waiting.begin());
    ++m_next;
  }
  return !limit_reached();
}

void ListingAnalyzer::begin_shard(const restore::ShardContext& /*shard*/) { m_matches.clear(); }

void ListingAnalyzer::on_entry(const format::ShardEntry& entry) {
  if (!m_filter.matches(entry)) return;
  ListedObject listed;
  listed.shard = entry.shard_index;
  listed.entry_index = entry.entry_index;
  listed.skipped = entry.result->outcome != format::DecodeOutcome::decoded;
  if (listed.skipped) {
    listed.skip_reason = entry.result->reason;
    listed.record.tenant_id = std::string(entry.object->tenant_id);
    listed.record.key = std::string(entry.object->key);
  } else {
    listed.record = format::to_record(*entry.object);
  }
  m_matches.push_back(std::move(listed));
}

bool ListingAnalyzer::end_shard(const restore::ShardContext& shard) {
  for (auto& m : m_matches) m.sequence = shard.sequence;
  return m_emitter.deliver(shard.sequence, std::move(m_matches));
}

util::Result<ListingResult> list_objects(source::ObjectStore& store, const std::string& snapshot_dir,
                                         const std::string& snapshot_id, const restore::ScanOptions& options,
                                         const ObjectFilter& filter, std::uint64_t limit, unsigned threads,
                                         ObjectSink sink) {
  OrderedObjectEmitter emitter(std::move(sink), limit);
  std::vector<ListingAnalyzer> analyzers(std::max(1u, threads), ListingAnalyzer(filter, emitter));
  std::vector<restore::ShardAnalyzer*> pointers;
  for (auto& a : analyzers) pointers.push_back(&a);
  auto snap = restore::scan_snapshot(store, snapshot_dir, snapshot_id, options, pointers);
  if (!snap.ok()) return snap.status();
  ListingResult out{std::move(snap).value(), emitter.emitted(), emitter.limit_reached()};
  return out;
}

}  // namespace moonquota::inspect
