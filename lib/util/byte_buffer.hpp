// A growable byte buffer that does not zero-fill on resize (std::string does): for hot paths
// that overwrite every byte anyway, such as zstd decompression targets.
#pragma once

#include <cstddef>
#include <memory>
#include <string_view>

namespace moonquota::util {

class ByteBuffer {
 public:
  // Sets the size to `n`; contents are unspecified. Keeps the allocation when it is big enough.
  void resize_uninitialized(std::size_t n) {
    if (n > m_capacity) {
      m_data.reset(new char[n]);  // default-initialised: no zero fill
      m_capacity = n;
    }
    m_size = n;
  }
  void clear() { m_size = 0; }
  [[nodiscard]] char* data() { return m_data.get(); }
  [[nodiscard]] std::size_t size() const { return m_size; }
  [[nodiscard]] std::string_view view() const { return {m_data.get(), m_size}; }

 private:
  std::unique_ptr<char[]> m_data;
  std::size_t m_size = 0;
  std::size_t m_capacity = 0;
};

}  // namespace moonquota::util
