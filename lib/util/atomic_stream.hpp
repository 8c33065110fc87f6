// A report written as a stream that a reader only ever sees whole: the streaming sibling of
// util/atomic_file. The destination decides how it is written:
//   "" or "-"            standard output, written through;
//   a character device   written through directly (/dev/null, /dev/stdout, a terminal);
//   or a FIFO
//   a symlink            followed to its final target, which is then handled as below;
//   a directory, socket  an error (io_error naming the path and what it is)
//   or block device
//   anything else        a temporary file beside the target (".<name>.tmp.<host>.<pid>.XXXXXX"),
//                        fsynced and renamed over the target by commit(); never seen half-written.
// A writer destroyed without a successful commit() removes its temporary file and leaves the
// target as it was (a stream written through cannot be taken back).
//
// Every error names the path and the OS reason (strerror): open, write (the first failed write
// is kept and reported by commit()), fsync, close, rename. Not thread-safe; one writer per output.
//
// A SIGINT, SIGTERM or SIGHUP whose action is the default one removes the live temporaries before
// it ends the process (a handler is installed on the first temporary; a program's own handler or
// SIG_IGN is left alone).
//
// A SIGKILL leaves its temporary behind. open() of a file target therefore looks for temporaries
// of the same target (".<name>.tmp.*" beside it) and removes those that are ours and stale: made
// on this host (the <host> part) by a process <pid> that is gone, or whose pid now belongs to a
// process started after the file was last written. A temporary of a live writer is left alone
// silently; one from another host or without host and pid in its name is left alone and listed
// in stale_kept() (the tools print both lists on stderr).
#pragma once

#include <array>
#include <filesystem>
#include <ostream>
#include <streambuf>
#include <string>
#include <vector>

#include "util/status.hpp"

namespace moonquota::util {

class AtomicOutputStream {
 public:
  AtomicOutputStream();
  ~AtomicOutputStream();
  AtomicOutputStream(const AtomicOutputStream&) = delete;
  AtomicOutputStream& operator=(const AtomicOutputStream&) = delete;

  // Opens `path` as described above. Errors: io_error naming the path (cannot resolve the
  // symlink, cannot create the temporary, cannot open the device), invalid_argument when a
  // writer is opened twice.
  [[nodiscard]] Status open(const std::string& path);

  // The stream to write the report to; valid after a successful open().
  [[nodiscard]] std::ostream& stream() { return m_stream; }

  // Flushes and, for a file, fsyncs, closes and renames the temporary over the target. Reports
  // the first write error. After an error the temporary is gone and the target untouched.
  [[nodiscard]] Status commit();

  // The path written to at the end ("-" for standard output).
  [[nodiscard]] const std::string& target() const { return m_target; }

  // Stale temporaries of the target that open() removed, and those it left alone (each with why).
  [[nodiscard]] const std::vector<std::string>& stale_removed() const { return m_stale_removed; }
  [[nodiscard]] const std::vector<std::string>& stale_kept() const { return m_stale_kept; }

 private:
  // A buffered streambuf over a POSIX descriptor that remembers the first errno of a write.
  class FdBuffer : public std::streambuf {
   public:
    FdBuffer();
    void attach(int fd) { m_fd = fd; }
    [[nodiscard]] int error() const { return m_errno; }
    [[nodiscard]] bool flush_all();

   protected:
    int_type overflow(int_type ch) override;
    int sync() override;
    std::streamsize xsputn(const char* data, std::streamsize count) override;

   private:
    bool write_all(const char* data, std::size_t count);
    int m_fd = -1;
    int m_errno = 0;
    std::array<char, 1 << 16> m_buffer{};
  };

  [[nodiscard]] Status fail(const std::string& what, std::string path, int error_number);
  void abandon();
  void sweep_stale_temporaries(const std::filesystem::path& dir, const std::string& prefix, const std::string& host);

  FdBuffer m_buffer;
  std::ostream m_stream;
  std::string m_target;  // final path ("-": stdout), symlinks resolved
  std::string m_temp;    // temporary file; empty when written through
  int m_temp_slot = -1;  // its slot in the SIGINT/SIGTERM/SIGHUP clean-up list
  int m_fd = -1;
  bool m_owns_fd = false;  // false for stdout
  bool m_open = false;
  std::vector<std::string> m_stale_removed;
  std::vector<std::string> m_stale_kept;
};

}  // namespace moonquota::util
