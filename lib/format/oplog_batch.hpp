// The OpLog batch record and durable prefix (oplog-format.md §5, §6, §7), decoded exactly as
// Mooncake's DecodeOpLogBatchRecord / DecodeDurablePrefix do (jsoncpp 1.9.5 default reader,
// canonical re-serialization with StreamWriterBuilder{indentation=""}, XXH32 seed 0).
//
//   durable_prefix = {"batch_id":u64,"last_seq":u64,"schema_version":1}   (unknown members ignored)
//   batch record   = [schema_version:u32 (=1), batch_id:u64, first_seq:u64, last_seq:u64,
//                     [entry...], checksum:u32]
//   entry          = [op_type:u32, tenant_id:string, object_key:string, payload_base64:string]
//   checksum       = XXH32(canonical_json([e0, e1, e2, e3, e4]), 0)
//
// Rejection rules 1-12 of §6.6 are errors (Status::corruption) whose message starts with
// "rule N:" and names the batch key and, for entry rules, the entry index and its sequence.
// Rule 13 (key id = record id) belongs to the reader. Accepted but non-canonical input
// (jsoncpp leniency, integral reals, non-ASCII bytes, non-canonical text, empty tenants) becomes
// findings.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/enums.hpp"
#include "model/finding.hpp"
#include "util/status.hpp"

namespace moonquota::format {

inline constexpr std::size_t k_max_oplog_key_bytes = 4096;
inline constexpr std::size_t k_max_oplog_payload_bytes = 10485760;

// The rule id of the finding "accepted only through jsoncpp leniency" (model::Finding::rule).
inline constexpr const char* k_rule_jsoncpp_leniency = "jsoncpp-leniency";

// OpType values and names: one table, in model/enums.hpp.
namespace op_type = model::oplog_op_type;

struct OpLogEntry {
  std::uint64_t sequence = 0;  // first_seq + index (not on the wire)
  std::uint32_t op_type = 0;
  std::string tenant_id;  // normalised: "" became "default"
  std::string key;        // the user key
  std::string payload;    // decoded bytes
};

// What a batch record says of itself beside its entries.
struct BatchHeader {
  std::uint64_t batch_id = 0;
  std::uint64_t first_seq = 0;
  std::uint64_t last_seq = 0;
  std::uint32_t checksum = 0;
};

struct BatchRecord : BatchHeader {
  std::vector<OpLogEntry> entries;
};

// An entry as views: into the record text (tenant, key), into BatchView::payloads (the decoded
// payload), or into BatchView::fallback (a record that is not the writer's own text).
struct OpLogEntryView {
  std::uint64_t sequence = 0;
  std::uint32_t op_type = 0;
  std::string_view tenant_id;  // normalised: "" became "default"
  std::string_view key;
  std::string_view payload;
};

[[nodiscard]] inline OpLogEntryView view_of(const OpLogEntry& e) {
  return {e.sequence, e.op_type, e.tenant_id, e.key, e.payload};
}

// A decoded batch whose entries are views. They stay valid while the text given to
// decode_batch_view lives and this BatchView is neither destroyed nor reused; a caller that keeps
// a tenant, key or payload copies it.
struct BatchView : BatchHeader {
  std::vector<OpLogEntryView> entries;
  std::string payloads;  // every decoded payload of the batch, one after the other
  BatchRecord fallback;  // the jsoncpp path's result, when that path decoded the record
};

struct DurablePrefix {
  std::uint64_t batch_id = 0;
  std::uint64_t last_seq = 0;
  bool operator==(const DurablePrefix&) const = default;
};

// Errors: corruption ("durable_prefix: ..."). Findings: non-canonical text, leniency used.
[[nodiscard]] util::Result<DurablePrefix> decode_durable_prefix(std::string_view text, model::Findings& findings);
[[nodiscard]] std::string encode_durable_prefix(const DurablePrefix& prefix);

// `key` names the record in messages and findings. `findings` receives what was accepted but
// is not what the writer produces.
[[nodiscard]] util::Result<BatchRecord> decode_batch_record(std::string_view text, const std::string& key,
                                                            model::Findings& findings);

// decode_batch_record with the entries as views (same errors, same findings); `out` is reused.
[[nodiscard]] util::Status decode_batch_view(std::string_view text, const std::string& key, model::Findings& findings,
                                             BatchView& out);

// What the writer would store for these entries (canonical text; `sequence` fields are ignored,
// sequences run from first_seq). Tenants are written as given.
[[nodiscard]] std::string encode_batch_record(std::uint64_t batch_id, std::uint64_t first_seq,
                                              const std::vector<OpLogEntry>& entries);

// The checksum input of a canonical record text and XXH32 over bytes (exposed for tests and tools).
[[nodiscard]] std::uint32_t xxh32(std::string_view bytes);

}  // namespace moonquota::format
