#include "restore/tenant_explain.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <utility>

#include "restore/shard_tally.hpp"

namespace moonquota::restore {

namespace {

bool larger(const ExplainedObject& a, const ExplainedObject& b) {
  if (a.bytes != b.bytes) return a.bytes > b.bytes;
  if (a.size != b.size) return a.size > b.size;
  return a.key < b.key;
}

// Keeps the `top` largest: trims to `top` whenever twice as many were collected.
void add(ExplainCategory& category, const ExplainedObject& object, util::u128 bytes, std::size_t top) {
  ++category.objects;
  category.bytes += bytes;
  category.largest.push_back(object);
  category.largest.back().bytes = util::saturated_u64(bytes);
  if (category.largest.size() >= 2 * top) {
    std::nth_element(category.largest.begin(), category.largest.begin() + static_cast<std::ptrdiff_t>(top - 1),
                     category.largest.end(), larger);
    category.largest.resize(top);
  }
}

void finish(ExplainCategory& category, std::size_t top) {
  std::sort(category.largest.begin(), category.largest.end(), larger);
  if (category.largest.size() > top) category.largest.resize(top);
}

void merge(ExplainCategory& into, ExplainCategory&& from, std::size_t top) {
  into.objects += from.objects;
  into.bytes += from.bytes;
  for (auto& object : from.largest) into.largest.push_back(std::move(object));
  finish(into, top);
}

void merge(TenantExplanation& into, TenantExplanation&& from) {
  merge(into.charged, std::move(from.charged), into.top);
  merge(into.in_flight, std::move(from.in_flight), into.top);
  merge(into.dropped_non_complete, std::move(from.dropped_non_complete), into.top);
  merge(into.dropped_lease_expired, std::move(from.dropped_lease_expired), into.top);
  into.undecodable += from.undecodable;
}

// Per worker: the tenant's part of each shard it decodes, one slot per shard index (the master
// keeps the last blob of an index).
class ExplainAnalyzer final : public ShardAnalyzer {
 public:
  struct Slot {
    std::uint64_t sequence = 0;
    TenantExplanation part;
  };

  ExplainAnalyzer(const RestoreModel& model, const std::string& tenant, std::size_t top)
      : m_model(model), m_tenant(tenant), m_top(top) {}
  void begin_shard(const ShardContext& /*shard*/) override { m_builder.reset(); }
  void on_entry(const format::ShardEntry& entry) override {
    if (format::same_bytes(entry.object->tenant_id, m_tenant)) m_builder.on_entry(entry);
  }
  bool end_shard(const ShardContext& shard) override {
    auto existing = m_slots.find(shard.shard_index);
    if (existing != m_slots.end() && existing->second.sequence > shard.sequence) {
      m_builder.reset();
      return true;
    }
    Slot slot;
    slot.sequence = shard.sequence;
    slot.part.top = m_top;
    m_builder.resolve(shard.shard_index, m_ignored, [&](const ShardTallyBuilder::Resolved& r) {
      slot.part.undecodable += r.undecodable;
      if (!r.object) return;
      const ShardTallyBuilder::Entry& e = *r.object;
      ExplainedObject object{std::string(r.key),
                             shard.shard_index,
                             e.size,
                             e.complete_memory,
                             e.processing_memory,
                             e.removed_memory,
                             e.all_complete,
                             e.lease_timeout_ms,
                             e.put_start_time_ms,
                             0};
      const util::u128 committed = util::clamped_mul(e.size, e.complete_memory);
      if (e.processing_memory > 0) {
        add(slot.part.in_flight, object, util::clamped_mul(e.size, e.processing_memory), m_top);
      }
      const RestoreDrop drop = m_model.charge_model == ChargeModel::live
                                   ? RestoreDrop::kept
                                   : restore_filter(e, m_model.restore_time_ms, m_model.lease_model);
      switch (drop) {
        case RestoreDrop::kept: add(slot.part.charged, object, committed, m_top); break;
        case RestoreDrop::non_complete: add(slot.part.dropped_non_complete, object, committed, m_top); break;
        case RestoreDrop::lease_expired: add(slot.part.dropped_lease_expired, object, committed, m_top); break;
      }
    });
    m_ignored.clear();
    m_builder.reset();
    m_slots[shard.shard_index] = std::move(slot);
    return true;
  }
  [[nodiscard]] std::map<std::uint32_t, Slot>& slots() { return m_slots; }

 private:
  const RestoreModel& m_model;
  const std::string& m_tenant;
  std::size_t m_top;
  ShardTallyBuilder m_builder;
  std::map<std::uint32_t, Slot> m_slots;
  model::Findings m_ignored;  // the restore reported them already
};

}  // namespace

util::Result<TenantExplanation> explain_tenant(source::ObjectStore& store, const std::string& snapshot_dir,
                                               const std::string& snapshot_id, const RestoreModel& model,
                                               const std::string& tenant_id, std::size_t top, unsigned threads) {
  if (top == 0 || top > k_max_explain_top) return util::Status::invalid_argument("explain: top must be 1 .. 1000");
  std::vector<std::unique_ptr<ExplainAnalyzer>> analyzers;
  std::vector<ShardAnalyzer*> pointers;
  for (unsigned i = 0; i < std::max(1U, threads); ++i) {
    analyzers.push_back(std::make_unique<ExplainAnalyzer>(model, tenant_id, top));
    pointers.push_back(analyzers.back().get());
  }
  ScanOptions scan;
  static_cast<RestoreModel&>(scan) = model;
  scan.rules = ReadRules::master;
  auto scanned = scan_snapshot(store, snapshot_dir, snapshot_id, scan, pointers);
  if (!scanned.ok()) return scanned.status();
  // Per shard index, the slot of the latest blob among the workers.
  std::map<std::uint32_t, ExplainAnalyzer::Slot*> winners;
  for (auto& analyzer : analyzers) {
    for (auto& [shard, slot] : analyzer->slots()) {
      auto& winner = winners[shard];
      if (winner == nullptr || winner->sequence < slot.sequence) winner = &slot;
    }
  }
  TenantExplanation out;
  out.tenant_id = tenant_id;
  out.top = top;
  out.restore_model = model.charge_model != ChargeModel::live;
  for (auto& [shard, slot] : winners) merge(out, std::move(slot->part));
  return out;
}

}  // namespace moonquota::restore
