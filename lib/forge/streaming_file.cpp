#include "forge/streaming_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

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
  if (zstd_pledged_bytes) {
    MQ_ASSIGN_OR_RETURN(f->m_zstd, util::ZstdStreamWriter::create(*zstd_pledged_bytes));
    StreamingFile* self = f.get();
    f->m_sink = [self](std::string_view compressed) { return self->write_to_disk(compressed); };
  }
  return f;
}

StreamingFile::~StreamingFile() {
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

util::Status StreamingFile::write(std::string_view bytes) {
  if (m_committed) return util::Status::internal("write after commit");
  if (m_zstd == nullptr) return write_to_disk(bytes);
  return m_zstd->write(bytes, m_sink);
}

util::Status StreamingFile::commit() {
  if (m_zstd != nullptr) MQ_RETURN_IF_ERROR(m_zstd->finish(m_sink));
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
