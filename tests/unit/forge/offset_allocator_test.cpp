#include "forge/offset_allocator.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <string>

namespace moonquota::forge {
namespace {

constexpr std::uint32_t k_none = 0xffffffffU;

struct NodeRecord {
  std::uint32_t used, offset, size, bin_prev, bin_next, neighbor_prev, neighbor_next;
  bool operator==(const NodeRecord&) const = default;
};

std::uint32_t le32(const std::string& bytes, std::size_t at) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(bytes[at + static_cast<std::size_t>(i)]);
  return v;
}

NodeRecord node_at(const model::AllocatorCore& core, std::size_t index) {
  const std::size_t at = index * 25;
  return {static_cast<unsigned char>(core.nodes[at]),
          le32(core.nodes, at + 1),
          le32(core.nodes, at + 5),
          le32(core.nodes, at + 9),
          le32(core.nodes, at + 13),
          le32(core.nodes, at + 17),
          le32(core.nodes, at + 21)};
}

TEST(OffsetAllocator, ParametersFollowTheMasterRule) {
  auto p = allocator_parameters(16 * 1024 * 1024);
  EXPECT_EQ(p.init_capacity, 4096u);
  EXPECT_EQ(p.max_capacity, 1048576u);
  EXPECT_EQ(p.multiplier_bits, 0u);
  EXPECT_EQ(allocator_parameters(8 * 1024 * 1024).init_capacity, 2048u);
  EXPECT_EQ(allocator_parameters(1024).init_capacity, 1024u);
  EXPECT_EQ(allocator_parameters(4026531840ULL).multiplier_bits, 0u);
  EXPECT_EQ(allocator_parameters(4026531841ULL).multiplier_bits, 1u);
  EXPECT_EQ(allocator_parameters(1ULL << 40).max_capacity, 67108864u);
  EXPECT_EQ(allocator_parameters(1ULL << 40).init_capacity, 65536u);
}

TEST(OffsetAllocator, SmallFloatBins) {
  EXPECT_EQ(bin_round_up(1024), 64u);
  EXPECT_EQ(bin_round_down(16777216), 176u);
  EXPECT_EQ(bin_round_down(16776192), 175u);
  EXPECT_EQ(bin_round_up(300000), bin_round_down(327680));
  EXPECT_EQ(bin_size(bin_round_up(300000)), 327680u);
  EXPECT_EQ(bin_size(bin_round_up(100000)), 106496u);
  EXPECT_EQ(bin_round_up(5), 5u);  // denormals
}

// snapshot-format.md §14.6: one 1024-byte allocation in a 16 MiB segment.
TEST(OffsetAllocator, ReproducesSpecWorkedExampleState) {
  auto sim = OffsetAllocatorSimulation::create(0x300000000ULL, 16 * 1024 * 1024);
  ASSERT_TRUE(sim.ok());
  auto a = sim->allocate(1024);
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->offset, 0u);
  EXPECT_EQ(a->node_index, 0u);
  EXPECT_EQ(a->address, 0x300000000ULL);
  const model::OffsetAllocatorState s = sim->export_state();
  EXPECT_EQ(s.base, 0x300000000ULL);
  EXPECT_EQ(s.capacity, 16777216u);
  EXPECT_EQ(s.allocated_size, 1024u);
  EXPECT_EQ(s.allocated_num, 1u);
  EXPECT_EQ(s.core.size, 16777216u);
  EXPECT_EQ(s.core.current_capacity, 4096u);
  EXPECT_EQ(s.core.max_capacity, 1048576u);
  EXPECT_EQ(s.core.free_storage, 16776192u);
  EXPECT_EQ(s.core.used_bins_top, 1u << 21);
  for (std::size_t i = 0; i < 32; ++i) EXPECT_EQ(s.core.used_bins[i], i == 21 ? 0x80 : 0) << i;
  for (std::size_t i = 0; i < 256; ++i) EXPECT_EQ(s.core.bin_indices[i], i == 175 ? 1 : k_none) << i;
  ASSERT_EQ(s.core.nodes.size(), 4096u * 25);
  EXPECT_EQ(node_at(s.core, 0), (NodeRecord{1, 0, 1024, k_none, k_none, k_none, 1}));
  EXPECT_EQ(node_at(s.core, 1), (NodeRecord{0, 1024, 16776192, k_none, k_none, 0, k_none}));
  for (std::size_t i = 2; i < 4096; ++i) {
    ASSERT_EQ(node_at(s.core, i), (NodeRecord{0, 0, 0, k_none, k_none, k_none, k_none})) << i;
  }
  ASSERT_EQ(s.core.free_nodes.size(), 4096u * 4);
  for (std::uint32_t i = 0; i < 4096; ++i) ASSERT_EQ(le32(s.core.free_nodes, i * 4), i);
  EXPECT_EQ(s.core.free_offset, 2u);
}

