#include "util/atomic_stream.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>

namespace moonquota::util {

namespace fs = std::filesystem;

namespace {

constexpr int k_max_symlink_hops = 40;  // as the kernel's ELOOP limit

// The final target of `path`: symlinks followed (a relative link is relative to its folder),
// a missing final target allowed (it is created).
Result<std::string> resolve_symlinks(const std::string& path) {
  fs::path current(path);
  for (int hop = 0; hop < k_max_symlink_hops; ++hop) {
    struct stat st {};
    if (::lstat(current.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return current.string();
    std::error_code ec;
    fs::path next = fs::read_symlink(current, ec);
    if (ec) return Status::io_error("cannot read the symlink '" + current.string() + "': " + ec.message());
    current = next.is_absolute() ? next : current.parent_path() / next;
  }
  return Status::io_error("cannot write '" + path + "': " + std::strerror(ELOOP));
}

// Temporaries alive in this process, removed by a SIGINT/SIGTERM handler before the signal's own
// action. A slot owns its malloc'ed path; whoever exchanges it out (the handler or the writer)
// owns it from then on, so the handler needs no lock and calls only unlink, sigaction, raise.
constexpr std::size_t k_max_live_temporaries = 64;
std::array<std::atomic<char*>, k_max_live_temporaries> g_live_temporaries{};
std::once_flag g_handlers_once;
struct sigaction g_previous_sigint {};
struct sigaction g_previous_sigterm {};

extern "C" void remove_temporaries_and_reraise(int signal_number) {
  const int saved_errno = errno;
  for (auto& slot : g_live_temporaries) {
    if (char* path = slot.exchange(nullptr)) ::unlink(path);  // leaked on purpose: the process ends
  }
  ::sigaction(signal_number, signal_number == SIGINT ? &g_previous_sigint : &g_previous_sigterm, nullptr);
  errno = saved_errno;
  ::raise(signal_number);
}

// Installs the handler for a signal whose action is the default one; a signal the program
// ignores or handles itself is left alone.
void install_handler(int signal_number, struct sigaction& previous) {
  if (::sigaction(signal_number, nullptr, &previous) != 0 || previous.sa_handler != SIG_DFL) return;
  struct sigaction action {};
  action.sa_handler = remove_temporaries_and_reraise;
  sigemptyset(&action.sa_mask);
  ::sigaction(signal_number, &action, nullptr);
}

// The slot of `path`, or -1 when all are taken (the file is then only removed by the writer).
int register_temporary(const std::string& path) {
  std::call_once(g_handlers_once, [] {
    install_handler(SIGINT, g_previous_sigint);
    install_handler(SIGTERM, g_previous_sigterm);
  });
  char* copy = ::strdup(path.c_str());
  if (copy == nullptr) return -1;
  for (std::size_t i = 0; i < g_live_temporaries.size(); ++i) {
    char* expected = nullptr;
    if (g_live_temporaries[i].compare_exchange_strong(expected, copy)) return static_cast<int>(i);
  }
  std::free(copy);
  return -1;
}

void unregister_temporary(int slot) {
  if (slot < 0) return;
  std::free(g_live_temporaries[static_cast<std::size_t>(slot)].exchange(nullptr));
}

}  // namespace

AtomicOutputStream::FdBuffer::FdBuffer() { setp(m_buffer.data(), m_buffer.data() + m_buffer.size()); }

bool AtomicOutputStream::FdBuffer::write_all(const char* data, std::size_t count) {
  if (m_errno != 0) return false;
  while (count > 0) {
    const ssize_t n = ::write(m_fd, data, count);
    if (n < 0) {
      if (errno == EINTR) continue;
      m_errno = errno;
      return false;
    }
    data += n;
    count -= static_cast<std::size_t>(n);
  }
  return true;
}

bool AtomicOutputStream::FdBuffer::flush_all() {
  const auto pending = static_cast<std::size_t>(pptr() - pbase());
  setp(m_buffer.data(), m_buffer.data() + m_buffer.size());
  return pending == 0 || write_all(m_buffer.data(), pending);
}

AtomicOutputStream::FdBuffer::int_type AtomicOutputStream::FdBuffer::overflow(int_type ch) {
  if (!flush_all()) return traits_type::eof();
  if (traits_type::eq_int_type(ch, traits_type::eof())) return traits_type::not_eof(ch);
  *pptr() = traits_type::to_char_type(ch);
  pbump(1);
  return ch;
}

int AtomicOutputStream::FdBuffer::sync() { return flush_all() ? 0 : -1; }

std::streamsize AtomicOutputStream::FdBuffer::xsputn(const char* data, std::streamsize count) {
  const auto room = static_cast<std::streamsize>(epptr() - pptr());
  if (count <= room) {
    std::memcpy(pptr(), data, static_cast<std::size_t>(count));
    pbump(static_cast<int>(count));
    return count;
  }
  if (!flush_all()) return 0;
  if (count < static_cast<std::streamsize>(m_buffer.size())) {
    std::memcpy(pptr(), data, static_cast<std::size_t>(count));
    pbump(static_cast<int>(count));
    return count;
  }
  return write_all(data, static_cast<std::size_t>(count)) ? count : 0;
}

AtomicOutputStream::AtomicOutputStream() : m_stream(&m_buffer) {}

AtomicOutputStream::~AtomicOutputStream() { abandon(); }

void AtomicOutputStream::abandon() {
  if (m_owns_fd && m_fd >= 0) ::close(m_fd);
  m_fd = -1;
  if (!m_temp.empty()) ::unlink(m_temp.c_str());
  unregister_temporary(m_temp_slot);
  m_temp_slot = -1;
  m_temp.clear();
  m_open = false;
}

Status AtomicOutputStream::fail(const std::string& what, std::string path, int error_number) {
  abandon();
  return Status::io_error(what + " '" + path + "': " + std::strerror(error_number));
}

Status AtomicOutputStream::open(const std::string& path) {
  if (m_open || !m_target.empty()) return Status::invalid_argument("the report output is already open");
  if (path.empty() || path == "-") {
    m_target = "-";
    std::fflush(stdout);  // what the process buffered for stdout goes first
    m_fd = STDOUT_FILENO;
    m_owns_fd = false;
  } else {
    MQ_ASSIGN_OR_RETURN(m_target, resolve_symlinks(path));
    struct stat st {};
    if (::stat(m_target.c_str(), &st) == 0 && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))) {
      m_fd = ::open(m_target.c_str(), O_WRONLY | O_CLOEXEC);
      if (m_fd < 0) return fail("cannot open", m_target, errno);
    } else {
      const fs::path target(m_target);
      const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
      std::string tmpl = (dir / ("." + target.filename().string() + ".tmp.XXXXXX")).string();
      m_fd = ::mkstemp(tmpl.data());
      if (m_fd < 0) return fail("cannot create a temporary file for", m_target, errno);
      m_temp = tmpl;
      m_temp_slot = register_temporary(m_temp);
    }
    m_owns_fd = true;
  }
  m_buffer.attach(m_fd);
  m_open = true;
  return {};
}

Status AtomicOutputStream::commit() {
  if (!m_open) return Status::internal("commit of a report output that is not open");
  const std::string shown = m_target == "-" ? std::string("standard output") : m_target;
  if (!m_buffer.flush_all() || m_buffer.error() != 0) {
    const int error_number = m_buffer.error() != 0 ? m_buffer.error() : EIO;
    return fail("cannot write", shown, error_number);
  }
  if (!m_stream) return fail("cannot write", shown, EIO);
  if (m_temp.empty()) {  // written through
    if (m_owns_fd && ::close(m_fd) != 0) {
      m_fd = -1;
      return fail("cannot close", shown, errno);
    }
    m_fd = -1;
    m_open = false;
    return {};
  }
  if (::fchmod(m_fd, 0644) != 0 || ::fsync(m_fd) != 0) return fail("cannot sync", m_temp, errno);
  const int fd = m_fd;
  m_fd = -1;
  if (::close(fd) != 0) return fail("cannot close", m_temp, errno);
  if (::rename(m_temp.c_str(), m_target.c_str()) != 0)
    return fail("cannot rename the temporary file onto", m_target, errno);
  unregister_temporary(m_temp_slot);
  m_temp_slot = -1;
  m_temp.clear();
  m_open = false;
  const fs::path target(m_target);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {  // best effort: the rename itself is already atomic
    (void)::fsync(dfd);
    ::close(dfd);
  }
  return {};
}

}  // namespace moonquota::util
