#include "util/file_reader.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace moonquota::util {

FileReader::~FileReader() {
  if (m_fd >= 0) ::close(m_fd);
}

int open_for_reading(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return -1;
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) (void)::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  return fd;
}

Status FileReader::open(const std::string& path) {
  m_path = path;
  m_fd = open_for_reading(path);  // a FIFO is refused below instead of blocking open()
  if (m_fd < 0) {
    if (errno == ENOENT) return Status::not_found("file not found: " + path);
    return Status::io_error("cannot open '" + path + "': " + std::strerror(errno));
  }
  struct stat st {};
  if (::fstat(m_fd, &st) != 0) return Status::io_error("cannot stat '" + path + "': " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) return Status::io_error("'" + path + "' is not a regular file");
  m_size = static_cast<std::uint64_t>(st.st_size);
  (void)::posix_fadvise(m_fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  return {};
}

Status FileReader::read_exact(std::uint64_t n, ByteBuffer& out) {
  if (n > remaining()) return read_exact(n, nullptr);  // the same truncation message
  out.resize_uninitialized(static_cast<size_t>(n));
  std::uint64_t done = 0;
  while (done < n) {
    ssize_t got = ::pread(m_fd, out.data() + done, n - done, static_cast<off_t>(m_offset + done));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      out.clear();
      return Status::io_error("cannot read '" + m_path + "' at byte offset " + std::to_string(m_offset + done) +
                              (got < 0 ? std::string(": ") + std::strerror(errno) : std::string(": file shrank")));
    }
    done += static_cast<std::uint64_t>(got);
  }
  m_offset += n;
  return {};
}

Status FileReader::read_exact(std::uint64_t n, std::string* out) {
  if (n > remaining()) return read_past_end(m_path, m_size, n, m_offset);
  if (out == nullptr) {
    m_offset += n;
    return {};
  }
  size_t start = out->size();
  out->resize(start + n);
  std::uint64_t done = 0;
  while (done < n) {
    ssize_t got = ::pread(m_fd, out->data() + start + done, n - done, static_cast<off_t>(m_offset + done));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      out->resize(start);
      return Status::io_error("cannot read '" + m_path + "' at byte offset " + std::to_string(m_offset + done) +
                              (got < 0 ? std::string(": ") + std::strerror(errno) : std::string(": file shrank")));
    }
    done += static_cast<std::uint64_t>(got);
  }
  m_offset += n;
  return {};
}

Status FileReader::seek(std::uint64_t offset) {
  if (offset > m_size) return offset_past_end(m_path, m_size, offset);
  m_offset = offset;
  return {};
}

Result<std::string> read_small_file(const std::string& path, std::uint64_t max_bytes) {
  FileReader reader;
  MQ_RETURN_IF_ERROR(reader.open(path));
  if (reader.size() > max_bytes) {
    return Status::limit_exceeded("'" + path + "' is " + std::to_string(reader.size()) +
                                  " bytes, more than the limit of " + std::to_string(max_bytes));
  }
  std::string out;
  MQ_RETURN_IF_ERROR(reader.read_exact(reader.size(), &out));
  return out;
}

}  // namespace moonquota::util
