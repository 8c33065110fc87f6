// One zstd frame checked, and decompressed piece by piece when asked, as its compressed bytes
// arrive: neither the frame nor its content is ever held whole. The verdict is the one
// zstd_check_frame gives for the whole frame, message for message: the frame header's content
// size first, then whether the bytes are exactly one complete frame (block headers and checksum
// are followed as they arrive, so a malformed frame is reported as such even where its
// decompression failed earlier), then the decompression's own failures in the order it meets them.
// zstd names one damage differently depending on how much input it is given at once ("Data
// corruption detected" or "Destination buffer is too small"), so the compressed bytes reach it in
// chunks of k_input_chunk at fixed offsets of the frame, whatever pieces the caller feeds: the
// verdict and its message depend on the frame only (zstd_check_frame is this feed, in one piece).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "util/status.hpp"

struct ZSTD_DCtx_s;

namespace moonquota::util {

class ZstdFrameFeed {
 public:
  // Called with each piece of decompressed content, in order (never empty).
  using Sink = std::function<void(std::string_view)>;
  // The bytes a first piece must hold (or all of the frame, when it is shorter).
  static constexpr std::size_t k_first_piece_bytes = 18;
  // The compressed bytes zstd is given at a time (the last chunk of a frame may be shorter).
  static constexpr std::size_t k_input_chunk = 64 * 1024;

  // `frame_bytes`: the compressed length, fed in pieces that add up to it; `expected_bytes`: the
  // content size the frame must declare and decompress to. Without a sink nothing is kept.
  ZstdFrameFeed(std::uint64_t frame_bytes, std::uint64_t expected_bytes, Sink sink = {});
  ~ZstdFrameFeed();
  ZstdFrameFeed(const ZstdFrameFeed&) = delete;
  ZstdFrameFeed& operator=(const ZstdFrameFeed&) = delete;

  // The next piece. An error is final (the header's content size, or a piece past frame_bytes);
  // a failure that depends on the frame's structure waits for finish().
  [[nodiscard]] Status feed(std::string_view piece);
  // After the last piece: the verdict of zstd_check_frame(frame, expected_bytes).
  [[nodiscard]] Status finish();

 private:
  [[nodiscard]] Status read_header(std::string_view piece);
  void follow_structure(std::string_view piece);
  void queue(std::string_view piece);
  void decompress(std::string_view chunk);

  std::uint64_t m_frame_bytes;
  std::uint64_t m_expected;
  Sink m_sink;
  ZSTD_DCtx_s* m_dctx = nullptr;
  std::string m_buffer;
  std::string m_pending;  // compressed bytes of the chunk being gathered
  std::uint64_t m_fed = 0;
  std::uint64_t m_total_out = 0;
  Status m_final;             // a failure reported at once
  Status m_decompression;     // the first decompression failure (reported after the structure)
  bool m_frame_done = false;  // the decompression met the frame's end

  // The frame's structure, as ZSTD_findFrameCompressedSize walks it.
  enum class Part { header, block_header, block_body, checksum, done, malformed };
  Part m_part = Part::header;
  std::uint64_t m_part_left = 0;  // bytes of the current part still to come
  std::uint8_t m_block_header[3] = {0, 0, 0};
  unsigned m_block_header_have = 0;
  bool m_last_block = false;
  bool m_checksum = false;
};

}  // namespace moonquota::util
