// One side of a shard comparison as diff_shard collects it (internal to lib/inspect): the
// entries in file order, as views into the decompressed shard, with that side's restore model.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "format/shard_decoder.hpp"
#include "inspect/shard_diff.hpp"
#include "restore/shard_tally.hpp"

namespace moonquota::inspect::detail {

// One entry: views into the decompressed shard and a range of the side's replicas, so that an
// unchanged object (nearly all of them) costs no allocation; a change is copied into
// ShardChanges only. The lease, put time and byte range let side B take this entry for its own
// when its bytes are the same (shard_diff_reuse.hpp).
struct Entry {
  std::string_view tenant;
  std::string_view key;
  bool decoded = true;
  bool clean = false;  // the decoder reported no finding about it
  std::uint64_t size = 0;
  std::uint64_t lease_timeout_ms = 0;
  std::uint64_t put_start_time_ms = 0;
  std::size_t offset = 0;  // its bytes in the decompressed shard: [offset, end)
  std::size_t end = 0;
  std::size_t first_replica = 0;
  std::size_t replicas = 0;
  std::size_t skip_reason = 0;  // index into SideCollector's reasons (skipped entries)
};

// Collects one side's entries and feeds the restore model. Reused between shards (reset()).
class SideCollector final : public format::ShardVisitor {
 public:
  // `findings`: the decoder's findings of this shard so far (Entry::clean compares its size
  // before and after each entry: decode_shard adds an entry's findings just before its visit).
  void reset(const model::Findings* findings) {
    entries.clear();
    replicas.clear();
    m_reasons_used = 0;
    m_tally.reset();
    m_findings = findings;
    m_findings_seen = 0;
  }
  void on_entry(const format::ShardEntry& e) override {
    m_tally.on_entry(e);
    Entry entry;
    entry.tenant = e.object->tenant_id;
    entry.key = e.object->key;
    entry.offset = e.offset;
    entry.end = e.end_offset;
    if (m_findings != nullptr) {
      entry.clean = m_findings->size() == m_findings_seen;
      m_findings_seen = m_findings->size();
    }
    entry.decoded = e.result->outcome == format::DecodeOutcome::decoded;
    entry.first_replica = replicas.size();
    if (!entry.decoded) {
      entry.skip_reason = m_reasons_used;
      if (m_reasons_used == m_reasons.size()) m_reasons.emplace_back();
      m_reasons[m_reasons_used++] = e.result->reason;
    } else {
      entry.size = e.object->size;
      entry.lease_timeout_ms = e.object->lease_timeout_ms;
      entry.put_start_time_ms = e.object->put_start_time_ms;
      for (const auto& r : e.object->replicas) {
        const bool memory = r.type == model::replica_type::memory;
        replicas.push_back({r.id, r.type, r.status,
                            memory                                      ? r.segment_id
                            : r.type == model::replica_type::local_disk ? r.client_id
                                                                        : r.file_path,
                            memory ? r.mem_size : r.object_size});
      }
      entry.replicas = replicas.size() - entry.first_replica;
    }
    entries.push_back(entry);
  }
  // Collects entry `k` of `a` (decoded, from another shard's bytes) as this side's entry at
  // [offset, offset + its length): what on_entry collects from a decode equal to that entry's
  // (side B taking side A's entry whose bytes it repeats, shard_diff_reuse.hpp).
  void take(const SideCollector& a, std::size_t k, std::size_t offset) {
    const Entry& from = a.entries[k];
    m_tally.append(a.m_tally.entry(k));
    Entry& entry = entries.emplace_back(from);
    entry.offset = offset;
    entry.end = offset + (from.end - from.offset);
    entry.clean = false;
    entry.first_replica = replicas.size();
    replicas.insert(replicas.end(), a.replicas.begin() + static_cast<std::ptrdiff_t>(from.first_replica),
                    a.replicas.begin() + static_cast<std::ptrdiff_t>(from.first_replica + from.replicas));
  }
  // Whether the entries arrived in (tenant, key) order (until the restore model is finished).
  [[nodiscard]] bool sorted() const { return m_tally.sorted(); }
  [[nodiscard]] SideRef side(const Entry& e) const {
    SideRef out;
    out.decoded = e.decoded;
    if (!e.decoded) {
      out.skip_reason = m_reasons[e.skip_reason];
      return out;
    }
    out.size = e.size;
    out.replicas = replicas.data() + e.first_replica;
    out.replica_count = e.replicas;
    return out;
  }
  std::vector<Entry> entries;
  std::vector<ReplicaRef> replicas;
  restore::ShardTallyBuilder& tally() { return m_tally; }

 private:
  std::vector<std::string> m_reasons;  // the first m_reasons_used are this shard's
  std::size_t m_reasons_used = 0;
  restore::ShardTallyBuilder m_tally;
  const model::Findings* m_findings = nullptr;
  std::size_t m_findings_seen = 0;
};

}  // namespace moonquota::inspect::detail
