#include "inspect/snapshot_stats.hpp"

#include <bit>

#include "util/checked_math.hpp"

namespace moonquota::inspect {

namespace {

std::uint64_t replica_bytes(const format::ReplicaView& r) {
  return r.type == model::replica_type::memory ? r.mem_size : r.object_size;
}

template <typename Map>
void add_all(Map& into, const Map& from) {
  for (const auto& [k, v] : from) into[k] += v;
}

}  // namespace

void SnapshotStats::merge(const SnapshotStats& o) {
  entries += o.entries;
  decoded += o.decoded;
  skipped += o.skipped;
  grouped += o.grouped;
  hard_pinned += o.hard_pinned;
  with_checksum += o.with_checksum;
  all_replicas_complete += o.all_replicas_complete;
  for (const auto& [k, v] : o.replicas) {
    replicas[k].replicas += v.replicas;
    replicas[k].bytes = util::saturating_add(replicas[k].bytes, v.bytes);
  }
  add_all(objects, o.objects);
  add_all(objects_by_data_type, o.objects_by_data_type);
  for (const auto& [tenant, u] : o.tenants) {
    auto it = tenants.find(tenant);
    if (it == tenants.end()) {
      TenantUsage fresh;
      fresh.biggest = ObjectRanking(u.biggest.capacity());
      it = tenants.emplace(tenant, std::move(fresh)).first;
    }
    TenantUsage& t = it->second;
    t.objects += u.objects;
    t.skipped += u.skipped;
    t.replicas += u.replicas;
    t.logical_bytes = util::saturating_add(t.logical_bytes, u.logical_bytes);
    t.memory_bytes = util::saturating_add(t.memory_bytes, u.memory_bytes);
    t.disk_bytes = util::saturating_add(t.disk_bytes, u.disk_bytes);
    t.local_disk_bytes = util::saturating_add(t.local_disk_bytes, u.local_disk_bytes);
    t.charge_if_all_restored_bytes =
        util::saturating_add(t.charge_if_all_restored_bytes, u.charge_if_all_restored_bytes);
    t.biggest.merge(u.biggest);
  }
  for (std::size_t i = 0; i < shard_entries.size(); ++i) shard_entries[i] += o.shard_entries[i];
  top_objects.merge(o.top_objects);
}

StatsAnalyzer::StatsAnalyzer(const StatsOptions& options) : m_options(options) {
  m_stats.top_objects = ObjectRanking(options.top_objects);
}

void StatsAnalyzer::on_entry(const format::ShardEntry& entry) {
  const format::ObjectView& obj = *entry.object;
  ++m_stats.entries;
  ++m_stats.shard_entries[m_shard];
  auto it = m_stats.tenants.find(obj.tenant_id);
  if (it == m_stats.tenants.end()) {
    TenantUsage fresh;
    fresh.biggest = ObjectRanking(m_options.biggest_per_tenant);
    it = m_stats.tenants.emplace(std::string(obj.tenant_id), std::move(fresh)).first;
  }
  TenantUsage& tenant = it->second;
  if (entry.result->outcome != format::DecodeOutcome::decoded) {
    ++m_stats.skipped;
    ++tenant.skipped;
    return;
  }
  ++m_stats.decoded;
  ++tenant.objects;
  if (!obj.group_id.empty()) ++m_stats.grouped;
  if (obj.hard_pinned) ++m_stats.hard_pinned;
  if (obj.has_checksum) ++m_stats.with_checksum;
  ++m_stats.objects_by_data_type[obj.data_type];
  std::uint32_t complete_memory = 0;
  bool all_complete = true;
  // An object counts once under each distinct (type, status) of its replicas.
  std::pair<std::int8_t, std::int16_t> seen[8];
  std::size_t seen_count = 0;
  for (const auto& r : obj.replicas) {
    const auto key = std::make_pair(r.type, r.status);
    ReplicaTally& tally = m_stats.replicas[key];
    ++tally.replicas;
    tally.bytes = util::saturating_add(tally.bytes, replica_bytes(r));
    if (r.type == model::replica_type::memory)
      tenant.memory_bytes = util::saturating_add(tenant.memory_bytes, r.mem_size);
    if (r.type == model::replica_type::disk) tenant.disk_bytes = util::saturating_add(tenant.disk_bytes, r.object_size);
    if (r.type == model::replica_type::local_disk) {
      tenant.local_disk_bytes = util::saturating_add(tenant.local_disk_bytes, r.object_size);
    }
    if (r.status != model::replica_status::complete) {
      all_complete = false;
    } else if (r.type == model::replica_type::memory) {
      ++complete_memory;
    }
    bool counted = false;
    for (std::size_t k = 0; k < seen_count; ++k) counted = counted || seen[k] == key;
    if (!counted) {
      ++m_stats.objects[key];
      if (seen_count < std::size(seen)) seen[seen_count++] = key;
    }
  }
  if (obj.replicas.empty()) ++m_stats.objects[{-1, -1}];
  if (all_complete) ++m_stats.all_replicas_complete;
  tenant.replicas += obj.replicas.size();
  tenant.logical_bytes = util::saturating_add(tenant.logical_bytes, obj.size);
  const util::u128 wide = util::clamped_mul(obj.size, complete_memory);
  const std::uint64_t charge = wide > ~std::uint64_t{0} ? ~std::uint64_t{0} : static_cast<std::uint64_t>(wide);
  tenant.charge_if_all_restored_bytes = util::saturating_add(tenant.charge_if_all_restored_bytes, charge);
  // Build the ranked record only when it can enter a ranking (the hot path is a comparison).
  RankedObject ranked;
  ranked.size = obj.size;
  ranked.charge_bytes = charge;
  ranked.shard = m_shard;
  ranked.replicas = static_cast<std::uint32_t>(obj.replicas.size());
  auto offer = [&](ObjectRanking& ranking, std::uint64_t value) {
    if (ranking.capacity() == 0) return;
    ranked.value = value;
    if (ranked.tenant_id.empty()) {
      ranked.tenant_id = std::string(obj.tenant_id);
      ranked.key = std::string(obj.key);
    }
    ranking.offer(ranked);
  };
  offer(tenant.biggest, obj.size);
  offer(m_stats.top_objects, m_options.rank_by == RankBy::size ? obj.size : charge);
}

std::vector<std::uint64_t> shard_fill_histogram(const std::array<std::uint64_t, util::k_metadata_shards>& entries) {
  std::vector<std::uint64_t> buckets(65, 0);
  for (std::uint64_t n : entries) ++buckets[n == 0 ? 0 : std::bit_width(n)];
  while (buckets.size() > 1 && buckets.back() == 0) buckets.pop_back();
  return buckets;
}

util::Result<StatsScan> scan_stats(source::ObjectStore& store, const std::string& snapshot_dir,
                                   const std::string& snapshot_id, const restore::ScanOptions& options,
                                   const StatsOptions& stats_options, unsigned threads) {
  std::vector<StatsAnalyzer> analyzers(std::max(1u, threads), StatsAnalyzer(stats_options));
  std::vector<restore::ShardAnalyzer*> pointers;
  for (auto& a : analyzers) pointers.push_back(&a);
  auto snap = restore::scan_snapshot(store, snapshot_dir, snapshot_id, options, pointers);
  if (!snap.ok()) return snap.status();
  StatsScan out{std::move(snap).value(), {}};
  out.stats.top_objects = ObjectRanking(stats_options.top_objects);
  for (const auto& a : analyzers) out.stats.merge(a.stats());
  return out;
}

}  // namespace moonquota::inspect
