// Segment chains of `--large` stores: each client owns a chain of equally sized segments; MEMORY
// replicas are allocated on the client's open segment, and a segment that is full (no room, or
// no node slot left without growing the node table) is closed: its MountedSegment is encoded
// and spilled to a temporary file, so memory holds one open allocator per client only. At the
// end the `segments` payload is streamed from the spill file into one zstd frame.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "forge/large_store_mix.hpp"
#include "forge/offset_allocator.hpp"
#include "util/status.hpp"
#include "util/uuid.hpp"

namespace moonquota::forge::large {

// The size of every segment and whether its node table may grow (or the segment is closed when
// the initial capacity is used up).
struct SegmentShape {
  std::uint64_t bytes = 0;
  bool grow_node_tables = false;
};
// The shape of LargeStoreOptions::segment_bytes (0: the default size, tables never grow).
[[nodiscard]] SegmentShape segment_shape(std::uint64_t segment_bytes);

class SegmentChains {
 public:
  // `spill_path` is created (and removed by the destructor). A chain's segments must fit in its
  // client's address range (16 TiB): place() fails when they would not.
  SegmentChains(const ObjectMix& mix, std::uint64_t seed, SegmentShape shape, std::string spill_path);
  ~SegmentChains();
  SegmentChains(const SegmentChains&) = delete;
  SegmentChains& operator=(const SegmentChains&) = delete;

  // Allocates `bytes` on `client`'s chain.
  [[nodiscard]] util::Result<PlannedObject::Placement> place(std::uint32_t client, std::uint64_t bytes);
  [[nodiscard]] const std::string& segment_uuid(std::uint32_t ordinal) const { return m_segments[ordinal].uuid; }
  [[nodiscard]] std::uint64_t segment_count() const { return m_segments.size(); }

  // Closes every open segment and writes the whole `segments` file to `path`. Returns its size.
  [[nodiscard]] util::Result<std::uint64_t> write_segments_payload(const std::string& path);

 private:
  struct SegmentInfo {
    std::string uuid;
    util::Uuid sort_key;
    std::string name;
    std::string endpoint;  // te_endpoint: one per segment
    std::uint32_t client = 0;
    std::uint64_t spill_offset = 0;
    std::uint64_t spill_length = 0;
  };
  struct Chain {
    std::optional<forge::OffsetAllocatorSimulation> allocator;
    std::uint64_t base = 0;
    std::uint32_t ordinal = 0;
    std::uint32_t sequence = 0;
  };

  [[nodiscard]] util::Status open_segment(std::uint32_t client);
  [[nodiscard]] util::Status close_segment(std::uint32_t client);
  [[nodiscard]] util::Status spill(const std::string& bytes, SegmentInfo& info);

  const ObjectMix& m_mix;
  std::uint64_t m_uuid_first;
  std::uint64_t m_segment_bytes;
  bool m_grow_node_tables;
  std::string m_spill_path;
  int m_spill_fd = -1;
  std::uint64_t m_spill_size = 0;
  std::vector<Chain> m_chains;
  std::vector<SegmentInfo> m_segments;
};

}  // namespace moonquota::forge::large
