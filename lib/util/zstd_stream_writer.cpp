#include "util/zstd_stream_writer.hpp"

#include <zstd.h>

#include <string>
#include <vector>

namespace moonquota::util {

struct ZstdStreamWriter::Impl {
  struct CctxDeleter {
    void operator()(ZSTD_CCtx* c) const { ZSTD_freeCCtx(c); }
  };
  std::unique_ptr<ZSTD_CCtx, CctxDeleter> cctx{ZSTD_createCCtx()};
  std::vector<char> out = std::vector<char>(ZSTD_CStreamOutSize());
};

Result<std::unique_ptr<ZstdStreamWriter>> ZstdStreamWriter::create(std::uint64_t pledged_bytes, int level) {
  std::unique_ptr<ZstdStreamWriter> w(new ZstdStreamWriter());
  w->m_impl = std::make_unique<Impl>();
  ZSTD_CCtx* cctx = w->m_impl->cctx.get();
  if (cctx == nullptr) return Status::internal("ZSTD_createCCtx failed");
  for (const std::size_t r :
       {ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, level),
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 1), ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 0),
        ZSTD_CCtx_setPledgedSrcSize(cctx, pledged_bytes)}) {
    if (ZSTD_isError(r)) return Status::internal(std::string("zstd stream setup failed: ") + ZSTD_getErrorName(r));
  }
  w->m_pledged = pledged_bytes;
  return w;
}

ZstdStreamWriter::~ZstdStreamWriter() = default;

Status ZstdStreamWriter::compress(std::string_view bytes, bool end, const Sink& sink) {
  ZSTD_inBuffer in{bytes.data(), bytes.size(), 0};
  const ZSTD_EndDirective mode = end ? ZSTD_e_end : ZSTD_e_continue;
  while (true) {
    ZSTD_outBuffer ob{m_impl->out.data(), m_impl->out.size(), 0};
    const std::size_t remaining = ZSTD_compressStream2(m_impl->cctx.get(), &ob, &in, mode);
    if (ZSTD_isError(remaining)) {
      return Status::internal(std::string("zstd stream compression failed: ") + ZSTD_getErrorName(remaining));
    }
    if (ob.pos > 0) MQ_RETURN_IF_ERROR(sink(std::string_view(m_impl->out.data(), ob.pos)));
    const bool done = end ? remaining == 0 : in.pos == in.size;
    if (done) return Status::ok_status();
  }
}

Status ZstdStreamWriter::write(std::string_view bytes, const Sink& sink) {
  m_written += bytes.size();
  if (bytes.empty()) return Status::ok_status();
  return compress(bytes, false, sink);
}

Status ZstdStreamWriter::finish(const Sink& sink) {
  if (m_written != m_pledged) {
    return Status::internal("streamed " + std::to_string(m_written) + " bytes, pledged " + std::to_string(m_pledged));
  }
  return compress({}, true, sink);
}

}  // namespace moonquota::util
