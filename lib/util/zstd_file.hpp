// Decompresses a payload that holds one zstd frame (Mooncake's payload rule: exactly one frame,
// content size in the header) without ever holding the compressed bytes whole: the source is
// read in 1 MiB pieces and decompressed as a stream into a buffer of the declared size. The
// write side, ZstdStreamWriter, compresses such a frame piece by piece.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "util/byte_buffer.hpp"
#include "util/byte_source.hpp"
#include "util/status.hpp"

namespace moonquota::util {

// Reads `in` from its current offset to its end (a ZstdStreamReader read in one piece into a
// buffer of the declared size). Errors: those of the source (io_error,
// unavailable); corruption for an empty source, a frame without content size, a second frame or
// trailing bytes, a truncated or invalid frame, or content that does not match the declared
// size; limit_exceeded when the declared size is above `max_bytes`.
[[nodiscard]] Status zstd_decompress_stream(ByteSource& in, std::size_t max_bytes, ByteBuffer& out);

// The same frame read piece by piece: what a streaming decoder pulls its bytes from, so the
// decompressed payload is never held whole. Errors are those of zstd_decompress_stream, each
// reported when the piece that shows it is read; after an error every call returns it again.
class ZstdStreamReader {
 public:
  explicit ZstdStreamReader(ByteSource& in);
  ~ZstdStreamReader();
  ZstdStreamReader(const ZstdStreamReader&) = delete;
  ZstdStreamReader& operator=(const ZstdStreamReader&) = delete;

  // Reads the frame header: an empty source, a frame without content size, or a content size
  // above `max_bytes` fail here.
  [[nodiscard]] Status open(std::size_t max_bytes);
  // The content size declared in the frame header.
  [[nodiscard]] std::uint64_t content_bytes() const { return m_declared; }
  // Decompressed bytes handed out so far.
  [[nodiscard]] std::uint64_t produced() const { return m_produced; }
  // Appends the next min(n, content_bytes() - produced()) bytes to `out`.
  [[nodiscard]] Status read(std::size_t n, std::string& out);
  // Writes the next min(n, content_bytes() - produced()) bytes to `dst`.
  [[nodiscard]] Status read(char* dst, std::size_t n);
  // Decompresses (and discards) whatever is left and checks the end of the frame.
  [[nodiscard]] Status finish();

 private:
  Status pump(char* dst, std::size_t n, std::size_t& written);
  Status fail(Status s);

  ByteSource& m_in;
  struct Impl;
  Impl* m_impl = nullptr;
  std::string m_chunk;
  std::size_t m_chunk_pos = 0;
  std::uint64_t m_declared = 0;
  std::uint64_t m_produced = 0;
  bool m_frame_done = false;
  bool m_checked_end = false;
  Status m_error;
};

// One zstd frame written piece by piece (the write side of ZstdStreamReader): the content size,
// pledged in advance, goes into the frame header as zstd_compress writes it for content held
// whole, so a payload larger than memory still meets Mooncake's rule (content size required).
class ZstdStreamWriter {
 public:
  // Where the compressed bytes go as they are produced; its error stops the writer.
  using Sink = std::function<Status(std::string_view)>;

  // A frame of exactly `pledged_bytes` bytes of content at `level`, without checksum.
  // Errors: internal when zstd cannot set up its context.
  [[nodiscard]] static Result<std::unique_ptr<ZstdStreamWriter>> create(std::uint64_t pledged_bytes, int level = 3);
  ~ZstdStreamWriter();
  ZstdStreamWriter(const ZstdStreamWriter&) = delete;
  ZstdStreamWriter& operator=(const ZstdStreamWriter&) = delete;

  // Compresses `bytes`, handing whatever compressed bytes are ready to `sink`.
  [[nodiscard]] Status write(std::string_view bytes, const Sink& sink);
  // Ends the frame and hands its last bytes to `sink`. Errors: internal unless exactly the
  // pledged bytes were written; the sink's.
  [[nodiscard]] Status finish(const Sink& sink);

 private:
  ZstdStreamWriter() = default;
  Status compress(std::string_view bytes, bool end, const Sink& sink);

  struct Impl;
  std::unique_ptr<Impl> m_impl;
  std::uint64_t m_pledged = 0;
  std::uint64_t m_written = 0;
};

}  // namespace moonquota::util
