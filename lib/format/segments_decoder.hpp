// Decoder of the decompressed `segments` payload (snapshot-format.md §6):
//   {"ma": i32 (=1), "an": [STR], "ms": {STR uuid: MountedSegment}, "cs": {STR uuid: [STR uuid]},
//    "ld": {STR uuid: [bool, count, (STR key, task) x count, capacity?]}}
//   MountedSegment = [id, name, base, size, te_endpoint, status i16, has_allocator, alloc|nil, host_id?]
//   alloc = [name, base, total_size, cur_size, endpoint, [base, mult_bits, capacity, alloc_size,
//            alloc_num, [size, cur_cap, max_cap, free_storage, used_bins_top, [u8 x32], [u32 x256],
//            BIN zstd(cur_cap x 25), BIN zstd(cur_cap x 4), free_offset]]]
// Master rules: the payload must be a map; non-STR keys ignored; duplicate keys: first wins;
// every key optional; any error rejects the candidate (returned as Status::corruption).
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>

#include "model/finding.hpp"
#include "model/snapshot_types.hpp"
#include "util/status.hpp"

namespace moonquota::util {
class ZstdStreamReader;
}  // namespace moonquota::util

namespace moonquota::format {

struct SegmentsDecodeOptions {
  bool keep_allocator_blobs = false;        // keep decompressed node tables (dump)
  std::size_t max_blob_bytes = 1ULL << 31;  // our memory guard for one allocator blob
  // Without keep_allocator_blobs: each allocator's node table in whole 25-byte records, in order,
  // piece by piece as it is decompressed, never whole (verify). `first_node` is the index of the
  // piece's first record; a table of `nodes` records ends with the piece that reaches `nodes` (an
  // empty table: one empty piece). A table whose frame then fails rejects the payload.
  std::function<void(std::string_view records, std::uint64_t first_node, std::uint64_t nodes)> on_node_records;
  // Streaming only: the window grows by at least this much at a time, and drops the bytes
  // already decoded once they are this many (tests make both tiny to reach every boundary).
  std::size_t stream_step_bytes = 256 << 10;
  std::size_t stream_keep_bytes = 1 << 20;
  // Streaming only: an allocator's node table or free-node list whose compressed frame is at least
  // this long passes through the decoder piece by piece instead of entering the window (a segment
  // with a million nodes has frames of several MB).
  std::size_t stream_blob_bytes = 1 << 20;
};

// Decodes `raw` (already decompressed). Findings (non-canonical but accepted) go to `findings`.
[[nodiscard]] util::Result<model::SegmentsPayload> decode_segments(std::string_view raw,
                                                                   const SegmentsDecodeOptions& options,
                                                                   model::Findings& findings);

// The same, pulling the decompressed payload from `stream` (opened) piece by piece: only the value
// being decoded (one "ms" entry with its node tables, or one other top-level value) is held, not
// the payload. The result, findings and errors are those of decoding the whole payload at once,
// except that a failure of the stream stops the decode: when this returns an error, the caller
// asks `stream.finish()` first (it drains the frame and returns the stream's own error, which is
// what a whole-payload decompression would have reported before any decoding).
[[nodiscard]] util::Result<model::SegmentsPayload> decode_segments(util::ZstdStreamReader& stream,
                                                                   const SegmentsDecodeOptions& options,
                                                                   model::Findings& findings);

}  // namespace moonquota::format