// The allocation history of the genuine store s1_single_segment_basic (5 puts, then a removal),
// checked against the node table that real master wrote.
TEST(OffsetAllocator, ReproducesGenuineAllocateThenFreeHistory) {
  auto sim = OffsetAllocatorSimulation::create(0x300000000ULL, 8 * 1024 * 1024);
  ASSERT_TRUE(sim.ok());
  std::array<Allocation, 5> a{};
  const std::array<std::uint64_t, 5> sizes{262144, 524288, 300000, 100000, 1048576};
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    auto r = sim->allocate(sizes[i]);
    ASSERT_TRUE(r.ok());
    a[i] = *r;
    EXPECT_EQ(a[i].node_index, i);
  }
  EXPECT_EQ(a[4].offset, 1220608u);
  ASSERT_TRUE(sim->free(a[1]).ok());
  EXPECT_FALSE(sim->free(a[1]).ok());  // double free is refused
  const model::OffsetAllocatorState s = sim->export_state();
  EXPECT_EQ(s.allocated_size, 1710720u);
  EXPECT_EQ(s.allocated_num, 4u);
  EXPECT_EQ(s.core.current_capacity, 2048u);
  EXPECT_EQ(s.core.free_storage, 6643712u);
  EXPECT_EQ(s.core.used_bins_top, 1179648u);
  EXPECT_EQ(s.core.used_bins[17], 1);
  EXPECT_EQ(s.core.used_bins[20], 8);
  EXPECT_EQ(s.core.bin_indices[136], 1u);
  EXPECT_EQ(s.core.bin_indices[163], 5u);
  EXPECT_EQ(node_at(s.core, 1), (NodeRecord{0, 262144, 524288, k_none, k_none, 0, 2}));
  EXPECT_EQ(node_at(s.core, 2), (NodeRecord{1, 786432, 327680, k_none, k_none, 1, 3}));
  EXPECT_EQ(node_at(s.core, 5), (NodeRecord{0, 2269184, 6119424, k_none, k_none, 4, k_none}));
  EXPECT_EQ(le32(s.core.free_nodes, 5 * 4), 1u);
  EXPECT_EQ(s.core.free_offset, 6u);
}

TEST(OffsetAllocator, FreeMergesWithFreeNeighbours) {
  auto sim = OffsetAllocatorSimulation::create(0, 1 << 20);
  ASSERT_TRUE(sim.ok());
  auto x = sim->allocate(4096);
  auto y = sim->allocate(4096);
  ASSERT_TRUE(x.ok() && y.ok());
  ASSERT_TRUE(sim->free(*x).ok());
  ASSERT_TRUE(sim->free(*y).ok());
  const auto s = sim->export_state();
  EXPECT_EQ(s.core.free_storage, 1u << 20);
  EXPECT_EQ(s.allocated_num, 0u);
  // Everything merged back into one free node filed under the full size's bin.
  EXPECT_EQ(s.core.used_bins_top, 1u << (bin_round_down(1 << 20) >> 3));
}

TEST(OffsetAllocator, RefusesWhatDoesNotFit) {
  auto sim = OffsetAllocatorSimulation::create(0, 4096);
  ASSERT_TRUE(sim.ok());
  EXPECT_FALSE(sim->allocate(0).ok());
  EXPECT_FALSE(sim->allocate(4097).ok());
  ASSERT_TRUE(sim->allocate(4096).ok());
  auto full = sim->allocate(1);
  ASSERT_FALSE(full.ok());
  EXPECT_NE(full.status().message().find("no free node"), std::string::npos);
  EXPECT_FALSE(OffsetAllocatorSimulation::create(0, 0).ok());
}

TEST(OffsetAllocator, MultiplierBitsScaleOffsets) {
  auto sim = OffsetAllocatorSimulation::create(1000, 8ULL << 30);  // 8 GiB -> multiplier_bits 2
  ASSERT_TRUE(sim.ok());
  auto first = sim->allocate(10);  // 3 units
  auto second = sim->allocate(4);
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(second->offset, 3u);
  EXPECT_EQ(second->address, 1000u + (3u << 2));
  EXPECT_EQ(sim->export_state().core.size, (8ULL << 30) >> 2);
}

}  // namespace
}  // namespace moonquota::forge
