// One fuzz entry for the three in-memory snapshot payload decoders. The first input byte picks
// the decoder (byte % 3), the rest is the decompressed payload:
//   0: decode_segments      (byte & 0x80 also keeps the allocator blobs, with a 1 MiB guard;
//                            also streamed from its zstd frame through a window of
//                            1 + ((byte >> 1) & 63) bytes: the outcome must be the same)
//   1: decode_shard         (shard index = byte >> 2; a fixed segment table: 3-4 OK with an
//                            allocator, 5-6 DRAINING, 7-8 OK without an allocator)
//   2: decode_task_manager
// and then the same bytes through the fingerprint's walker of that payload (inspect::add_*_shape).
// Linked by the libFuzzer target (tests/fuzz/fuzz_snapshot_decoders.cpp) and by the corpus
// replay test, so every corpus file is an ordinary regression test.
#pragma once

#include <cstddef>
#include <cstdint>

namespace moonquota::fuzz {

// Runs the selected decoder and checks the result's invariants (a rejection carries a message,
// decoded objects convert to records, counts agree). A broken invariant calls std::abort().
// Always returns 0 (libFuzzer's convention).
int run_snapshot_decoders(const std::uint8_t* data, std::size_t size);

}  // namespace moonquota::fuzz
