#include "util/atomic_stream.hpp"

#include <fcntl.h>
#include <signal.h>
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
#include <fstream>
#include <limits>
#include <mutex>
#include <optional>
#include <sstream>

#include "util/interrupt_signals.hpp"
#include "util/test_pause.hpp"

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

// Temporaries alive in this process, removed by a SIGINT/SIGTERM/SIGHUP handler before the signal's own
// action. A slot owns its malloc'ed path; whoever exchanges it out (the handler or the writer)
// owns it from then on, so the handler needs no lock and calls only unlink, sigaction, raise.
constexpr std::size_t k_max_live_temporaries = 64;
std::array<std::atomic<char*>, k_max_live_temporaries> g_live_temporaries{};
std::once_flag g_handlers_once;
std::array<struct sigaction, k_interrupt_signals.size()> g_previous_actions{};

extern "C" void remove_temporaries_and_reraise(int signal_number) {
  const int saved_errno = errno;
  for (auto& slot : g_live_temporaries) {
    if (char* path = slot.exchange(nullptr)) ::unlink(path);  // leaked on purpose: the process ends
  }
  for (std::size_t i = 0; i < k_interrupt_signals.size(); ++i) {
    if (k_interrupt_signals[i] == signal_number) restore_signal(signal_number, g_previous_actions[i]);
  }
  errno = saved_errno;
  ::raise(signal_number);
}

// The slot of `path`, or -1 when all are taken (the file is then only removed by the writer).
int register_temporary(const std::string& path) {
  std::call_once(g_handlers_once, [] {
    // Only a signal whose action is the default one (util/interrupt_signals).
    for (std::size_t i = 0; i < k_interrupt_signals.size(); ++i)
      take_over_signal(k_interrupt_signals[i], remove_temporaries_and_reraise, g_previous_actions[i]);
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

// The host part of a temporary's name: the host name with every byte outside [A-Za-z0-9-]
// replaced by '_' (so that it holds no '.'), at most 64 bytes.
std::string host_tag() {
  std::array<char, 256> name{};
  if (::gethostname(name.data(), name.size() - 1) != 0) return "unknown";
  std::string tag;
  for (const char* c = name.data(); *c != '\0' && tag.size() < 64; ++c) {
    const bool ok = (*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '-';
    tag += ok ? *c : '_';
  }
  return tag.empty() ? std::string("unknown") : tag;
}

// When the running process `pid` started, in seconds since the epoch (from /proc); nothing when
// it cannot be read.
std::optional<double> process_start_time_s(pid_t pid) {
  std::ifstream stat_file("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat_file, line)) return std::nullopt;
  const std::size_t close = line.rfind(')');  // the command name may hold spaces and ')'
  if (close == std::string::npos) return std::nullopt;
  std::istringstream fields(line.substr(close + 2));
  std::string field;
  unsigned long long start_ticks = 0;
  for (int i = 3; i <= 22 && fields >> field; ++i) {  // field 22: starttime, in clock ticks after boot
    if (i == 22) start_ticks = std::strtoull(field.c_str(), nullptr, 10);
  }
  std::ifstream boot_file("/proc/stat");
  std::string key;
  long long boot_s = -1;
  while (boot_file >> key) {
    if (key == "btime") {
      boot_file >> boot_s;
      break;
    }
  }
  const long ticks = ::sysconf(_SC_CLK_TCK);
  if (boot_s < 0 || ticks <= 0 || start_ticks == 0) return std::nullopt;
  return static_cast<double>(boot_s) + static_cast<double>(start_ticks) / static_cast<double>(ticks);
}

// What to do with a file named like one of our temporaries for the same target.
enum class StaleVerdict { stale, running, foreign };

// `rest` is what follows "." + name + ".tmp." : "<host>.<pid>.<6 characters>" for a temporary
// of this version. Stale (ours and dead): our host, and process <pid> is gone or started after
// the file was last written (its pid was reused). Running: our host and a process that may be
// its writer. Foreign: another host, or a name without host and pid (an older version).
StaleVerdict judge_temporary(const std::string& rest, const fs::path& file, const std::string& host) {
  const std::size_t last = rest.rfind('.');
  if (last == std::string::npos || rest.size() - last - 1 != 6) return StaleVerdict::foreign;
  const std::size_t before = rest.rfind('.', last - 1);
  if (before == std::string::npos || before == 0) return StaleVerdict::foreign;
  const std::string pid_text = rest.substr(before + 1, last - before - 1);
  if (rest.substr(0, before) != host) return StaleVerdict::foreign;
  if (pid_text.empty() || pid_text.size() > 10 || pid_text.find_first_not_of("0123456789") != std::string::npos) {
    return StaleVerdict::foreign;
  }
  const long long pid_value = std::stoll(pid_text);
  if (pid_value <= 0 || pid_value > std::numeric_limits<pid_t>::max()) return StaleVerdict::foreign;
  const auto pid = static_cast<pid_t>(pid_value);
  if (pid == ::getpid()) return StaleVerdict::running;  // another writer of this process
  if (::kill(pid, 0) != 0 && errno == ESRCH) return StaleVerdict::stale;
  struct stat st {};
  const auto started = process_start_time_s(pid);
  if (started && ::lstat(file.c_str(), &st) == 0 && *started > static_cast<double>(st.st_mtime) + 2.0) {
    return StaleVerdict::stale;  // that pid now belongs to a process younger than the file
  }
  return StaleVerdict::running;
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

void AtomicOutputStream::sweep_stale_temporaries(const fs::path& dir, const std::string& prefix,
                                                 const std::string& host) {
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) continue;
    switch (judge_temporary(name.substr(prefix.size()), it->path(), host)) {
      case StaleVerdict::stale:
        if (::unlink(it->path().c_str()) == 0) {
          m_stale_removed.push_back(it->path().string());
        } else if (errno != ENOENT) {  // ENOENT: another run removed it first
          m_stale_kept.push_back(it->path().string() + " (cannot remove: " + std::strerror(errno) + ")");
        }
        break;
      case StaleVerdict::foreign:
        m_stale_kept.push_back(it->path().string() + " (not from a run on this host: left alone)");
        break;
      case StaleVerdict::running: break;  // a writer that may still be running
    }
  }
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
    const bool exists = ::stat(m_target.c_str(), &st) == 0;
    if (exists && S_ISDIR(st.st_mode)) {
      return Status::io_error("cannot write the report to '" + m_target + "': " + std::strerror(EISDIR) +
                              " (give a file name, or - for standard output)");
    }
    if (exists && (S_ISSOCK(st.st_mode) || S_ISBLK(st.st_mode))) {
      return Status::io_error("cannot write the report to '" + m_target + "': it is a " +
                              (S_ISSOCK(st.st_mode) ? "socket" : "block device") +
                              " (a report goes to a regular file, a character device, a FIFO or - for standard "
                              "output)");
    }
    if (exists && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))) {
      m_fd = ::open(m_target.c_str(), O_WRONLY | O_CLOEXEC);
      if (m_fd < 0) return fail("cannot open", m_target, errno);
    } else {
      const fs::path target(m_target);
      const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
      const std::string host = host_tag();
      sweep_stale_temporaries(dir, "." + target.filename().string() + ".tmp.", host);
      std::string tmpl =
          (dir / ("." + target.filename().string() + ".tmp." + host + "." + std::to_string(::getpid()) + ".XXXXXX"))
              .string();
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
  pause_point("output-commit");  // tests: the temporary holds the whole report, not yet renamed
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
