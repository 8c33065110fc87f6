// Differential fuzz entry: decode_shard's canonical fast path (DecodePath::canonical_first) against
// the general decoder alone (DecodePath::general_only), which is the reference. The first input
// byte picks how the rest becomes a decompressed shard (byte % 2):
//   0: the rest is the shard, as is
//   1: a shard of up to 8 entries assembled from the rest, near the canonical layout: every
//      integer in any msgpack width (fixint, uint8..64, int8..64, negative), strings as fixstr,
//      str8, str16 or bin8, valid, invalid and zero UUIDs, segments OK, not OK, without allocator
//      and unknown, every replica type, handles present, nil or malformed, element counts of
//      v1..v5 and beyond; then byte edits (set, insert, delete, truncate) at positions the rest
//      picks
// Property: both paths return the same status (code and message), the same findings (every
// field) and deliver the same entries (index, offsets, outcome, reason, flags; for a decoded entry
// the complete ObjectView as to_record copies it, for a skipped one its tenant and key, all that
// ShardEntry promises and visitors read: the two paths leave different stale values in the rest);
// also when the same scratch view decodes the shard a second time. A difference calls std::abort(). Linked by the
// libFuzzer target fuzz_canonical_entry, the corpus replay test and canonical-entry-stress.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace moonquota::fuzz {

// Always returns 0.
int run_canonical_entry(const std::uint8_t* data, std::size_t size);

// The shard mode 1 builds from `data` (for tests and the stress driver).
std::string canonical_entry_shard(const std::uint8_t* data, std::size_t size);

}  // namespace moonquota::fuzz
