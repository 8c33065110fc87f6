#include "util/zstd_file.hpp"

#include <zstd.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

namespace moonquota::util {

namespace {

constexpr std::uint64_t k_chunk_bytes = 1 << 20;

}  // namespace

struct ZstdStreamReader::Impl {
  struct DctxDeleter {
    void operator()(ZSTD_DCtx* d) const { ZSTD_freeDCtx(d); }
  };
  std::unique_ptr<ZSTD_DCtx, DctxDeleter> dctx{ZSTD_createDCtx()};
};

ZstdStreamReader::ZstdStreamReader(ByteSource& in) : m_in(in), m_impl(new Impl) {}

ZstdStreamReader::~ZstdStreamReader() { delete m_impl; }

Status ZstdStreamReader::fail(Status s) {
  m_error = std::move(s);
  return m_error;
}

Status ZstdStreamReader::open(std::size_t max_bytes) {
  if (m_in.remaining() == 0) return fail(Status::corruption("empty zstd input"));
  if (Status s = m_in.read_exact(std::min<std::uint64_t>(m_in.remaining(), k_chunk_bytes), &m_chunk); !s.ok()) {
    return fail(std::move(s));
  }
  unsigned long long declared = ZSTD_getFrameContentSize(m_chunk.data(), m_chunk.size());
  if (declared == ZSTD_CONTENTSIZE_ERROR) return fail(Status::corruption("not a zstd frame"));
  if (declared == ZSTD_CONTENTSIZE_UNKNOWN) return fail(Status::corruption("zstd frame has no content size"));
  if (declared > max_bytes) {
    return fail(Status::limit_exceeded("zstd content size " + std::to_string(declared) + " exceeds the limit of " +
                                       std::to_string(max_bytes) + " bytes"));
  }
  m_declared = declared;
  return {};
}

// Decompresses into dst[written, n) (n never above the content left) until it is full or the
// frame ends; with n == written it only moves the frame on (the end checks).
Status ZstdStreamReader::pump(char* dst, std::size_t n, std::size_t& written) {
  while (!m_frame_done) {
    if (written == n && n > 0) return {};
    if (m_chunk_pos == m_chunk.size()) {
      if (m_in.remaining() == 0) return fail(Status::corruption("truncated zstd frame"));
      m_chunk.clear();
      m_chunk_pos = 0;
      if (Status s = m_in.read_exact(std::min<std::uint64_t>(m_in.remaining(), k_chunk_bytes), &m_chunk); !s.ok()) {
        return fail(std::move(s));
      }
    }
    ZSTD_outBuffer out{dst, n, written};
    ZSTD_inBuffer src{m_chunk.data(), m_chunk.size(), m_chunk_pos};
    const std::size_t out_before = out.pos;
    size_t rc = ZSTD_decompressStream(m_impl->dctx.get(), &out, &src);
    if (ZSTD_isError(rc))
      return fail(Status::corruption(std::string("zstd decompression failed: ") + ZSTD_getErrorName(rc)));
    const bool progress = src.pos != m_chunk_pos || out.pos != out_before;
    m_chunk_pos = src.pos;
    m_produced += out.pos - written;
    written = out.pos;
    if (rc == 0) {
      m_frame_done = true;
    } else if (!progress) {
      return fail(Status::corruption("zstd frame decompresses to more than its content size"));
    }
  }
  if (!m_checked_end) {
    m_checked_end = true;
    if (m_chunk_pos < m_chunk.size() || m_in.remaining() > 0) {
      return fail(Status::corruption("zstd input holds bytes after the first frame"));
    }
    if (m_produced != m_declared) {
      return fail(Status::corruption("zstd frame decompressed to " + std::to_string(m_produced) +
                                     " bytes, header says " + std::to_string(m_declared)));
    }
  }
  return {};
}

Status ZstdStreamReader::read(std::size_t n, std::string& out) {
  if (!m_error.ok()) return m_error;
  n = static_cast<std::size_t>(std::min<std::uint64_t>(n, m_declared - m_produced));
  const std::size_t before = out.size();
  out.resize(before + n);
  std::size_t written = 0;
  Status s = m_frame_done && n == 0 ? Status() : pump(out.data() + before, n, written);
  out.resize(before + written);
  return s;
}

Status ZstdStreamReader::read(char* dst, std::size_t n) {
  if (!m_error.ok()) return m_error;
  n = static_cast<std::size_t>(std::min<std::uint64_t>(n, m_declared - m_produced));
  std::size_t written = 0;
  return m_frame_done && n == 0 ? Status() : pump(dst, n, written);
}

Status ZstdStreamReader::finish() {
  if (!m_error.ok()) return m_error;
  std::string scratch(std::min<std::uint64_t>(k_chunk_bytes, m_declared - m_produced), '\0');
  while (true) {
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(scratch.size(), m_declared - m_produced));
    std::size_t written = 0;
    MQ_RETURN_IF_ERROR(pump(scratch.data(), n, written));
    if (m_frame_done) return {};
  }
}

Status zstd_decompress_stream(ByteSource& file, std::size_t max_bytes, ByteBuffer& out) {
  out.clear();
  ZstdStreamReader reader(file);
  Status s = reader.open(max_bytes);
  if (s.ok()) {
    out.resize_uninitialized(static_cast<std::size_t>(reader.content_bytes()));
    s = reader.read(out.data(), out.size());
  }
  if (s.ok()) s = reader.finish();
  if (!s.ok()) out.clear();
  return s;
}

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
