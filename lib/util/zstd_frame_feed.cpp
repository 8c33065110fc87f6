// ZSTD_getFrameHeader and ZSTD_frameHeaderSize are in zstd's stable-but-static section.
#define ZSTD_STATIC_LINKING_ONLY
#include "util/zstd_frame_feed.hpp"

#include <zstd.h>

#include <algorithm>

namespace moonquota::util {

namespace {

constexpr std::size_t k_out_piece_bytes = 64 * 1024;
constexpr std::size_t k_block_header_bytes = 3;
constexpr std::size_t k_checksum_bytes = 4;

}  // namespace

ZstdFrameFeed::ZstdFrameFeed(std::uint64_t frame_bytes, std::uint64_t expected_bytes, Sink sink)
    : m_frame_bytes(frame_bytes), m_expected(expected_bytes), m_sink(std::move(sink)) {}

ZstdFrameFeed::~ZstdFrameFeed() {
  if (m_dctx != nullptr) ZSTD_freeDCtx(m_dctx);
}

Status ZstdFrameFeed::read_header(std::string_view piece) {
  if (m_frame_bytes == 0) return Status::corruption("empty zstd input");
  const unsigned long long size = ZSTD_getFrameContentSize(piece.data(), piece.size());
  if (size == ZSTD_CONTENTSIZE_ERROR) return Status::corruption("not a zstd frame");
  if (size == ZSTD_CONTENTSIZE_UNKNOWN) return Status::corruption("zstd frame has no content size");
  if (size != m_expected) {
    return Status::corruption("zstd content size " + std::to_string(size) + ", expected " + std::to_string(m_expected));
  }
  ZSTD_frameHeader header{};
  const std::size_t header_bytes = ZSTD_frameHeaderSize(piece.data(), piece.size());
  if (ZSTD_isError(header_bytes) || ZSTD_getFrameHeader(&header, piece.data(), piece.size()) != 0 ||
      header.frameType != ZSTD_frame) {
    m_part = Part::malformed;  // a skippable frame or one zstd cannot walk: not one complete frame
  } else {
    m_part_left = header_bytes;
    m_checksum = header.checksumFlag != 0;
  }
  m_dctx = ZSTD_createDCtx();
  m_buffer.resize(k_out_piece_bytes);
  return Status::ok_status();
}

void ZstdFrameFeed::follow_structure(std::string_view piece) {
  std::size_t at = 0;
  while (at < piece.size() && m_part != Part::malformed) {
    switch (m_part) {
      case Part::header:
      case Part::block_body:
      case Part::checksum: {
        const std::size_t step = static_cast<std::size_t>(std::min<std::uint64_t>(m_part_left, piece.size() - at));
        at += step;
        m_part_left -= step;
        if (m_part_left > 0) break;
        if (m_part == Part::checksum || (m_part == Part::block_body && m_last_block)) {
          m_part = m_part == Part::block_body && m_checksum ? Part::checksum : Part::done;
          m_part_left = m_part == Part::checksum ? k_checksum_bytes : 0;
        } else {
          m_part = Part::block_header;
          m_block_header_have = 0;
        }
        break;
      }
      case Part::block_header: {
        m_block_header[m_block_header_have++] = static_cast<std::uint8_t>(piece[at++]);
        if (m_block_header_have < k_block_header_bytes) break;
        const std::uint32_t h =
            m_block_header[0] | (std::uint32_t{m_block_header[1]} << 8) | (std::uint32_t{m_block_header[2]} << 16);
        m_last_block = (h & 1) != 0;
        const std::uint32_t type = (h >> 1) & 3;
        if (type == 3) {  // reserved
          m_part = Part::malformed;
          break;
        }
        m_part = Part::block_body;
        m_part_left = type == 1 ? 1 : (h >> 3);  // RLE: one byte
        if (m_part_left == 0) {                  // an empty raw or compressed block ends here
          if (m_last_block) {
            m_part = m_checksum ? Part::checksum : Part::done;
            m_part_left = m_checksum ? k_checksum_bytes : 0;
          } else {
            m_part = Part::block_header;
            m_block_header_have = 0;
          }
        }
        break;
      }
      case Part::done:  // bytes after the frame
        m_part = Part::malformed;
        break;
      case Part::malformed: break;
    }
  }
}

void ZstdFrameFeed::queue(std::string_view piece) {
  while (!piece.empty()) {
    if (m_pending.empty() && piece.size() >= k_input_chunk) {  // a whole chunk: no copy
      decompress(piece.substr(0, k_input_chunk));
      piece.remove_prefix(k_input_chunk);
      continue;
    }
    const std::size_t take = std::min(piece.size(), k_input_chunk - m_pending.size());
    m_pending.append(piece.substr(0, take));
    piece.remove_prefix(take);
    if (m_pending.size() == k_input_chunk) {
      decompress(m_pending);
      m_pending.clear();
    }
  }
  if (m_fed == m_frame_bytes && !m_pending.empty()) {  // the frame's last, shorter chunk
    decompress(m_pending);
    m_pending.clear();
  }
}

void ZstdFrameFeed::decompress(std::string_view chunk) {
  if (!m_decompression.ok() || m_frame_done) return;
  ZSTD_inBuffer in{chunk.data(), chunk.size(), 0};
  while (true) {
    ZSTD_outBuffer out{m_buffer.data(), m_buffer.size(), 0};
    const std::size_t rc = ZSTD_decompressStream(m_dctx, &out, &in);
    if (ZSTD_isError(rc)) {
      m_decompression = Status::corruption(std::string("zstd decompression failed: ") + ZSTD_getErrorName(rc));
      return;
    }
    m_total_out += out.pos;
    if (m_total_out > m_expected) {
      m_decompression = Status::corruption("zstd frame decompresses to more than its content size");
      return;
    }
    if (out.pos > 0 && m_sink) m_sink(std::string_view(m_buffer.data(), out.pos));
    if (rc == 0) {
      m_frame_done = true;
      return;
    }
    if (in.pos == in.size && out.pos < out.size) return;  // wants more input
  }
}

Status ZstdFrameFeed::feed(std::string_view piece) {
  if (!m_final.ok()) return m_final;
  if (piece.size() > m_frame_bytes - m_fed) {
    m_final = Status::invalid_argument("zstd frame fed more than its " + std::to_string(m_frame_bytes) + " bytes");
    return m_final;
  }
  if (m_fed == 0 && m_dctx == nullptr) {
    if (m_frame_bytes > 0 && piece.size() < std::min<std::uint64_t>(m_frame_bytes, k_first_piece_bytes)) {
      m_final = Status::invalid_argument("the first piece of a zstd frame must hold its header");
      return m_final;
    }
    m_final = read_header(piece);
    if (!m_final.ok()) return m_final;
  }
  m_fed += piece.size();
  follow_structure(piece);
  queue(piece);
  return Status::ok_status();
}

Status ZstdFrameFeed::finish() {
  if (m_dctx == nullptr && m_final.ok()) m_final = read_header({});
  if (!m_final.ok()) return m_final;
  if (m_fed != m_frame_bytes)
    return Status::invalid_argument("zstd frame ended before its " + std::to_string(m_frame_bytes) + " bytes");
  if (m_part != Part::done) return Status::corruption("zstd input is not exactly one complete frame");
  if (!m_decompression.ok()) return m_decompression;
  if (!m_frame_done) return Status::corruption("truncated zstd frame");
  if (m_total_out != m_expected) {
    return Status::corruption("zstd frame decompressed to " + std::to_string(m_total_out) + " bytes, expected " +
                              std::to_string(m_expected));
  }
  return Status::ok_status();
}

}  // namespace moonquota::util
