#include "util/zstd_file.hpp"

#include <zstd.h>

#include <memory>

namespace moonquota::util {

namespace {

constexpr std::uint64_t k_chunk_bytes = 1 << 20;

struct DctxDeleter {
  void operator()(ZSTD_DCtx* d) const { ZSTD_freeDCtx(d); }
};

}  // namespace

Status zstd_decompress_stream(ByteSource& file, std::size_t max_bytes, ByteBuffer& out) {
  out.clear();
  if (file.remaining() == 0) return Status::corruption("empty zstd input");
  std::string chunk;
  MQ_RETURN_IF_ERROR(file.read_exact(std::min<std::uint64_t>(file.remaining(), k_chunk_bytes), &chunk));
  unsigned long long declared = ZSTD_getFrameContentSize(chunk.data(), chunk.size());
  if (declared == ZSTD_CONTENTSIZE_ERROR) return Status::corruption("not a zstd frame");
  if (declared == ZSTD_CONTENTSIZE_UNKNOWN) return Status::corruption("zstd frame has no content size");
  if (declared > max_bytes) {
    return Status::limit_exceeded("zstd content size " + std::to_string(declared) + " exceeds the limit of " +
                                  std::to_string(max_bytes) + " bytes");
  }
  out.resize_uninitialized(static_cast<std::size_t>(declared));
  std::unique_ptr<ZSTD_DCtx, DctxDeleter> dctx(ZSTD_createDCtx());
  ZSTD_outBuffer dst{out.data(), out.size(), 0};
  bool frame_done = false;
  while (true) {
    ZSTD_inBuffer src{chunk.data(), chunk.size(), 0};
    while (src.pos < src.size && !frame_done) {
      const size_t in_before = src.pos;
      const size_t out_before = dst.pos;
      size_t rc = ZSTD_decompressStream(dctx.get(), &dst, &src);
      if (ZSTD_isError(rc)) {
        out.clear();
        return Status::corruption(std::string("zstd decompression failed: ") + ZSTD_getErrorName(rc));
      }
      if (rc == 0) {
        frame_done = true;
      } else if (src.pos == in_before && dst.pos == out_before) {
        // No progress with input left: the output is full and the frame wants more room.
        out.clear();
        return Status::corruption("zstd frame decompresses to more than its content size");
      }
    }
    if (frame_done) {
      if (src.pos < src.size || file.remaining() > 0) {
        out.clear();
        return Status::corruption("zstd input holds bytes after the first frame");
      }
      break;
    }
    if (file.remaining() == 0) {
      out.clear();
      return Status::corruption("truncated zstd frame");
    }
    chunk.clear();
    MQ_RETURN_IF_ERROR(file.read_exact(std::min<std::uint64_t>(file.remaining(), k_chunk_bytes), &chunk));
  }
  if (dst.pos != out.size()) {
    out.clear();
    return Status::corruption("zstd frame decompressed to " + std::to_string(dst.pos) + " bytes, header says " +
                              std::to_string(declared));
  }
  return {};
}

}  // namespace moonquota::util
