// A report written as a stream that a reader only ever sees whole: the streaming sibling of
// util/atomic_file. The destination decides how it is written:
//   "" or "-"            standard output, written through;
//   a character device   written through directly (/dev/null, /dev/stdout, a terminal);
//   or a FIFO
//   a symlink            followed to its final target, which is then handled as below;
//   anything else        a temporary file beside the target ("." + name + ".tmp.XXXXXX"), fsynced
//                        and renamed over the target by commit(); never seen half-written.
// A writer destroyed without a successful commit() removes its temporary file and leaves the
// target as it was (a stream written through cannot be taken back).
//
// Every error names the path and the OS reason (strerror): open, write (the first failed write
// is kept and reported by commit()), fsync, close, rename. Not thread-safe; one writer per output.
//
// A SIGINT or SIGTERM whose action is the default one removes the live temporaries before it
// ends the process (a handler is installed on the first temporary; a program's own handler or
// SIG_IGN is left alone).
#pragma once

#include <array>
#include <ostream>
#include <streambuf>
#include <string>

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

  FdBuffer m_buffer;
  std::ostream m_stream;
  std::string m_target;  // final path ("-": stdout), symlinks resolved
  std::string m_temp;    // temporary file; empty when written through
  int m_temp_slot = -1;  // its slot in the SIGINT/SIGTERM clean-up list
  int m_fd = -1;
  bool m_owns_fd = false;  // false for stdout
  bool m_open = false;
};

}  // namespace moonquota::util
