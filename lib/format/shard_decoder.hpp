// Decoder of one decompressed metadata shard (snapshot-format.md §5.3):
//   {"metadata": [entry...]}   entry = [tenant STR, key STR, ObjectMetadata] | [key STR, ObjectMetadata]
// Entries are delivered to a visitor in file order, decoded or skipped; a rejection (what the
// master throws on) stops the walk and is returned as Status::corruption naming the entry index
// and the byte offset inside the decompressed shard. Trailing bytes after the map are ignored,
// as msgpack-c does (reported as a finding).
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

#include "format/object_decoder.hpp"
#include "model/finding.hpp"
#include "util/status.hpp"

namespace moonquota::format {

// a == b for the short strings of a shard (ids, tenants, keys): 8-byte loads inline (the last one
// overlapping) instead of a memcmp call, which dominated the per-object cost.
[[nodiscard]] inline bool same_bytes(std::string_view a, std::string_view b) {
  const std::size_t n = a.size();
  if (n != b.size()) return false;
  if (a.data() == b.data()) return true;
  if (n < 8) return std::memcmp(a.data(), b.data(), n) == 0;
  auto load = [](const char* p) {
    std::uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
  };
  for (std::size_t i = 0; i + 8 < n; i += 8) {
    if (load(a.data() + i) != load(b.data() + i)) return false;
  }
  return load(a.data() + n - 8) == load(b.data() + n - 8);
}

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

// The canonical fast path on its own (for tests): decodes the entry starting at byte `pos` of a
// decompressed shard into `out` and sets `end` after it when the entry has the canonical layout
// and decodes without any finding; false otherwise (`out` may then be partly written: the entry
// is decoded again by the general decoder, whose skips leave other stale values than this would).
[[nodiscard]] bool decode_canonical_entry(std::string_view raw, std::size_t pos, const SegmentTable& segments,
                                          ObjectView& out, std::size_t& end);

// `scratch` is reused between calls to avoid allocations. Findings, each with its shard and, when
// about one entry, the entry index: skipped objects, legacy 2-element entries, NOF replicas and
// ObjectMetadata layouts before v4 (entry), ambiguous skips (entry), extra map keys and trailing
// bytes (shard only).
[[nodiscard]] util::Status decode_shard(std::string_view raw, std::uint32_t shard_index, const SegmentTable& segments,
                                        ObjectView& scratch, ShardVisitor& visitor, model::Findings& findings,
                                        DecodePath path = DecodePath::canonical_first);

}  // namespace moonquota::format
