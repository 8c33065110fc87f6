// Allocator consistency for `verify` (snapshot-format.md §5.7, §6.3, §15 item 5): every MEMORY
// replica's offset_handle must point at a used node of its segment's node table whose dataOffset
// equals the handle's offset; the buffer must lie inside the segment; and per segment,
// allocated_num = used nodes, cur_size = allocated_size = the sum of MEMORY buffer sizes
// (objects and discarded replicas), free_storage = size - the used nodes' sizes, and every used
// node is referenced by exactly one replica.
//
// Memory: per node 4 bytes (dataOffset) and 4 bits (used, and the reference count as 0, 1 or
// more); verify compacts each node table as soon as it is decompressed, so the 29-byte-per-node
// blobs are never held together.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "format/object_decoder.hpp"
#include "format/object_view.hpp"
#include "inspect/verify_findings.hpp"
#include "model/snapshot_types.hpp"
#include "util/uuid.hpp"

namespace moonquota::inspect {

// What the checks need of one node table: 4 bytes and 4 bits per node instead of the 29 bytes
// per node of the decompressed node table and free list. `state` holds two nodes per byte (node
// n in the low nibble when n is even): bit 0 = used, bits 1-2 = references counted so far (0, 1,
// 2 = more than one), updated atomically by check_replica.
struct CompactNodeTable {
  std::vector<std::uint32_t> data_offset;
  std::unique_ptr<std::atomic<std::uint8_t>[]> state;
  std::uint64_t used_nodes = 0;
  std::uint64_t used_units = 0;
};
[[nodiscard]] CompactNodeTable compact_node_table(const model::AllocatorCore& core);

class AllocatorIndex {
 public:
  // Takes the node tables out of `segments` (kept by SegmentsDecodeOptions::keep_allocator_blobs).
  explicit AllocatorIndex(model::SegmentsPayload& segments);
  // `tables`: one per mounted segment with an allocator, in order, compacted while decoding
  // (SegmentsDecodeOptions::on_node_tables) so that only one decompressed table is ever held.
  AllocatorIndex(const model::SegmentsPayload& segments, std::vector<CompactNodeTable> tables);
  AllocatorIndex(const AllocatorIndex&) = delete;
  AllocatorIndex& operator=(const AllocatorIndex&) = delete;

  // Checks one decoded MEMORY replica and counts its reference; thread-safe. `object_size` is
  // the owning object's size (nullopt for a discarded replica). Problems go to `out` with
  // `prototype`'s shard/entry/tenant/key.
  void check_replica(const format::ReplicaView& replica, std::optional<std::uint64_t> object_size,
                     const VerifyFinding& prototype, FindingCollector& out);
  // Per-segment totals, after every replica was checked.
  void check_totals(FindingCollector& out) const;

 private:
  struct Segment {
    std::string id;
    std::uint64_t base = 0;
    std::uint64_t size = 0;
    bool has_allocator = false;
    bool ok = true;
    std::uint64_t alloc_base = 0;
    std::uint64_t multiplier_bits = 0;
    std::uint64_t cur_size = 0;
    std::uint64_t allocated_size = 0;
    std::uint64_t allocated_num = 0;
    std::uint32_t size_units = 0;
    std::uint32_t free_storage = 0;
    std::uint64_t used_nodes = 0;
    std::uint64_t used_units = 0;
    CompactNodeTable nodes;
    std::atomic<std::uint64_t> buffer_bytes{0};
  };
  [[nodiscard]] Segment* find(std::string_view segment_id);
  void build(const model::SegmentsPayload& segments, std::vector<CompactNodeTable> tables);

  std::vector<std::unique_ptr<Segment>> m_segments;
  std::unordered_map<std::string, std::size_t, format::StringHash, std::equal_to<>> m_by_key;
  std::unordered_map<util::Uuid, std::size_t, format::UuidHash> m_by_uuid;
};

}  // namespace moonquota::inspect
