#include "util/zstd_codec.hpp"

#include "util/byte_buffer.hpp"
#include "util/zstd_frame_feed.hpp"

#include <zstd.h>

#include <string>

namespace moonquota::util {

std::string zstd_compress(std::string_view raw, int level) {
  std::string out;
  out.resize(ZSTD_compressBound(raw.size()));
  size_t n = ZSTD_compress(out.data(), out.size(), raw.data(), raw.size(), level);
  if (ZSTD_isError(n)) return {};  // cannot happen with a bound-sized buffer
  out.resize(n);
  return out;
}

std::string zstd_frame_form(std::string_view blob) {
  if (blob.size() < 5) return "not zstd";
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(blob[i]); };
  const std::uint32_t magic =
      byte(0) | (byte(1) << 8U) | (byte(2) << 16U) | (static_cast<std::uint32_t>(byte(3)) << 24U);
  if ((magic & 0xFFFFFFF0U) == 0x184D2A50U) return "zstd-skippable";
  if (magic != 0xFD2FB528U) return "not zstd";
  // Frame header descriptor (RFC 8878 §3.1.1.1.1): content size flag (bits 7-6), single
  // segment (bit 5), checksum (bit 2), dictionary id flag (bits 1-0).
  const unsigned descriptor = byte(4);
  const bool single_segment = (descriptor & 0x20U) != 0;
  const bool has_content_size = (descriptor >> 6U) != 0 || single_segment;
  std::string form = "zstd";
  if (!has_content_size) form += ", no content size";
  if ((descriptor & 0x04U) != 0) form += ", checksum";
  if ((descriptor & 0x03U) != 0) form += ", dictionary";
  return form;
}

Result<std::uint64_t> zstd_content_size(std::string_view frame) {
  unsigned long long size = ZSTD_getFrameContentSize(frame.data(), frame.size());
  if (size == ZSTD_CONTENTSIZE_ERROR) return Status::corruption("not a zstd frame");
  if (size == ZSTD_CONTENTSIZE_UNKNOWN) return Status::corruption("zstd frame has no content size");
  return static_cast<std::uint64_t>(size);
}

namespace {

// Validates the frame and returns its content size, which the caller then allocates.
Result<std::uint64_t> checked_frame_size(std::string_view frame, std::size_t max_bytes) {
  if (frame.empty()) return Status::corruption("empty zstd input");
  auto size = zstd_content_size(frame);
  if (!size.ok()) return size.status();
  if (*size > max_bytes) {
    return Status::limit_exceeded("zstd content size " + std::to_string(*size) + " exceeds the limit of " +
                                  std::to_string(max_bytes) + " bytes");
  }
  size_t frame_size = ZSTD_findFrameCompressedSize(frame.data(), frame.size());
  if (ZSTD_isError(frame_size)) {
    return Status::corruption(std::string("truncated or invalid zstd frame: ") + ZSTD_getErrorName(frame_size));
  }
  if (frame_size != frame.size()) {
    return Status::corruption("zstd input holds " + std::to_string(frame.size() - frame_size) +
                              " bytes after the first frame");
  }
  return size;
}

Status decompress_into(std::string_view frame, char* dst, std::size_t size) {
  size_t n = ZSTD_decompress(dst, size, frame.data(), frame.size());
  if (ZSTD_isError(n)) return Status::corruption(std::string("zstd decompression failed: ") + ZSTD_getErrorName(n));
  if (n != size) {
    return Status::corruption("zstd frame decompressed to " + std::to_string(n) + " bytes, header says " +
                              std::to_string(size));
  }
  return {};
}

}  // namespace

Status zstd_decompress(std::string_view frame, std::size_t max_bytes, ByteBuffer& out) {
  out.clear();
  auto size = checked_frame_size(frame, max_bytes);
  if (!size.ok()) return size.status();
  out.resize_uninitialized(static_cast<size_t>(*size));
  Status s = decompress_into(frame, out.data(), out.size());
  if (!s.ok()) out.clear();
  return s;
}

Status zstd_decompress(std::string_view frame, std::size_t max_bytes, std::string& out) {
  out.clear();
  auto size = checked_frame_size(frame, max_bytes);
  if (!size.ok()) return size.status();
  out.resize(static_cast<size_t>(*size));
  Status s = decompress_into(frame, out.data(), out.size());
  if (!s.ok()) out.clear();
  return s;
}

}  // namespace moonquota::util

namespace moonquota::util {

Status zstd_check_frame(std::string_view frame, std::uint64_t expected_bytes) {
  // One feed, one piece: the verdicts of the streamed checks are this function's by construction.
  ZstdFrameFeed feed(frame.size(), expected_bytes);
  if (Status s = feed.feed(frame); !s.ok()) return s;
  return feed.finish();
}

Status payload_error(const Status& failure, const std::string& context) {
  const StatusCode kept = failure.code();
  const bool keep =
      kept == StatusCode::limit_exceeded || kept == StatusCode::io_error || kept == StatusCode::unavailable;
  const StatusCode code = keep ? kept : StatusCode::corruption;
  return Status(code, context + ": " + failure.message());
}

}  // namespace moonquota::util
