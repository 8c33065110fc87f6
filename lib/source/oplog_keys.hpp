// The etcd key layout under R = "/oplog/" + cluster_id + "/" (oplog-format.md §3).
//   R + "durable_prefix"              commit pointer (JSON)
//   R + "batches/" + D20(batch_id)    batch record (JSON); D20 = 20 decimal digits, zero-padded
//   R + "producer_view"               optional fencing token
//   R + "latest", R + D20(seq), R + "snapshot/..."   legacy per-entry layout (writer refuses to start)
//   R + "cleanup/..."                 tolerated silently
// Everything else under R is unknown. cluster_id: trailing '/' stripped, then 1-128 characters of
// [A-Za-z0-9_.-]; otherwise every key builder returns "" (no OpLog keys at all).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace moonquota::source {

// The OpLog root "/oplog/<id>/", or nothing when the cluster id is invalid for OpLog keys.
[[nodiscard]] std::optional<std::string> oplog_root(std::string_view cluster_id);

// "00000000000000000007"
[[nodiscard]] std::string d20(std::uint64_t n);

enum class OpLogKeyClass {
  durable_prefix,
  batch,  // batches/<20 digits>
  producer_view,
  legacy_latest,     // latest
  legacy_entry,      // a 20-digit direct child
  legacy_snapshot,   // snapshot/...
  cleanup,           // cleanup/...
  malformed_batch,   // under batches/ without exactly 20 ASCII digits
  malformed_legacy,  // a 20-character direct child that is not all digits (auditor error)
  unknown,
};

[[nodiscard]] const char* oplog_key_class_name(OpLogKeyClass c);

struct ClassifiedKey {
  OpLogKeyClass kind = OpLogKeyClass::unknown;
  std::uint64_t number = 0;  // the batch id or legacy sequence, when numeric
};

// `suffix` is the key with the root removed.
[[nodiscard]] ClassifiedKey classify_oplog_key(std::string_view suffix);

// Parses exactly 20 ASCII digits (fits u64 or nothing).
[[nodiscard]] std::optional<std::uint64_t> parse_d20(std::string_view text);

}  // namespace moonquota::source
