// Differential fuzz entry: diff_shard with side B walked over side A's bytes
// (ShardDiffOptions::a_usable_segments_usable_in_b, inspect/shard_diff_reuse.hpp) against diff_shard
// decoding both sides whole, the reference. The input makes two pools of entries (two shards of
// canonical_entry_entry.hpp's mode 1, every entry decode_shard delivers from them: canonical,
// near-canonical, skipped, legacy, NOF, damaged), shard A from the first pool (sorted by (tenant,
// key) or not), and shard B from A by edits the rest of the input picks: entries deleted,
// inserted or replaced from either pool, duplicated, swapped, a byte of one changed; B's array
// header in another msgpack width, an extra map key or a trailing byte. B's segment table is A's or
// another the input picks (one more usable segment, one made usable, one usable segment lost: the
// walk is then not allowed). Both orders (A, B) and (B, A) are compared.
// Property: the same status (code and message) and, when both succeed, the same counts, the same
// changes (every field, in order), the same restore models of both sides (every tally field) and
// the same findings (every field). A difference calls std::abort(). Linked by the libFuzzer target
// fuzz_shard_diff and the unit test shard_diff_reuse_test.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "format/object_decoder.hpp"

namespace moonquota::fuzz {

// Always returns 0.
int run_shard_diff(const std::uint8_t* data, std::size_t size);

// The same comparison; returns how many of the two orders took the walk (for tests: the walk
// must run, not only fall back).
int compare_shard_diff(const std::uint8_t* data, std::size_t size);

// The property on one given pair of decompressed shards and their tables (the walk allowed as
// snapshot_diff.cpp allows it); aborts on a difference, returns whether the walk was taken.
bool walk_matches_whole_decode(const std::string& a, const format::SegmentTable& segments_a, const std::string& b,
                               const format::SegmentTable& segments_b);

}  // namespace moonquota::fuzz
