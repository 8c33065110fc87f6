// A simulation of Mooncake's OffsetAllocator (snapshot-format.md §6.3, §14.6), used by writers to
// synthesise an allocator state that a master would have produced for the same sequence of
// allocations and frees. It is Sebastian Aaltonen's two-level bin allocator with Mooncake's
// changes as the spec documents them:
//   - bins are "small floats" with 3 mantissa bits: bin = exponent * 8 + mantissa; top bin =
//     bin >> 3, leaf bit = bin & 7; a request maps to its round-up bin, a free node is filed
//     under its round-down bin;
//   - an allocated node's size is rounded UP to the size of the request's bin;
//   - the free-node stack counts up: pop = free_nodes[free_offset++], push =
//     free_nodes[--free_offset] = node; initially free_nodes[i] = i and node 0 covers everything.
// Sizes are in allocator units (bytes >> multiplier_bits); a byte request is rounded up to whole
// units. Assumptions not pinned by the spec (documented in docs/formats/forge-scenario.md): when
// the node stack is exhausted, capacity doubles (capped at max_capacity).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "model/snapshot_types.hpp"
#include "util/status.hpp"

namespace moonquota::forge {

// How the master parametrises the allocator of a segment of `segment_bytes` bytes.
struct AllocatorParameters {
  std::uint32_t init_capacity = 0;    // clamp(S / 4096, 1024, 65536)
  std::uint32_t max_capacity = 0;     // clamp(S / 1024, 1048576, 67108864)
  std::uint64_t multiplier_bits = 0;  // smallest b with (S >> b) <= 4026531840
};
[[nodiscard]] AllocatorParameters allocator_parameters(std::uint64_t segment_bytes);

// Small-float bin helpers (exposed for tests).
[[nodiscard]] std::uint32_t bin_round_up(std::uint32_t units);
[[nodiscard]] std::uint32_t bin_round_down(std::uint32_t units);
[[nodiscard]] std::uint64_t bin_size(std::uint32_t bin);

// One allocation, as a MEMORY replica's offset_handle records it.
struct Allocation {
  std::uint32_t offset = 0;           // allocator units from the segment base
  std::uint32_t node_index = 0;       // the used node backing it
  std::uint64_t address = 0;          // base + (offset << multiplier_bits) = real_base
  std::uint64_t requested_bytes = 0;  // the caller's size, not rounded
};

class OffsetAllocatorSimulation {
 public:
  // A fresh allocator for a segment at `base` of `segment_bytes` bytes. Fails for a size of 0 or
  // one whose unit count does not fit in u32.
  [[nodiscard]] static util::Result<OffsetAllocatorSimulation> create(std::uint64_t base, std::uint64_t segment_bytes);

  // Allocates `requested_bytes` (> 0). Fails with invalid_argument when no free node is large
  // enough or the node table cannot grow: the caller's scenario does not fit the segment.
  [[nodiscard]] util::Result<Allocation> allocate(std::uint64_t requested_bytes);

  // Frees an allocation returned by allocate(), merging with free neighbours. Fails when the
  // node is not in use.
  [[nodiscard]] util::Status free(const Allocation& allocation);

  // The state as the snapshot serialises it (node table and free-node list as raw LE bytes).
  [[nodiscard]] model::OffsetAllocatorState export_state() const;

  [[nodiscard]] std::uint64_t allocated_bytes() const { return m_allocated_bytes; }
  [[nodiscard]] std::uint64_t allocated_count() const { return m_allocated_count; }
  [[nodiscard]] std::uint32_t current_capacity() const { return static_cast<std::uint32_t>(m_nodes.size()); }
  // Node slots left before the table would have to grow (an allocation may take one).
  [[nodiscard]] std::uint32_t free_node_slots() const { return current_capacity() - m_free_offset; }

 private:
  static constexpr std::uint32_t k_unused = 0xffffffffU;
  struct Node {
    bool used = false;
    std::uint32_t data_offset = 0;
    std::uint32_t data_size = 0;
    std::uint32_t bin_list_prev = k_unused;
    std::uint32_t bin_list_next = k_unused;
    std::uint32_t neighbor_prev = k_unused;
    std::uint32_t neighbor_next = k_unused;
  };

  OffsetAllocatorSimulation() = default;
  [[nodiscard]] bool ensure_free_node();
  std::uint32_t insert_node_into_bin(std::uint32_t size, std::uint32_t data_offset);
  void remove_node_from_bin(std::uint32_t node_index);

  std::uint64_t m_base = 0;
  std::uint64_t m_capacity_bytes = 0;
  AllocatorParameters m_params;
  std::uint32_t m_size_units = 0;
  std::uint32_t m_free_storage = 0;
  std::uint32_t m_used_bins_top = 0;
  std::array<std::uint8_t, 32> m_used_bins{};
  std::array<std::uint32_t, 256> m_bin_indices{};
  std::vector<Node> m_nodes;
  std::vector<std::uint32_t> m_free_nodes;
  std::uint32_t m_free_offset = 0;
  std::uint64_t m_allocated_bytes = 0;
  std::uint64_t m_allocated_count = 0;
};

}  // namespace moonquota::forge
