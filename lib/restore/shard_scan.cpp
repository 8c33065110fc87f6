#include "restore/shard_scan.hpp"

#include <algorithm>

#include "restore/upsert_match.hpp"
#include "util/hashing.hpp"

namespace moonquota::restore {

using util::Status;

namespace {

constexpr std::size_t k_findings_per_worker = 10000;

// Forwards each entry to the restore model and to the caller's analyzer.
class TeeVisitor final : public format::ShardVisitor {
 public:
  TeeVisitor(ShardTallyBuilder* tally, ShardAnalyzer* analyzer) : m_tally(tally), m_analyzer(analyzer) {}
  [[nodiscard]] std::uint64_t entries() const { return m_entries; }
  void on_entry(const format::ShardEntry& entry) override {
    if (m_tally != nullptr) m_tally->on_entry(entry);
    ++m_entries;
    if (m_analyzer != nullptr) m_analyzer->on_entry(entry);
  }

 private:
  ShardTallyBuilder* m_tally;  // null: no restore model (the standby's rules)
  ShardAnalyzer* m_analyzer;
  std::uint64_t m_entries = 0;
};

}  // namespace

ShardScan::ShardScan(const ScanOptions& options, const std::vector<ShardAnalyzer*>& analyzers,
                     const format::SegmentTable& table, SegmentsLoad* segments_load, bool speculate_every_shard)
    : m_options(options),
      m_analyzers(analyzers),
      m_table(table),
      m_segments_load(segments_load),
      m_speculate_every_shard(speculate_every_shard),
      m_restore_model(options.rules == ReadRules::master) {
  const unsigned threads = std::max<unsigned>(1, static_cast<unsigned>(analyzers.size()));
  m_views.resize(threads);
  m_builders.resize(threads);
  m_findings.resize(threads);
  m_speculations.resize(threads);
  m_slots.resize(util::k_metadata_shards);
}

Status ShardScan::await_segments() {
  if (m_segments_load == nullptr || m_segments_load->wait().ok()) return {};
  return Status::internal("the segments payload could not be loaded");
}

Status ShardScan::decode(unsigned worker, std::uint32_t shard, std::uint64_t sequence, std::string_view bytes) {
  if (m_stop.load()) return Status::internal("scan stopped");
  ShardAnalyzer* analyzer = worker < m_analyzers.size() ? m_analyzers[worker] : nullptr;
  const ShardContext context{shard, sequence, bytes};
  if (analyzer != nullptr) analyzer->begin_shard(context);
  ShardTallyBuilder& builder = m_builders[worker];
  builder.reset();
  model::Findings& findings = m_findings[worker];
  const std::size_t before = findings.size();
  std::optional<TeeVisitor> tee;
  tee.emplace(m_restore_model ? &builder : nullptr, analyzer);
  bool decoded = false;
  if (m_segments_load != nullptr && (m_speculate_every_shard || !m_segments_load->ready())) {
    format::SegmentSpeculation& speculation = m_speculations[worker];
    speculation.needs_table = false;
    Status s = format::decode_shard(bytes, shard, m_table, m_views[worker], *tee, findings,
                                    format::DecodePath::canonical_first, &speculation);
    decoded = s.ok() && !speculation.needs_table;
    (decoded ? m_speculative_shards : m_redecoded_shards).fetch_add(1);
    if (!decoded) {  // decoded again below with the real table, from the shard's first entry
      findings.resize(before);
      builder.reset();
      tee.emplace(m_restore_model ? &builder : nullptr, analyzer);
    }
  }
  if (!decoded) {
    MQ_RETURN_IF_ERROR(await_segments());
    MQ_RETURN_IF_ERROR(format::decode_shard(bytes, shard, m_table, m_views[worker], *tee, findings));
  }
  Slot slot;
  slot.sequence = sequence;
  if (m_restore_model) {
    builder.finish(shard, m_options.charge_model, m_options.restore_time_ms, slot.tally, findings,
                   m_options.lease_model);
  }
  if (findings.size() > k_findings_per_worker) findings.resize(std::max(before, k_findings_per_worker));
  const std::uint64_t seen = tee->entries();
  const std::uint64_t total = m_entries.fetch_add(seen) + seen;
  {
    std::lock_guard lock(m_mutex);
    auto& target = m_slots[shard];
    if (!target || target->sequence < sequence) target = std::move(slot);
  }
  if (m_options.progress) m_options.progress(m_shards_done.fetch_add(1) + 1, total);
  if (analyzer != nullptr && !analyzer->end_shard(context)) {
    m_stop.store(true);
    return Status::internal("scan stopped");
  }
  return {};
}

bool ShardScan::speculation_holds(const format::SegmentTable& table) const {
  return std::all_of(m_speculations.begin(), m_speculations.end(),
                     [&table](const format::SegmentSpeculation& s) { return s.holds_under(table); });
}

ScannedSnapshot::Overlap ShardScan::overlap(bool read_again) const {
  return {m_speculative_shards.load(), m_redecoded_shards.load(), read_again};
}

void ShardScan::merge_into(ScannedSnapshot& snap) {
  snap.entries = m_entries.load();
  for (auto& findings : m_findings) {
    for (auto& f : findings) snap.findings.push_back(std::move(f));
  }
  std::uint64_t distinct = 0;
  for (auto& slot : m_slots) {
    if (!slot) continue;
    ++distinct;
    snap.dropped += slot->tally.dropped;
    snap.restored_objects += slot->tally.objects;
    for (auto& [tenant, tally] : slot->tally.tenants) {
      auto it = snap.restored_tenants.find(tenant);
      if (it == snap.restored_tenants.end()) it = snap.restored_tenants.emplace(tenant, TenantTally{}).first;
      it->second.merge(std::move(tally));
    }
  }
  if (!m_restore_model) return;
  match_upserts_in_flight(snap.restored_tenants, snap.metadata.discarded);
  if (m_options.decode_shards && !snap.stopped_early && snap.metadata.shard_entries > distinct) {
    snap.duplicate_shard_blobs = snap.metadata.shard_entries - distinct;
    snap.findings.push_back(
        {model::Severity::error, "metadata",
         std::to_string(snap.duplicate_shard_blobs) + " duplicate shard keys (the last one of each wins)"});
  }
}

}  // namespace moonquota::restore
