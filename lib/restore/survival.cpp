#include "restore/survival.hpp"

#include <algorithm>
#include <memory>
#include <utility>

namespace moonquota::restore {

SurvivalAmount TenantSurvival::kept_at(std::size_t p) const {
  SurvivalAmount sum;
  for (std::size_t d = p + 1; d < first_dropped_at.size(); ++d) sum += first_dropped_at[d];
  return sum;
}

SurvivalAmount TenantSurvival::dropped_at(std::size_t p) const {
  SurvivalAmount sum;
  for (std::size_t d = 0; d <= p && d < first_dropped_at.size(); ++d) sum += first_dropped_at[d];
  return sum;
}

std::size_t first_drop_point(const ShardTallyBuilder::Entry& object, const SurvivalOptions& options) {
  const auto& points = options.points_ms;
  // A non-COMPLETE replica is erased whatever the time; restore_filter checks it first.
  if (restore_filter(object, 0, options.lease_model) == RestoreDrop::non_complete) return 0;
  if (options.lease_model == LeaseModel::keep) return points.size();
  // restore_filter is monotonic in the restore time: kept before lease_timeout, dropped from it on.
  auto it = std::partition_point(points.begin(), points.end(), [&](std::uint64_t at_ms) {
    return restore_filter(object, at_ms, options.lease_model) == RestoreDrop::kept;
  });
  return static_cast<std::size_t>(it - points.begin());
}

namespace {

void add_tenants(SurvivalAnalyzer::Tenants& into, const SurvivalAnalyzer::Tenants& from, std::size_t buckets) {
  for (const auto& [tenant, survival] : from) {
    auto it = into.find(tenant);
    if (it == into.end()) {
      it = into.emplace(tenant, TenantSurvival{}).first;
      it->second.first_dropped_at.resize(buckets);
    }
    it->second.undecodable += survival.undecodable;
    for (std::size_t d = 0; d < buckets; ++d) it->second.first_dropped_at[d] += survival.first_dropped_at[d];
  }
}

}  // namespace

void SurvivalAnalyzer::begin_shard(const ShardContext& /*shard*/) { m_builder.reset(); }

bool SurvivalAnalyzer::end_shard(const ShardContext& shard) {
  Tenants* target = &m_totals;
  Slot slot;
  if (m_per_shard) {
    auto existing = m_slots.find(shard.shard_index);
    // The master keeps the last blob of a shard index (a duplicate replaces the earlier one).
    if (existing != m_slots.end() && existing->second.sequence > shard.sequence) {
      m_builder.reset();
      return true;
    }
    slot.sequence = shard.sequence;
    target = &slot.tenants;
  }
  const std::size_t buckets = m_options.points_ms.size() + 1;
  TenantSurvival* current = nullptr;
  std::string_view current_tenant;
  m_builder.resolve(shard.shard_index, m_ignored, [&](const ShardTallyBuilder::Resolved& r) {
    if (current == nullptr || current_tenant != r.tenant) {
      auto it = target->find(r.tenant);
      if (it == target->end()) {
        it = target->emplace(std::string(r.tenant), TenantSurvival{}).first;
        it->second.first_dropped_at.resize(buckets);
      }
      current = &it->second;
      current_tenant = r.tenant;
    }
    current->undecodable += r.undecodable;
    if (!r.object) return;
    SurvivalAmount& bucket = current->first_dropped_at[first_drop_point(*r.object, m_options)];
    ++bucket.objects;
    bucket.bytes += r.object->size;
    bucket.charged_bytes += util::clamped_mul(r.object->size, r.object->complete_memory);
  });
  m_ignored.clear();
  m_builder.reset();
  if (m_per_shard) m_slots[shard.shard_index] = std::move(slot);
  return true;
}

namespace {

util::Result<SurvivalScan> scan_once(source::ObjectStore& store, const std::string& snapshot_dir,
                                     const std::string& snapshot_id, const ScanOptions& scan,
                                     const SurvivalOptions& options, unsigned threads, bool per_shard) {
  std::vector<std::unique_ptr<SurvivalAnalyzer>> analyzers;
  std::vector<ShardAnalyzer*> pointers;
  for (unsigned i = 0; i < std::max(1U, threads); ++i) {
    analyzers.push_back(std::make_unique<SurvivalAnalyzer>(options, per_shard));
    pointers.push_back(analyzers.back().get());
  }
  SurvivalScan out;
  MQ_ASSIGN_OR_RETURN(out.snapshot, scan_snapshot(store, snapshot_dir, snapshot_id, scan, pointers));
  const std::size_t buckets = options.points_ms.size() + 1;
  if (!per_shard) {
    for (auto& analyzer : analyzers) add_tenants(out.tenants, analyzer->totals(), buckets);
    return out;
  }
  // Per shard index, the slot of the latest blob among the workers.
  std::map<std::uint32_t, SurvivalAnalyzer::Slot*> winners;
  for (auto& analyzer : analyzers) {
    for (auto& [shard, slot] : analyzer->slots()) {
      auto& winner = winners[shard];
      if (winner == nullptr || winner->sequence < slot.sequence) winner = &slot;
    }
  }
  for (auto& [shard, slot] : winners) add_tenants(out.tenants, slot->tenants, buckets);
  return out;
}

}  // namespace

util::Result<SurvivalScan> scan_survival(source::ObjectStore& store, const std::string& snapshot_dir,
                                         const std::string& snapshot_id, const ScanOptions& scan_options,
                                         const SurvivalOptions& options, unsigned threads) {
  if (!std::is_sorted(options.points_ms.begin(), options.points_ms.end())) {
    return util::Status::internal("survival points are not in ascending order");
  }
  ScanOptions scan = scan_options;
  scan.rules = ReadRules::master;
  scan.charge_model = ChargeModel::restore;
  MQ_ASSIGN_OR_RETURN(SurvivalScan out, scan_once(store, snapshot_dir, snapshot_id, scan, options, threads, false));
  if (out.snapshot.duplicate_shard_blobs == 0) return out;
  // Rare (a corrupt store): a blob the master replaces was counted; read again with shard slots.
  return scan_once(store, snapshot_dir, snapshot_id, scan, options, threads, true);
}

}  // namespace moonquota::restore
