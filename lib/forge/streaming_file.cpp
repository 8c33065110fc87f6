#include "forge/streaming_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

namespace moonquota::forge {

namespace {

util::Status errno_status(const std::string& what, const std::string& path) {
  return util::Status::io_error(what + " '" + path + "': " + std::strerror(errno));
}

}  // namespace

util::Result<std::unique_ptr<StreamingFile>> StreamingFile::open(const std::string& target_path,
                                                                 std::optional<std::uint64_t> zstd_pledged_bytes) {
  std::unique_ptr<StreamingFile> f(new StreamingFile());
  f->m_target = target_path;
  const std::filesystem::path target(target_path);
  const std::filesystem::path dir = target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
  f->m_temp = (dir / ("." + target.filename().string() + ".tmp.XXXXXX")).string();
  f->m_fd = ::mkstemp(f->m_temp.data());
  if (f->m_fd < 0) return errno_status("cannot create a temporary file for", target_path);
  f->m_pledged = zstd_pledged_bytes;
  if (zstd_pledged_bytes) {
    ZSTD_CCtx* cctx = ZSTD_createCCtx();
    if (cctx == nullptr) return util::Status::internal("ZSTD_createCCtx failed");
    f->m_cctx = cctx;
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, 3);
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 1);
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 0);
    ZSTD_CCtx_setPledgedSrcSize(cctx, *zstd_pledged_bytes);
  }
  return f;
}

StreamingFile::~StreamingFile() {
  if (m_cctx != nullptr) ZSTD_freeCCtx(static_cast<ZSTD_CCtx*>(m_cctx));
  if (m_fd >= 0) ::close(m_fd);
  if (!m_committed && !m_temp.empty()) ::unlink(m_temp.c_str());
}

util::Status StreamingFile::write_to_disk(std::string_view bytes) {
  const char* p = bytes.data();
  std::size_t left = bytes.size();
  while (left > 0) {
    const ssize_t n = ::write(m_fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno_status("cannot write", m_temp);
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  m_file_bytes += bytes.size();
  return util::Status::ok_status();
}

util::Status StreamingFile::compress(std::string_view bytes, bool end) {
  auto* cctx = static_cast<ZSTD_CCtx*>(m_cctx);
  std::vector<char> out(ZSTD_CStreamOutSize());
  ZSTD_inBuffer in{bytes.data(), bytes.size(), 0};
  const ZSTD_EndDirective mode = end ? ZSTD_e_end : ZSTD_e_continue;
  while (true) {
    ZSTD_outBuffer ob{out.data(), out.size(), 0};
    const std::size_t remaining = ZSTD_compressStream2(cctx, &ob, &in, mode);
    if (ZSTD_isError(remaining)) {
      return util::Status::internal(std::string("zstd stream compression failed: ") + ZSTD_getErrorName(remaining));
    }
    MQ_RETURN_IF_ERROR(write_to_disk(std::string_view(out.data(), ob.pos)));
    const bool done = end ? remaining == 0 : in.pos == in.size;
    if (done) return util::Status::ok_status();
  }
}

util::Status StreamingFile::write(std::string_view bytes) {
  if (m_committed) return util::Status::internal("write after commit");
  m_raw_bytes += bytes.size();
  if (m_cctx == nullptr) return write_to_disk(bytes);
  if (bytes.empty()) return util::Status::ok_status();
  return compress(bytes, false);
}

util::Status StreamingFile::commit() {
  if (m_cctx != nullptr) {
    if (m_raw_bytes != *m_pledged) {
      return util::Status::internal("streamed " + std::to_string(m_raw_bytes) + " bytes, pledged " +
                                    std::to_string(*m_pledged));
    }
    MQ_RETURN_IF_ERROR(compress({}, true));
  }
  if (m_file_bytes == 0) return util::Status::internal("refusing to write an empty object '" + m_target + "'");
  if (::fchmod(m_fd, 0644) != 0 || ::fsync(m_fd) != 0) return errno_status("cannot sync", m_temp);
  if (::close(m_fd) != 0) {
    m_fd = -1;
    return errno_status("cannot close", m_temp);
  }
  m_fd = -1;
  if (::rename(m_temp.c_str(), m_target.c_str()) != 0) return errno_status("cannot rename onto", m_target);
  m_committed = true;
  return util::Status::ok_status();
}

}  // namespace moonquota::forge
