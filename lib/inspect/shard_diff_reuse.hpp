// Side B of a shard without decoding what side A already decoded (diff_shard's fast path).
//
// Why equal bytes may take A's result: an entry is one msgpack value, [offset, end_offset) of the
// decompressed shard, and a msgpack value is self-delimiting, so B's bytes at position p equal to
// A's entry bytes make B's entry at p exactly that value. decode_shard decodes an entry from its
// bytes and the segment table only (the canonical reader reads [offset, end) and looks segment
// ids up in the table; the general decoder reads the same value; the ObjectView and
// CanonicalEntryDecoder caches hold results of the same lookups), so when the caller has shown
// that both tables answer every lookup alike (snapshot_diff.cpp: the same segments in the same
// order with the same key, status and allocator flag), B's entry decodes to A's values, with A's
// findings. Only entries A decoded without any finding are taken (a finding would name A's
// entry index); every other entry of B is decoded alone, in a one-entry shard, by decode_shard,
// and one with a finding or an error ends the walk (the caller then decodes the whole of side B
// as before, which gives the findings their indexes and errors their offsets). What the walk
// hands the collector for a taken entry is a view with every field SideCollector and
// ShardTallyBuilder read (tenant, key, size, lease, put time, and per replica id, type, status,
// location and size), equal to what decoding B would have given.
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
  format::ObjectView taken;       // the view handed to the collector for a taken entry
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
