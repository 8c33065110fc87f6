// Sequential reads of a regular file with the current byte offset, for streaming decoders that
// must never hold a whole large file. Reads are exact: a short file is an error naming the offset.
#pragma once

#include <cstdint>
#include <string>

#include "util/byte_buffer.hpp"
#include "util/status.hpp"

namespace moonquota::util {

class FileReader {
 public:
  FileReader() = default;
  FileReader(const FileReader&) = delete;
  FileReader& operator=(const FileReader&) = delete;
  ~FileReader();

  [[nodiscard]] Status open(const std::string& path);
  // Appends exactly `n` bytes to `out` (or discards them when `out` is null).
  [[nodiscard]] Status read_exact(std::uint64_t n, std::string* out);
  // Replaces the contents of `out` with exactly `n` bytes (no zero fill of the buffer).
  [[nodiscard]] Status read_exact(std::uint64_t n, ByteBuffer& out);
  [[nodiscard]] std::uint64_t offset() const { return m_offset; }
  [[nodiscard]] std::uint64_t size() const { return m_size; }
  [[nodiscard]] std::uint64_t remaining() const { return m_size - m_offset; }
  [[nodiscard]] const std::string& path() const { return m_path; }

 private:
  int m_fd = -1;
  std::string m_path;
  std::uint64_t m_size = 0;
  std::uint64_t m_offset = 0;
};

// Reads a whole (small) file. `max_bytes` guards memory: a larger file is an error.
[[nodiscard]] Result<std::string> read_small_file(const std::string& path, std::uint64_t max_bytes);

}  // namespace moonquota::util
