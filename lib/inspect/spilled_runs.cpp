#include "inspect/spilled_runs.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <queue>
#include <tuple>

namespace moonquota::inspect {

namespace {

constexpr std::size_t k_read_buffer = 16 * 1024;  // per run during the merge: 16 MiB for 1024 runs

std::string errno_text() { return std::strerror(errno); }

void put_varint(std::vector<std::uint8_t>& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<std::uint8_t>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<std::uint8_t>(v));
}

// Streams one run back: pread in chunks, decodes varint deltas.
class RunReader {
 public:
  RunReader(int fd, std::uint64_t offset, std::uint64_t bytes, std::uint64_t count)
      : m_fd(fd), m_next(offset), m_left(bytes), m_count(count) {}

  // false at the end of the run; an error Status when the file cannot be read or is inconsistent.
  util::Result<bool> next(std::uint64_t& value) {
    if (m_count == 0) return false;
    std::uint64_t delta = 0;
    for (unsigned shift = 0;; shift += 7) {
      if (m_pos == m_buffer.size()) MQ_RETURN_IF_ERROR(refill());
      const std::uint8_t b = m_buffer[m_pos++];
      if (shift > 63) return util::Status::internal("spilled run: varint too long");
      delta |= static_cast<std::uint64_t>(b & 0x7f) << shift;
      if ((b & 0x80) == 0) break;
    }
    m_value += delta;
    value = m_value;
    --m_count;
    return true;
  }

 private:
  util::Status refill() {
    if (m_left == 0) return util::Status::internal("spilled run ends early");
    const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(m_left, k_read_buffer));
    m_buffer.resize(want);
    std::size_t got = 0;
    while (got < want) {
      const ssize_t n = ::pread(m_fd, m_buffer.data() + got, want - got, static_cast<off_t>(m_next + got));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0)
        return util::Status::io_error("reading verify's temporary file: " + (n < 0 ? errno_text() : "short read"));
      got += static_cast<std::size_t>(n);
    }
    m_next += want;
    m_left -= want;
    m_pos = 0;
    return {};
  }

  int m_fd;
  std::uint64_t m_next;
  std::uint64_t m_left;
  std::uint64_t m_count;
  std::uint64_t m_value = 0;
  std::vector<std::uint8_t> m_buffer;
  std::size_t m_pos = 0;
};

}  // namespace

SpilledRuns::SpilledRuns(std::uint32_t slots, std::string temp_dir) : m_temp_dir(std::move(temp_dir)), m_runs(slots) {
  if (m_temp_dir.empty()) {
    const char* env = std::getenv("TMPDIR");
    m_temp_dir = env != nullptr && *env != '\0' ? env : "/tmp";
  }
}

SpilledRuns::~SpilledRuns() {
  if (m_fd >= 0) ::close(m_fd);
}

util::Status SpilledRuns::open_file() {
#ifdef O_TMPFILE
  m_fd = ::open(m_temp_dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (m_fd >= 0) return {};
#endif
  std::string pattern = m_temp_dir + "/moonquota-verify-XXXXXX";
  m_fd = ::mkstemp(pattern.data());
  if (m_fd < 0) {
    return util::Status::io_error("cannot create a temporary file in " + m_temp_dir + ": " + errno_text());
  }
  ::unlink(pattern.c_str());
  return {};
}

bool SpilledRuns::add_run(std::uint32_t slot, std::uint64_t sequence, const std::vector<std::uint64_t>& sorted) {
  std::lock_guard lock(m_mutex);
  if (!m_status.ok() || slot >= m_runs.size()) return false;
  Run& run = m_runs[slot];
  if (run.present && run.sequence > sequence) return false;
  if (m_fd < 0) {
    m_status = open_file();
    if (!m_status.ok()) return false;
  }
  m_scratch.clear();
  std::uint64_t previous = 0;
  for (std::uint64_t v : sorted) {
    put_varint(m_scratch, v - previous);
    previous = v;
  }
  std::size_t done = 0;
  while (done < m_scratch.size()) {
    const ssize_t n =
        ::pwrite(m_fd, m_scratch.data() + done, m_scratch.size() - done, static_cast<off_t>(m_end + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      m_status = util::Status::io_error("writing verify's temporary file in " + m_temp_dir + ": " +
                                        (n < 0 ? errno_text() : "no space"));
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  run = Run{true, sequence, m_end, m_scratch.size(), sorted.size()};
  m_end += m_scratch.size();
  return true;
}

util::Status SpilledRuns::status() const {
  std::lock_guard lock(m_mutex);
  return m_status;
}

util::Result<RepeatedValues> SpilledRuns::repeated(bool within_run, std::size_t max_kept) const {
  std::lock_guard lock(m_mutex);
  MQ_RETURN_IF_ERROR(m_status);
  std::vector<RunReader> readers;
  std::vector<std::uint32_t> slot_of;
  using Head = std::tuple<std::uint64_t, std::uint32_t>;  // value, reader
  std::priority_queue<Head, std::vector<Head>, std::greater<>> heap;
  for (std::uint32_t s = 0; s < m_runs.size(); ++s) {
    const Run& run = m_runs[s];
    if (!run.present || run.count == 0) continue;
    readers.emplace_back(m_fd, run.offset, run.bytes, run.count);
    slot_of.push_back(s);
  }
  for (std::uint32_t r = 0; r < readers.size(); ++r) {
    std::uint64_t v = 0;
    MQ_ASSIGN_OR_RETURN(bool has, readers[r].next(v));
    if (has) heap.emplace(v, r);
  }
  RepeatedValues out;
  bool have_last = false;
  bool last_counted = false;
  std::uint64_t last_value = 0;
  std::uint32_t last_reader = 0;
  while (!heap.empty()) {
    const auto [value, reader] = heap.top();
    heap.pop();
    if (have_last && value == last_value && (reader != last_reader || within_run)) {
      if (!last_counted) {
        ++out.total;
        last_counted = true;
      }
      auto it = out.values.find(value);
      if (it == out.values.end() && out.values.size() < max_kept)
        it = out.values.emplace(value, std::set<std::uint32_t>{}).first;
      if (it != out.values.end()) {
        it->second.insert(slot_of[last_reader]);
        it->second.insert(slot_of[reader]);
      }
    } else if (!have_last || value != last_value) {
      last_counted = false;
    }
    have_last = true;
    last_value = value;
    last_reader = reader;
    std::uint64_t v = 0;
    MQ_ASSIGN_OR_RETURN(bool has, readers[reader].next(v));
    if (has) heap.emplace(v, reader);
  }
  return out;
}

}  // namespace moonquota::inspect
