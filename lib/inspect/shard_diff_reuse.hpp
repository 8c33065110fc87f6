// Side B of a shard without decoding what side A already decoded (diff_shard's fast path).
//
// Why equal bytes may take A's result: an entry is one msgpack value, [offset, end_offset) of the
// decompressed shard, and a msgpack value is self-delimiting, so B's bytes at position p equal to
// A's entry bytes make B's entry at p exactly that value. decode_shard decodes an entry from its
// bytes and the segment table only (the canonical reader reads [offset, end) and looks segment
// ids up in the table; the general decoder reads the same value; the ObjectView and
// CanonicalEntryDecoder caches hold results of the same lookups). The table enters an object's
// decode only through its MEMORY replicas' segments: each resolves to one UUID, and a replica on
// a segment that is not usable (absent, not OK, no allocator) skips the whole object. So an object
// A decoded has every MEMORY replica on a segment usable under A's table, and when the caller has
// shown that every such segment is usable under B's table too
// (format::SegmentTable::usable_segments_usable_in: B may have more segments, or more usable
// ones, as after a mount between the snapshots), B's entry decodes to A's values, with A's
// findings. Only entries A decoded, without any finding, are taken (a finding would name A's
// entry index; an object A skipped may decode under B); every other entry of B is decoded alone,
// in a one-entry shard, by decode_shard, and one with a finding or an error ends the walk (the
// caller then decodes the whole of side B as before, which gives the findings their indexes and
// errors their offsets). A taken entry is collected as a copy of what A's collector and restore
// model kept of it (SideCollector::take: the entry, its replicas, its tally entry) at B's byte
// range: what they would have kept of B's decode, which equals A's.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>

#include "format/object_decoder.hpp"
#include "inspect/shard_diff_side.hpp"

namespace moonquota::inspect::detail {

// The walk's buffers, reused between shards on one thread.
struct ReuseScratch {
  std::deque<std::string> alone;  // one-entry shards of B's differing entries (B's views point into them)
  std::size_t alone_used = 0;
};

// Collects side B (`raw_b`, shard `shard`) into `b` (already reset), taking the entries of `a`
// (collected from `raw_a` in file order, sorted by (tenant, key)) whose bytes B repeats. false:
// the walk does not vouch for `b` (a shard map other than {"metadata": [...]}, trailing bytes, an
// entry with a finding or an error): the caller resets `b` and decodes side B with decode_shard.
[[nodiscard]] bool collect_reusing(std::uint32_t shard, std::string_view raw_a, const SideCollector& a,
                                   std::string_view raw_b, const format::SegmentTable& segments_b,
                                   format::ObjectView& view_b, SideCollector& b, ReuseScratch& scratch);

}  // namespace moonquota::inspect::detail
