// oplog-inspect's models over one OpLog key set (oplog-format.md §11.4, §11.5):
//   audit:   every upstream auditor check (prefix decodes, 20-digit batch keys that decode and
//            match their id, legacy/unknown keys, orphans above the prefix, id and sequence gaps,
//            prefix = last walked batch) plus our findings (non-canonical text, jsoncpp leniency,
//            empty tenants, LEASE_RENEW/PUT_REVOKE, undecodable payloads, payload/entry
//            inconsistencies, a multi-entry batch 1, writer start-up blockers). ok = no error and
//            no leniency use. No key under the chosen cluster id while other cluster ids hold
//            keys is an error naming them (a wrong --cluster-id, not an empty OpLog).
//   summary: sequence range, batches, entries per op type and per tenant, payload forms of the
//            decoded entries, the segment registry and the objects after a replay from sequence 1
//            (not validated when the replay fails).
//   dump:    every entry with its decoded payload, filtered.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "format/oplog_batch.hpp"
#include "format/oplog_payloads.hpp"
#include "model/finding.hpp"
#include "restore/promotion_validation.hpp"
#include "source/oplog_source.hpp"

namespace moonquota::inspect {

struct OpLogAudit {
  bool ok = true;
  std::string root;
  std::optional<format::DurablePrefix> prefix;
  std::uint64_t legacy_max_seq = 0;
  std::uint64_t batch_count = 0;  // batch keys that decoded
  std::uint64_t entry_count = 0;
  std::vector<std::uint64_t> orphan_batches;
  std::map<std::string, std::uint64_t> key_classes;  // class name -> keys
  // Set when no key is under the chosen cluster id while other cluster ids hold keys (an error).
  std::vector<std::string> other_clusters;
  model::Findings findings;  // errors, warnings, info
};

[[nodiscard]] OpLogAudit audit_oplog(const source::OpLogKeySet& keys);

struct OpLogSummary {
  std::optional<format::DurablePrefix> prefix;
  std::uint64_t batches = 0;
  std::uint64_t undecodable_batches = 0;
  std::uint64_t first_seq = 0;
  std::uint64_t last_seq = 0;
  std::uint64_t entries = 0;
  std::map<std::string, std::uint64_t> entries_by_op;
  std::map<std::string, std::uint64_t> entries_by_tenant;
  // Payload forms of the decoded entries of every batch that decodes (what dump shows).
  std::uint64_t compact_payloads = 0;
  std::uint64_t literal_payloads = 0;
  // Replay from sequence 1 (no snapshot).
  std::string replay_error;  // empty: the replay reached the prefix
  std::uint64_t replay_applied_seq = 0;
  bool promotion_checked = false;      // false when the replay failed: `state` is then empty
  restore::PromotionValidation state;  // objects, registry, non-COMPLETE replicas after replay
};

// Values are read with source::oplog_value (an export file read without its values is read again
// batch by batch). Errors: those of oplog_value (the file changed while it was being read).
[[nodiscard]] util::Result<OpLogSummary> summarize_oplog(const source::OpLogKeySet& keys);

struct DumpFilter {
  std::optional<std::uint64_t> from_batch;
  std::optional<std::uint64_t> to_batch;
  std::optional<std::string> tenant;
  std::optional<std::string> key_prefix;
};

struct DumpedEntry {
  std::uint64_t batch_id = 0;
  format::OpLogEntry entry;
  std::optional<format::MetadataPayload> put_end;
  std::optional<format::SegmentMountOp> segment;
  std::optional<format::SegmentUnmountOp> unmount;
  std::optional<format::PayloadForm> form;
  std::string payload_error;  // undecodable payload
};

// Calls `sink` for every entry passing the filter, batch by batch in key order. Batches that
// fail to decode are errors (corruption naming the key).
[[nodiscard]] util::Status dump_oplog(const source::OpLogKeySet& keys, const DumpFilter& filter,
                                      const std::function<void(const DumpedEntry&)>& sink);

}  // namespace moonquota::inspect
