// A tiny most-recently-inserted cache of short strings with a value each: a linear scan of N
// entries (length check, then memcmp) in front of a costlier lookup or parse. Not thread-safe:
// one per decoding thread.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>

namespace moonquota::util {

template <typename Value, std::size_t N = 8>
class RecentStrings {
 public:
  [[nodiscard]] const Value* find(std::string_view key) const {
    for (std::size_t i = 0; i < m_used; ++i) {
      if (m_keys[i] == key) return &m_values[i];
    }
    return nullptr;
  }
  void insert(std::string_view key, const Value& value) {
    m_keys[m_next].assign(key);
    m_values[m_next] = value;
    m_next = (m_next + 1) % N;
    if (m_used < N) ++m_used;
  }

 private:
  std::array<std::string, N> m_keys;
  std::array<Value, N> m_values{};
  std::size_t m_used = 0;
  std::size_t m_next = 0;
};

}  // namespace moonquota::util
