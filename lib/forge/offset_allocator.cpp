#include "forge/offset_allocator.hpp"

#include <algorithm>
#include <bit>
#include <optional>
#include <string>

namespace moonquota::forge {

namespace {

constexpr std::uint32_t k_mantissa_bits = 3;
constexpr std::uint32_t k_mantissa_value = 1U << k_mantissa_bits;
constexpr std::uint32_t k_mantissa_mask = k_mantissa_value - 1;
constexpr std::uint64_t k_max_units = 4026531840ULL;  // largest unit count Mooncake allows
constexpr std::size_t k_node_record_bytes = 25;

std::uint32_t to_float(std::uint32_t size, bool round_up) {
  if (size < k_mantissa_value) return size;  // denormals: the bin is the size itself
  const std::uint32_t highest_bit = 31U - static_cast<std::uint32_t>(std::countl_zero(size));
  const std::uint32_t mantissa_start = highest_bit - k_mantissa_bits;
  const std::uint32_t exponent = mantissa_start + 1;
  std::uint32_t mantissa = (size >> mantissa_start) & k_mantissa_mask;
  const std::uint32_t low_bits = (1U << mantissa_start) - 1;
  if (round_up && (size & low_bits) != 0) ++mantissa;  // may carry into the exponent, by design
  return (exponent << k_mantissa_bits) + mantissa;
}

// Lowest set bit of `mask` at position >= `start`, or none.
std::optional<std::uint32_t> lowest_bit_from(std::uint32_t mask, std::uint32_t start) {
  if (start >= 32) return std::nullopt;
  const std::uint32_t masked = mask & ~((1ULL << start) - 1);
  if (masked == 0) return std::nullopt;
  return static_cast<std::uint32_t>(std::countr_zero(masked));
}

void put_u32_le(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

}  // namespace

std::uint32_t bin_round_up(std::uint32_t units) { return to_float(units, true); }
std::uint32_t bin_round_down(std::uint32_t units) { return to_float(units, false); }

std::uint64_t bin_size(std::uint32_t bin) {
  const std::uint32_t exponent = bin >> k_mantissa_bits;
  const std::uint32_t mantissa = bin & k_mantissa_mask;
  if (exponent == 0) return mantissa;
  return static_cast<std::uint64_t>(mantissa | k_mantissa_value) << (exponent - 1);
}

AllocatorParameters allocator_parameters(std::uint64_t segment_bytes) {
  AllocatorParameters p;
  p.init_capacity = static_cast<std::uint32_t>(std::clamp<std::uint64_t>(segment_bytes / 4096, 1024, 65536));
  p.max_capacity = static_cast<std::uint32_t>(std::clamp<std::uint64_t>(segment_bytes / 1024, 1048576, 67108864));
  while ((segment_bytes >> p.multiplier_bits) > k_max_units) ++p.multiplier_bits;
  return p;
}

util::Result<OffsetAllocatorSimulation> OffsetAllocatorSimulation::create(std::uint64_t base,
                                                                          std::uint64_t segment_bytes) {
  if (segment_bytes == 0) return util::Status::invalid_argument("segment size is 0");
  OffsetAllocatorSimulation sim;
  sim.m_base = base;
  sim.m_capacity_bytes = segment_bytes;
  sim.m_params = allocator_parameters(segment_bytes);
  sim.m_size_units = static_cast<std::uint32_t>(segment_bytes >> sim.m_params.multiplier_bits);
  if (sim.m_size_units == 0) return util::Status::invalid_argument("segment size rounds to 0 units");
  sim.m_bin_indices.fill(k_unused);
  sim.m_nodes.resize(sim.m_params.init_capacity);
  sim.m_free_nodes.resize(sim.m_params.init_capacity);
  for (std::uint32_t i = 0; i < sim.m_params.init_capacity; ++i) sim.m_free_nodes[i] = i;
  sim.insert_node_into_bin(sim.m_size_units, 0);
  return sim;
}

bool OffsetAllocatorSimulation::ensure_free_node() {
  if (m_free_offset < m_nodes.size()) return true;
  const std::size_t old_capacity = m_nodes.size();
  if (old_capacity >= m_params.max_capacity) return false;
  const std::size_t new_capacity = std::min<std::size_t>(old_capacity * 2, m_params.max_capacity);
  m_nodes.resize(new_capacity);
  m_free_nodes.resize(new_capacity);
  for (std::size_t i = old_capacity; i < new_capacity; ++i) m_free_nodes[i] = static_cast<std::uint32_t>(i);
  return true;
}

std::uint32_t OffsetAllocatorSimulation::insert_node_into_bin(std::uint32_t size, std::uint32_t data_offset) {
  const std::uint32_t bin = bin_round_down(size);
  const std::uint32_t top = bin >> k_mantissa_bits;
  const std::uint32_t leaf = bin & k_mantissa_mask;
  if (m_bin_indices[bin] == k_unused) {
    m_used_bins[top] = static_cast<std::uint8_t>(m_used_bins[top] | (1U << leaf));
    m_used_bins_top |= 1U << top;
  }
  const std::uint32_t old_head = m_bin_indices[bin];
  const std::uint32_t node_index = m_free_nodes[m_free_offset++];
  m_nodes[node_index] = Node{};
  m_nodes[node_index].data_offset = data_offset;
  m_nodes[node_index].data_size = size;
  m_nodes[node_index].bin_list_next = old_head;
  if (old_head != k_unused) m_nodes[old_head].bin_list_prev = node_index;
  m_bin_indices[bin] = node_index;
  m_free_storage += size;
  return node_index;
}

void OffsetAllocatorSimulation::remove_node_from_bin(std::uint32_t node_index) {
  Node& node = m_nodes[node_index];
  if (node.bin_list_prev != k_unused) {
    m_nodes[node.bin_list_prev].bin_list_next = node.bin_list_next;
    if (node.bin_list_next != k_unused) m_nodes[node.bin_list_next].bin_list_prev = node.bin_list_prev;
  } else {
    const std::uint32_t bin = bin_round_down(node.data_size);
    const std::uint32_t top = bin >> k_mantissa_bits;
    const std::uint32_t leaf = bin & k_mantissa_mask;
    m_bin_indices[bin] = node.bin_list_next;
    if (node.bin_list_next != k_unused) m_nodes[node.bin_list_next].bin_list_prev = k_unused;
    if (m_bin_indices[bin] == k_unused) {
      m_used_bins[top] = static_cast<std::uint8_t>(m_used_bins[top] & ~(1U << leaf));
      if (m_used_bins[top] == 0) m_used_bins_top &= ~(1U << top);
    }
  }
  m_free_nodes[--m_free_offset] = node_index;
  m_free_storage -= node.data_size;
}

util::Result<Allocation> OffsetAllocatorSimulation::allocate(std::uint64_t requested_bytes) {
  if (requested_bytes == 0) return util::Status::invalid_argument("allocation of 0 bytes");
  const std::uint64_t unit = std::uint64_t{1} << m_params.multiplier_bits;
  const std::uint64_t units =
      (requested_bytes >> m_params.multiplier_bits) + ((requested_bytes & (unit - 1)) != 0 ? 1 : 0);
  const auto no_space = [&](const char* why) {
    return util::Status::invalid_argument("cannot allocate " + std::to_string(requested_bytes) +
                                          " bytes in a segment of " + std::to_string(m_capacity_bytes) +
                                          " bytes: " + why);
  };
  if (units > m_size_units) return no_space("larger than the segment");
  if (!ensure_free_node()) return no_space("node table full (max_capacity reached)");

  const std::uint32_t min_bin = bin_round_up(static_cast<std::uint32_t>(units));
  const std::uint64_t rounded = bin_size(min_bin);
  const std::uint32_t min_top = min_bin >> k_mantissa_bits;
  std::optional<std::uint32_t> leaf;
  std::uint32_t top = min_top;
  if ((m_used_bins_top & (1ULL << top)) != 0) leaf = lowest_bit_from(m_used_bins[top], min_bin & k_mantissa_mask);
  if (!leaf) {
    const auto next_top = lowest_bit_from(m_used_bins_top, min_top + 1);
    if (!next_top) return no_space("no free node large enough");
    top = *next_top;
    leaf = static_cast<std::uint32_t>(std::countr_zero(static_cast<std::uint32_t>(m_used_bins[top])));
  }
  const std::uint32_t bin = (top << k_mantissa_bits) | *leaf;
  const std::uint32_t node_index = m_bin_indices[bin];
  const std::uint32_t total = m_nodes[node_index].data_size;
  if (rounded > total) return util::Status::internal("allocator bin invariant broken");

  Node& node = m_nodes[node_index];
  node.data_size = static_cast<std::uint32_t>(rounded);
  node.used = true;
  m_bin_indices[bin] = node.bin_list_next;
  if (node.bin_list_next != k_unused) m_nodes[node.bin_list_next].bin_list_prev = k_unused;
  m_free_storage -= total;
  if (m_bin_indices[bin] == k_unused) {
    m_used_bins[top] = static_cast<std::uint8_t>(m_used_bins[top] & ~(1U << *leaf));
    if (m_used_bins[top] == 0) m_used_bins_top &= ~(1U << top);
  }
  const std::uint32_t remainder = total - static_cast<std::uint32_t>(rounded);
  if (remainder > 0) {
    const std::uint32_t data_offset = m_nodes[node_index].data_offset;
    const std::uint32_t new_index = insert_node_into_bin(remainder, data_offset + static_cast<std::uint32_t>(rounded));
    const std::uint32_t old_next = m_nodes[node_index].neighbor_next;
    if (old_next != k_unused) m_nodes[old_next].neighbor_prev = new_index;
    m_nodes[new_index].neighbor_prev = node_index;
    m_nodes[new_index].neighbor_next = old_next;
    m_nodes[node_index].neighbor_next = new_index;
  }
  m_allocated_bytes += requested_bytes;
  ++m_allocated_count;
  Allocation a;
  a.offset = m_nodes[node_index].data_offset;
  a.node_index = node_index;
  a.address = m_base + (static_cast<std::uint64_t>(a.offset) << m_params.multiplier_bits);
  a.requested_bytes = requested_bytes;
  return a;
}

util::Status OffsetAllocatorSimulation::free(const Allocation& allocation) {
  const std::uint32_t index = allocation.node_index;
  if (index >= m_nodes.size() || !m_nodes[index].used) {
    return util::Status::invalid_argument("free of node " + std::to_string(index) + " which is not in use");
  }
  std::uint32_t offset = m_nodes[index].data_offset;
  std::uint32_t size = m_nodes[index].data_size;
  const std::uint32_t prev = m_nodes[index].neighbor_prev;
  if (prev != k_unused && !m_nodes[prev].used) {
    offset = m_nodes[prev].data_offset;
    size += m_nodes[prev].data_size;
    remove_node_from_bin(prev);
    m_nodes[index].neighbor_prev = m_nodes[prev].neighbor_prev;
  }
  const std::uint32_t next = m_nodes[index].neighbor_next;
  if (next != k_unused && !m_nodes[next].used) {
    size += m_nodes[next].data_size;
    remove_node_from_bin(next);
    m_nodes[index].neighbor_next = m_nodes[next].neighbor_next;
  }
  const std::uint32_t neighbor_next = m_nodes[index].neighbor_next;
  const std::uint32_t neighbor_prev = m_nodes[index].neighbor_prev;
  m_free_nodes[--m_free_offset] = index;
  const std::uint32_t combined = insert_node_into_bin(size, offset);
  if (neighbor_next != k_unused) {
    m_nodes[combined].neighbor_next = neighbor_next;
    m_nodes[neighbor_next].neighbor_prev = combined;
  }
  if (neighbor_prev != k_unused) {
    m_nodes[combined].neighbor_prev = neighbor_prev;
    m_nodes[neighbor_prev].neighbor_next = combined;
  }
  m_allocated_bytes -= allocation.requested_bytes;
  --m_allocated_count;
  return util::Status::ok_status();
}

model::OffsetAllocatorState OffsetAllocatorSimulation::export_state() const {
  model::OffsetAllocatorState s;
  s.base = m_base;
  s.multiplier_bits = m_params.multiplier_bits;
  s.capacity = m_capacity_bytes;
  s.allocated_size = m_allocated_bytes;
  s.allocated_num = m_allocated_count;
  model::AllocatorCore& core = s.core;
  core.size = m_size_units;
  core.current_capacity = static_cast<std::uint32_t>(m_nodes.size());
  core.max_capacity = m_params.max_capacity;
  core.free_storage = m_free_storage;
  core.used_bins_top = m_used_bins_top;
  core.used_bins = m_used_bins;
  core.bin_indices = m_bin_indices;
  core.nodes.reserve(m_nodes.size() * k_node_record_bytes);
  for (const Node& n : m_nodes) {
    core.nodes.push_back(static_cast<char>(n.used ? 1 : 0));
    for (std::uint32_t v :
         {n.data_offset, n.data_size, n.bin_list_prev, n.bin_list_next, n.neighbor_prev, n.neighbor_next}) {
      put_u32_le(core.nodes, v);
    }
  }
  core.free_nodes.reserve(m_free_nodes.size() * 4);
  for (std::uint32_t v : m_free_nodes) put_u32_le(core.free_nodes, v);
  core.free_offset = m_free_offset;
  return s;
}

}  // namespace moonquota::forge
