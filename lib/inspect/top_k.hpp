// A bounded "largest K" collection: memory is O(K) whatever the number of offered items.
// `Better(a, b)` is a strict order: true when a ranks before b. Ties must be broken by the
// caller's order (tenant, key, ...) so that results do not depend on thread scheduling.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace moonquota::inspect {

template <typename T, typename Better>
class TopK {
 public:
  explicit TopK(std::size_t k = 10, Better better = Better{}) : m_k(k), m_better(better) {}

  void offer(const T& item) {
    if (m_k == 0) return;
    if (m_heap.size() < m_k) {
      m_heap.push_back(item);
      std::push_heap(m_heap.begin(), m_heap.end(), m_better);  // worst item on top
      return;
    }
    if (!m_better(item, m_heap.front())) return;
    std::pop_heap(m_heap.begin(), m_heap.end(), m_better);
    m_heap.back() = item;
    std::push_heap(m_heap.begin(), m_heap.end(), m_better);
  }
  void merge(const TopK& other) {
    for (const auto& item : other.m_heap) offer(item);
  }
  // Best first.
  [[nodiscard]] std::vector<T> sorted() const {
    std::vector<T> out = m_heap;
    std::sort(out.begin(), out.end(), m_better);
    return out;
  }
  [[nodiscard]] std::size_t capacity() const { return m_k; }

 private:
  std::size_t m_k;
  Better m_better;
  std::vector<T> m_heap;
};

}  // namespace moonquota::inspect
