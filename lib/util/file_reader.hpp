// Sequential reads of a regular local file with the current byte offset, for streaming decoders
// that must never hold a whole large file. Reads are exact: a short file is an error naming the
// offset. Store code reads through source::ObjectStore, whose local backend uses this.
#pragma once

#include <cstdint>
#include <string>

#include "util/byte_buffer.hpp"
#include "util/byte_source.hpp"
#include "util/status.hpp"

namespace moonquota::util {

// open(path, O_RDONLY | O_CLOEXEC) that never waits: a FIFO nobody writes to would block open()
// for ever, so it is opened with O_NONBLOCK, which is then cleared (reads block as usual; a
// writer-less FIFO reads as empty). -1 with errno set on failure.
[[nodiscard]] int open_for_reading(const std::string& path);

class FileReader final : public ByteSource {
 public:
  FileReader() = default;
  ~FileReader() override;

  // Errors: not_found (no such file), io_error (with the OS reason; not a regular file).
  [[nodiscard]] Status open(const std::string& path);
  [[nodiscard]] Status read_exact(std::uint64_t n, std::string* out) override;
  [[nodiscard]] Status read_exact(std::uint64_t n, ByteBuffer& out) override;
  // Moves the read offset (at most to the end of the file).
  [[nodiscard]] Status seek(std::uint64_t offset);
  [[nodiscard]] std::uint64_t offset() const override { return m_offset; }
  [[nodiscard]] std::uint64_t size() const override { return m_size; }
  [[nodiscard]] const std::string& name() const override { return m_path; }

 private:
  int m_fd = -1;
  std::string m_path;
  std::uint64_t m_size = 0;
  std::uint64_t m_offset = 0;
};

// Reads a whole (small) file. `max_bytes` guards memory: a larger file is an error.
[[nodiscard]] Result<std::string> read_small_file(const std::string& path, std::uint64_t max_bytes);

}  // namespace moonquota::util
