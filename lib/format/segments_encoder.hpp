// Encoder for the `segments` payload (snapshot-format.md §6, checklist §15), byte-identical to
// Mooncake's SegmentSerializer:
//   segments := map5 { "ma": 1, "an": [name STR...], "ms": { uuid STR -> MountedSegment },
//                      "cs": { client uuid STR -> [segment uuid STR...] }, "ld": { ... } }
//   MountedSegment := [id, name, base, size, te_endpoint, status, has_allocator,
//                      OffsetBufferAllocator | nil, host_id]
//   OffsetBufferAllocator := [segment_name, base, total_size, cur_size, endpoint, OffsetAllocator]
//   OffsetAllocator := [base, multiplier_bits, capacity, allocated_size, allocated_num, __Allocator]
//   __Allocator := [size, current_capacity, max_capacity, free_storage, used_bins_top,
//                   used_bins[32], bin_indices[256], BIN zstd(nodes), BIN zstd(free_nodes), free_offset]
//   ld value := [enable_offloading, count, (encoded_key, [tenant, key, size]) x count, capacity]
// "ms", "cs" and "ld" are sorted by UUID as a numeric pair (first, then second); "ld" tasks by
// encoded key bytewise; "an" is written in the given order. Every UUID key must parse.
#pragma once

#include <string>
#include <vector>

#include "format/msgpack_writer.hpp"
#include "model/snapshot_types.hpp"
#include "util/status.hpp"
#include "util/uuid.hpp"

namespace moonquota::format {

// Packs one MountedSegment value (9 elements; host_id "" when absent); allocator blobs are
// compressed here.
[[nodiscard]] util::Status encode_mounted_segment(MsgpackWriter& writer, const model::MountedSegment& segment);

// A MountedSegment already packed, for writers that cannot keep every allocator in memory.
struct EncodedSegment {
  std::string map_key;      // the "ms" key (a UUID string)
  std::string value_bytes;  // encode_mounted_segment() output
};

// Assembles the raw payload from pre-encoded segments. Sorting is done here.
[[nodiscard]] util::Result<std::string> assemble_segments_raw(
    const std::vector<std::string>& allocator_names, std::vector<EncodedSegment> segments,
    std::vector<std::pair<std::string, std::vector<std::string>>> client_segments,
    std::vector<model::LocalDiskClient> local_disk);

// The decompressed `segments` payload. "ma" is payload.allocator_type or 1.
[[nodiscard]] util::Result<std::string> encode_segments_raw(const model::SegmentsPayload& payload);

// The `segments` file bytes: one zstd level-3 frame of encode_segments_raw().
[[nodiscard]] util::Result<std::string> encode_segments(const model::SegmentsPayload& payload);

// Parses a UUID key for sorting; fails with a message naming `what`.
[[nodiscard]] util::Result<util::Uuid> uuid_sort_key(const std::string& text, const std::string& what);

}  // namespace moonquota::format
