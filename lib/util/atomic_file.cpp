#include "util/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace moonquota::util {

namespace {

Status errno_status(const std::string& what, const std::string& path) {
  return Status::io_error(what + " '" + path + "': " + std::strerror(errno));
}

}  // namespace

Status write_file_atomically(const std::string& path, std::string_view content) {
  std::filesystem::path target(path);
  std::filesystem::path dir = target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
  std::string tmpl = (dir / ("." + target.filename().string() + ".tmp.XXXXXX")).string();
  int fd = ::mkstemp(tmpl.data());
  if (fd < 0) return errno_status("cannot create a temporary file for", path);
  const char* p = content.data();
  size_t left = content.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      Status s = errno_status("cannot write", tmpl);
      ::close(fd);
      ::unlink(tmpl.c_str());
      return s;
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
  if (::fchmod(fd, 0644) != 0 || ::fsync(fd) != 0) {
    Status s = errno_status("cannot sync", tmpl);
    ::close(fd);
    ::unlink(tmpl.c_str());
    return s;
  }
  if (::close(fd) != 0) {
    Status s = errno_status("cannot close", tmpl);
    ::unlink(tmpl.c_str());
    return s;
  }
  if (::rename(tmpl.c_str(), path.c_str()) != 0) {
    Status s = errno_status("cannot rename the temporary file onto", path);
    ::unlink(tmpl.c_str());
    return s;
  }
  int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (dfd >= 0) {  // best effort: the rename itself is already atomic
    (void)::fsync(dfd);
    ::close(dfd);
  }
  return {};
}

}  // namespace moonquota::util
