// Decoder of one decompressed metadata shard (snapshot-format.md §5.3):
//   {"metadata": [entry...]}   entry = [tenant STR, key STR, ObjectMetadata] | [key STR, ObjectMetadata]
// Entries are delivered to a visitor in file order, decoded or skipped; a rejection (what the
// master throws on) stops the walk and is returned as Status::corruption naming the entry index
// and the byte offset inside the decompressed shard. Trailing bytes after the map are ignored,
// as msgpack-c does (reported as a finding).
#pragma once

#include <cstdint>
#include <string_view>

#include "format/canonical_entry.hpp"
#include "format/object_decoder.hpp"
#include "model/finding.hpp"
#include "util/status.hpp"

namespace moonquota::format {

struct ShardEntry {
  std::uint32_t shard_index = 0;
  std::uint64_t entry_index = 0;
  std::size_t offset = 0;      // of the entry, inside the decompressed shard
  std::size_t end_offset = 0;  // just after the entry: its bytes are [offset, end_offset)
  const ObjectDecodeResult* result = nullptr;
  const ObjectView* object = nullptr;  // tenant_id and key are always set; the rest only when decoded
};

class ShardVisitor {
 public:
  virtual ~ShardVisitor() = default;
  virtual void on_entry(const ShardEntry& entry) = 0;
};

// Rule ids of the findings below that name one (model::Finding::rule).
inline constexpr const char* k_rule_skipped_object = "skipped-object";
inline constexpr const char* k_rule_legacy_entry = "legacy-entry";
inline constexpr const char* k_rule_nof_replica = "nof-replica";

// How decode_shard reads entries: canonical_first tries a fast reader of the canonical layout
// (what writers produce) on each entry and falls back to the general decoder on anything else,
// with the same results, findings and errors; general_only is the reference it is tested against.
enum class DecodePath { canonical_first, general_only };

// `scratch` is reused between calls to avoid allocations. Findings, each with its shard and, when
// about one entry, the entry index: skipped objects, legacy 2-element entries, NOF replicas and
// ObjectMetadata layouts before v4 (entry), ambiguous skips (entry), extra map keys and trailing
// bytes (shard only).
// With `speculation` (canonical_first only), MEMORY segments are not looked up in `segments` but
// taken as usable and remembered (SegmentSpeculation); at the first entry that is not read by the
// canonical path the walk stops with speculation->needs_table set and an OK status: the shard
// must then be decoded again with the real table (the visitor has seen part of it).
[[nodiscard]] util::Status decode_shard(std::string_view raw, std::uint32_t shard_index, const SegmentTable& segments,
                                        ObjectView& scratch, ShardVisitor& visitor, model::Findings& findings,
                                        DecodePath path = DecodePath::canonical_first,
                                        SegmentSpeculation* speculation = nullptr);

}  // namespace moonquota::format
