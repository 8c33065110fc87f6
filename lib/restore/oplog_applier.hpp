// ApplyOpLogEntry (oplog-format.md §13.2), exactly:
//   key > 4096 bytes or payload > 10 MiB        -> false
//   seq <  expected                             -> true, nothing changes (already applied)
//   seq >  expected                             -> false (a gap)
//   PUT_END, empty payload                      -> store the empty record (placeholder)
//   PUT_END, payload decodes                    -> replace the record verbatim (statuses kept)
//   PUT_END, payload undecodable                -> store the empty record, reported
//   PUT_REVOKE, REMOVE                          -> erase (a missing key is fine)
//   SEGMENT_MOUNT / SEGMENT_UPDATE              -> registry[payload endpoint] = payload; undecodable: no-op
//   SEGMENT_UNMOUNT                             -> erase registry[payload endpoint]; undecodable: no-op
//   LEASE_RENEW, anything else                  -> false without advancing
// On success expected = seq + 1. The applier never prints; what it noticed is counted and kept
// as bounded findings.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "format/oplog_batch.hpp"
#include "model/finding.hpp"
#include "restore/replay_target.hpp"

namespace moonquota::restore {

struct ApplyCounters {
  std::array<std::uint64_t, 8> applied_by_op{};  // index = op type (1-7)
  std::uint64_t skipped_already_applied = 0;
  std::uint64_t empty_placeholders = 0;        // PUT_END with an empty payload
  std::uint64_t undecodable_placeholders = 0;  // PUT_END whose payload failed to decode
  std::uint64_t segment_noops = 0;             // segment ops whose payload failed to decode
  std::uint64_t compact_payloads = 0;
  std::uint64_t literal_payloads = 0;
  std::uint64_t payloads_with_trailing_bytes = 0;
};

enum class ApplyOutcome { applied, skipped, refused };

class OpLogApplier {
 public:
  // `last_included_seq`: the snapshot baseline (Recover(n) -> expected = n + 1).
  OpLogApplier(ReplayTarget& store, std::uint64_t last_included_seq)
      : m_store(store), m_expected(last_included_seq + 1) {}

  // `refusal` receives why the applier returned false.
  // The target copies the tenant, key and payload fields it keeps: the views need only live for
  // the call.
  [[nodiscard]] ApplyOutcome apply(const format::OpLogEntryView& entry, std::string& refusal);
  [[nodiscard]] ApplyOutcome apply(const format::OpLogEntry& entry, std::string& refusal) {
    return apply(format::view_of(entry), refusal);
  }

  // Cache hints for `entry` (a PUT_END, PUT_REVOKE or REMOVE: the object map), given a few entries
  // before it is applied; see StandbyStore::prefetch_slot. They change nothing.
  [[nodiscard]] ReplayTarget::Probe prefetch_slot(const format::OpLogEntryView& entry) const;
  void prefetch_entry(ReplayTarget::Probe probe) const { m_store.prefetch_entry(probe); }

  [[nodiscard]] std::uint64_t expected() const { return m_expected; }
  [[nodiscard]] const ApplyCounters& counters() const { return m_counters; }
  [[nodiscard]] model::Findings& findings() { return m_findings; }

 private:
  void note(model::Severity severity, const format::OpLogEntryView& entry, std::string message);
  void apply_put_end(const format::OpLogEntryView& entry);
  void apply_segment(const format::OpLogEntryView& entry);

  ReplayTarget& m_store;
  format::MetadataPayload m_payload;  // the compact fast path's scratch, reused entry after entry
  std::uint64_t m_expected;
  ApplyCounters m_counters;
  model::Findings m_findings;
  std::uint64_t m_dropped_findings = 0;
};

}  // namespace moonquota::restore
