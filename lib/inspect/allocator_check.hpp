// Allocator consistency for `verify` (snapshot-format.md §5.7, §6.3, §15 item 5): every MEMORY
// replica's offset_handle must point at a used node of its segment's node table whose dataOffset
// equals the handle's offset; the buffer must lie inside the segment; and per segment,
// allocated_num = used nodes, cur_size = allocated_size = the sum of MEMORY buffer sizes
// (objects and discarded replicas), free_storage = size - the used nodes' sizes, and every used
// node is referenced by exactly one replica.
//
// Memory: per node about 1.1 bytes (dataOffset, packed by the allocation order: NodeOffsets;
// nothing after a table's last used node) and 4 bits (used, and the reference count as 0, 1 or
// more); verify compacts each node table piece by piece as it is decompressed, so no 25-byte-per-
// node table is ever held whole (a segment with a million nodes has a 25 MB table).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "format/object_decoder.hpp"
#include "format/object_view.hpp"
#include "inspect/verify_findings.hpp"
#include "model/snapshot_types.hpp"
#include "util/uuid.hpp"

namespace moonquota::inspect {

// The dataOffset of every used node of one node table, exactly, in about 1.1 bytes per node
// when the nodes were allocated in order (the offset allocator takes a fresh node for the rest of
// a split free node, so node n + 1 usually starts where node n ends, and a used node's size is a
// bin size: 3 mantissa bits). Per block of k_block nodes: the first node's offset (4 bytes), then
// per node one code byte: the difference to the previous node's offset as a small float
// (3 mantissa bits, exact values only), or k_exception: the offset is in a sorted side list.
// An unused node's offset is never asked for (only used nodes are compared with a handle): it is
// stored as "no difference" and reads back as an unspecified value. A table where the packed form
// would not be smaller (nodes reused in another order) keeps 4 bytes per node.
class NodeOffsets {
 public:
  static constexpr std::size_t k_block = 32;
  class Builder;
  NodeOffsets() = default;
  // `offset(n)` and `used(n)` for n < nodes.
  template <typename OffsetOf, typename UsedOf>
  static NodeOffsets build(std::size_t nodes, OffsetOf offset, UsedOf used);

  [[nodiscard]] std::size_t size() const { return m_nodes; }
  // The stored dataOffset of node `n` < size(), exact when the node is used.
  [[nodiscard]] std::uint32_t at(std::size_t n) const;
  [[nodiscard]] bool packed() const { return m_plain.empty() && m_nodes > 0; }
  [[nodiscard]] std::size_t memory_bytes() const;

 private:
  static constexpr std::uint8_t k_exception = 255;
  // The code of `delta` when it is a small float exactly, else k_exception.
  static std::uint8_t encode(std::uint32_t delta);
  static std::uint32_t decode(std::uint8_t code);

  std::size_t m_nodes = 0;
  std::vector<std::uint32_t> m_plain;
  std::vector<std::uint32_t> m_block_base;
  std::vector<std::uint8_t> m_codes;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> m_exceptions;  // (node, offset), by node
};

// NodeOffsets from the nodes in order, one at a time (a node table streamed as it is
// decompressed): packed while the packed form stays smaller than 4 bytes per node, plain from
// the node where it would not (the nodes so far are unpacked then).
class NodeOffsets::Builder {
 public:
  explicit Builder(std::size_t nodes);
  void add(std::uint32_t offset, bool used);
  [[nodiscard]] NodeOffsets finish();

 private:
  void go_plain();

  NodeOffsets m_table;
  std::size_t m_added = 0;
  std::size_t m_used_end = 0;  // one past the last used node: codes after it are never read
  std::uint32_t m_current = 0;
  bool m_plain = false;
};

template <typename OffsetOf, typename UsedOf>
NodeOffsets NodeOffsets::build(std::size_t nodes, OffsetOf offset, UsedOf used) {
  Builder builder(nodes);
  for (std::size_t n = 0; n < nodes; ++n) {
    const bool is_used = used(n);
    builder.add(offset(n), is_used);
  }
  return builder.finish();
}

// What the checks need of one node table: about 1.1 bytes and 4 bits per node instead of the
// 25 bytes per node of the decompressed node table. `state` holds two nodes per byte (node
// n in the low nibble when n is even): bit 0 = used, bits 1-2 = references counted so far (0, 1,
// 2 = more than one), updated atomically by check_replica.
struct CompactNodeTable {
  NodeOffsets data_offset;
  std::unique_ptr<std::atomic<std::uint8_t>[]> state;
  std::uint64_t used_nodes = 0;
  std::uint64_t used_units = 0;
};
// A CompactNodeTable from a node table's 25-byte records as they arrive, in order.
class NodeTableCompactor {
 public:
  explicit NodeTableCompactor(std::size_t nodes);
  // Whole records, in order; at most `nodes` in all.
  void add(std::string_view records);
  [[nodiscard]] CompactNodeTable finish();

 private:
  CompactNodeTable m_table;
  NodeOffsets::Builder m_offsets;
  std::size_t m_nodes;
  std::size_t m_added = 0;
};
// The same for a whole decompressed node table.
[[nodiscard]] CompactNodeTable compact_node_table(const model::AllocatorCore& core);

class AllocatorIndex {
 public:
  // Takes the node tables out of `segments` (kept by SegmentsDecodeOptions::keep_allocator_blobs).
  explicit AllocatorIndex(model::SegmentsPayload& segments);
  // `tables`: one per mounted segment with an allocator, in order, compacted while decoding
  // (SegmentsDecodeOptions::on_node_records) so that no decompressed table is ever held whole.
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
