// A source of bytes read front to back with exact reads and a current byte offset: what the
// streaming decoders (the metadata scan, zstd payloads) consume. util::FileReader is the local
// implementation; source::ObjectStore hands out one per object, whatever the backend.
#pragma once

#include <cstdint>
#include <string>

#include "util/byte_buffer.hpp"
#include "util/status.hpp"

namespace moonquota::util {

class ByteSource {
 public:
  ByteSource() = default;
  ByteSource(const ByteSource&) = delete;
  ByteSource& operator=(const ByteSource&) = delete;
  virtual ~ByteSource() = default;

  // Appends exactly `n` bytes to `out` (or steps over them when `out` is null). Fewer than `n`
  // bytes left is a corruption error naming the source, its size and the offset.
  [[nodiscard]] virtual Status read_exact(std::uint64_t n, std::string* out) = 0;
  // Replaces the contents of `out` with exactly `n` bytes (no zero fill of the buffer).
  [[nodiscard]] virtual Status read_exact(std::uint64_t n, ByteBuffer& out) = 0;
  [[nodiscard]] virtual std::uint64_t offset() const = 0;
  [[nodiscard]] virtual std::uint64_t size() const = 0;
  // How messages name the source: a path, or a URL.
  [[nodiscard]] virtual const std::string& name() const = 0;
  [[nodiscard]] std::uint64_t remaining() const { return size() - offset(); }
};

// The corruption every backend reports, in the same words, so a report from S3 or memory equals
// the local one: `needed` bytes wanted at `offset` of `name`, which ends at byte `size`.
[[nodiscard]] inline Status read_past_end(const std::string& name, std::uint64_t size, std::uint64_t needed,
                                          std::uint64_t offset) {
  return Status::corruption("'" + name + "' ends at byte " + std::to_string(size) + ", " + std::to_string(needed) +
                            " bytes needed at byte offset " + std::to_string(offset));
}
// The same for a position past the end (a seek or a range's start).
[[nodiscard]] inline Status offset_past_end(const std::string& name, std::uint64_t size, std::uint64_t offset) {
  return Status::corruption("'" + name + "' ends at byte " + std::to_string(size) + ", cannot read at byte offset " +
                            std::to_string(offset));
}

}  // namespace moonquota::util
