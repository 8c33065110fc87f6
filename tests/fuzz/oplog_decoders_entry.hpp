// One fuzz entry for the OpLog decoders. The first input byte picks the decoder (byte % 4), the
// rest is the input:
//   0: decode_batch_record   1: decode_durable_prefix   2: decode_metadata_payload (PUT_END)
//   3: decode_segment_mount, or decode_segment_unmount when byte & 0x80
// Invariants: a rejection carries a message; whatever decodes re-encodes canonically and decodes
// again to the same value; a PUT_END that decode_compact_metadata_payload accepts decodes to the
// same value and shape with decode_metadata_payload. Linked by the libFuzzer target and by the corpus replay test.
#pragma once

#include <cstddef>
#include <cstdint>

namespace moonquota::fuzz {

// A broken invariant calls std::abort(). Always returns 0.
int run_oplog_decoders(const std::uint8_t* data, std::size_t size);

}  // namespace moonquota::fuzz
