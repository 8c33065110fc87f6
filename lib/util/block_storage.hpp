// Append-only storage in fixed blocks: growing never copies what is stored nor moves it (no
// doubling, no second copy faulted in), which is what a table that grows to millions of entries
// in one pass needs. BlockVector indexes its elements; BumpArena hands out contiguous runs.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

namespace moonquota::util {

// Elements by index, k_block of them a block.
template <typename T, std::size_t BlockShift = 14>
class BlockVector {
 public:
  static constexpr std::size_t k_block = std::size_t{1} << BlockShift;

  [[nodiscard]] std::size_t size() const { return m_size; }
  [[nodiscard]] T& operator[](std::size_t i) { return m_blocks[i >> BlockShift][i & (k_block - 1)]; }
  [[nodiscard]] const T& operator[](std::size_t i) const { return m_blocks[i >> BlockShift][i & (k_block - 1)]; }
  T& push_back(const T& value) {
    if (m_size == m_blocks.size() * k_block) m_blocks.push_back(std::make_unique_for_overwrite<T[]>(k_block));
    T& slot = (*this)[m_size++];
    slot = value;
    return slot;
  }

 private:
  std::vector<std::unique_ptr<T[]>> m_blocks;
  std::size_t m_size = 0;
};

// Contiguous runs of n elements that stay where they are; a run longer than a block gets a block
// of its own.
template <typename T, std::size_t BlockElements>
class BumpArena {
 public:
  [[nodiscard]] T* allocate(std::size_t n) {
    if (n > BlockElements) return m_blocks.emplace_back(std::make_unique_for_overwrite<T[]>(n)).get();
    if (m_free < n) {
      m_next = m_blocks.emplace_back(std::make_unique_for_overwrite<T[]>(BlockElements)).get();
      m_free = BlockElements;
    }
    T* run = m_next;
    m_next += n;
    m_free -= n;
    return run;
  }

 private:
  std::vector<std::unique_ptr<T[]>> m_blocks;
  T* m_next = nullptr;
  std::size_t m_free = 0;
};

}  // namespace moonquota::util
