// The canonical fast path of the shard decoder (snapshot-format.md §5.3-§5.6 in the layout every
// writer we know produces: our forge and the master's serializer). It reads one entry
//   [tenant fixstr|str8, key fixstr|str8|str16,
//    fixarray(10+N | 11+N)[client_id str, put_start uint, size uint, lease uint, bool, uint, N uint,
//                          data_type uint8, Replica x N, hard_pinned bool, group_id str, checksum uint?]]
//   Replica = fixarray 4 [id uint, status fixint, type fixint,
//                         MEMORY fixarray 5 [uint, uint, segment str, true, [uint, uint, [uint32, uint32]]] | [..,
//                         false, nil] DISK fixarray 2 [path str, uint] | LOCAL_DISK fixarray 3 [client str, uint,
//                         endpoint str]]
// straight from the bytes and fills the ObjectView exactly as the general decoder would, field for
// field (fields the general decoder leaves alone stay alone). It succeeds only for an entry that
// the general decoder decodes without any finding (a valid client UUID, timestamps in range, every
// MEMORY segment in the table, OK and with an allocator); on anything else it returns false and
// the entry is decoded again from its first byte by the general decoder (decode_shard), which
// produces the same skip, finding or error it always did. Equivalence:
// tests/unit/format/canonical_entry_test.cpp and fuzz_canonical_entry (tests/fuzz/README.md).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <unordered_set>

#include "format/object_decoder.hpp"

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

// Whether a MEMORY replica on segment `text` decodes under `segments`: a valid, non-zero UUID (the
// table's own key text, or parsed) of an OK segment with an allocator. The one rule behind the
// canonical reader's check and SegmentSpeculation's verdict.
[[nodiscard]] bool segment_usable(const SegmentTable& segments, std::string_view text);

// Decoding shards before the segment table is known (the restore reads the segments payload and
// the metadata shards at the same time): the canonical reader takes every MEMORY segment as
// usable and remembers each segment id it did so for. Such a decode equals the decode under the
// real table exactly when every remembered id is usable there (segment_usable); the segment table
// is the only input of the canonical reader that the speculation replaces. An entry that leaves
// the canonical path needs the real table (the general decoder's skips depend on it):
// decode_shard then stops and sets needs_table.
class SegmentSpeculation {
 public:
  void remember(std::string_view segment_id) {
    if (m_ids.find(segment_id) == m_ids.end()) m_ids.emplace(segment_id);
  }
  // Whether every remembered id is usable under `segments`.
  [[nodiscard]] bool holds_under(const SegmentTable& segments) const;
  [[nodiscard]] std::size_t remembered() const { return m_ids.size(); }
  bool needs_table = false;

 private:
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::unordered_set<std::string, Hash, std::equal_to<>> m_ids;
};

// One decoder per decompressed shard: it remembers, as views into that shard, the segment ids and
// client ids it has already checked.
class CanonicalEntryDecoder {
 public:
  explicit CanonicalEntryDecoder(const SegmentTable& segments, SegmentSpeculation* speculation = nullptr)
      : m_segments(segments), m_speculation(speculation) {}

  // Decodes the entry at `pos` of `raw` into `out`; on success sets `end` to the position after it.
  // false: not the canonical layout, or an entry the general decoder would not decode without a
  // finding (`out` may then be partly written: the entry is decoded again by the general
  // decoder, whose skips leave other stale values than this would; ShardEntry promises only
  // tenant and key for a skipped entry).
  bool decode(std::string_view raw, std::size_t pos, ObjectView& out, std::size_t& end);

 private:
  struct SegmentSlot {
    std::string_view key;
    bool usable = false;
  };

  // The readers of one msgpack value each (defined, and only called, in canonical_entry.cpp).
  [[gnu::always_inline]] inline bool str(std::string_view& out);
  [[gnu::always_inline]] inline bool uint(std::uint64_t& out);
  [[gnu::always_inline]] inline bool uint32(std::uint32_t& out);
  [[gnu::always_inline]] inline bool boolean();
  [[gnu::always_inline]] inline bool boolean(bool& out);
  [[gnu::always_inline]] inline bool small(std::uint8_t& out);  // a positive fixint
  [[gnu::always_inline]] inline bool header(unsigned char expected);
  bool valid_client(std::string_view text);
  bool usable_segment(std::string_view text);
  bool replica(ReplicaView& r);

  const SegmentTable& m_segments;
  SegmentSpeculation* m_speculation;  // set: `m_segments` is not consulted (see SegmentSpeculation)
  const unsigned char* m_p = nullptr;
  const unsigned char* m_end = nullptr;
  // Segment ids seen in this shard (views into it) and whether a replica on them decodes, and
  // client ids seen in it that parse as UUIDs: direct-mapped by a hash of their bytes.
  std::array<SegmentSlot, 32> m_recent{};
  std::array<bool, 32> m_segment_set{};
  std::array<std::string_view, 32> m_clients{};
  std::array<bool, 32> m_client_set{};
};

// The canonical fast path on its own (for tests): a fresh decoder's decode().
[[nodiscard]] bool decode_canonical_entry(std::string_view raw, std::size_t pos, const SegmentTable& segments,
                                          ObjectView& out, std::size_t& end);

}  // namespace moonquota::format
