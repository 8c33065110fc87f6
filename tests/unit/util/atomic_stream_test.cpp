#include "util/atomic_stream.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "support/run_tool.hpp"
#include "support/snapshot_test_support.hpp"

namespace moonquota::util {
namespace {

namespace fs = std::filesystem;
using test::read_file;
using test::TempDir;

std::size_t entries_in(const fs::path& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++n;
  return n;
}

TEST(AtomicOutputStream, CommittedOutputAppearsWhole) {
  TempDir dir;
  const std::string path = (dir.path() / "report.txt").string();
  test::write_file(fs::path(path), "old report\n");
  AtomicOutputStream out;
  ASSERT_TRUE(out.open(path).ok());
  const std::string big(300'000, 'x');  // more than the buffer: several writes
  out.stream() << "head\n" << big << "\ntail\n";
  EXPECT_EQ(read_file(path), "old report\n");  // not replaced before commit
  ASSERT_TRUE(out.commit().ok());
  EXPECT_EQ(read_file(path), "head\n" + big + "\ntail\n");
  EXPECT_EQ(entries_in(dir.path()), 1u);  // no temporary left beside it
}

TEST(AtomicOutputStream, AbandonedWriterLeavesNoFileAndNoTemporary) {
  TempDir dir;
  const fs::path path = dir.path() / "report.json";
  {
    AtomicOutputStream out;
    ASSERT_TRUE(out.open(path.string()).ok());
    out.stream() << "{\"partial\":";
    out.stream().flush();
    EXPECT_EQ(entries_in(dir.path()), 1u);  // the temporary exists while writing
  }
  EXPECT_FALSE(fs::exists(path));
  EXPECT_EQ(entries_in(dir.path()), 0u);
}

TEST(AtomicOutputStream, AbandonedWriterKeepsTheOldTarget) {
  TempDir dir;
  const std::string path = (dir.path() / "report.txt").string();
  test::write_file(fs::path(path), "old");
  {
    AtomicOutputStream out;
    ASSERT_TRUE(out.open(path).ok());
    out.stream() << "new";
  }
  EXPECT_EQ(read_file(path), "old");
  EXPECT_EQ(entries_in(dir.path()), 1u);
}

TEST(AtomicOutputStream, WriteErrorNamesThePathAndTheOsReason) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  AtomicOutputStream out;
  ASSERT_TRUE(out.open("/dev/full").ok());  // a character device is written through
  out.stream() << std::string(200'000, 'x');
  const Status s = out.commit();
  EXPECT_EQ(s.code(), StatusCode::io_error);
  EXPECT_EQ(s.message(), "cannot write '/dev/full': No space left on device");
}

TEST(AtomicOutputStream, OpenErrorNamesThePathAndTheOsReason) {
  TempDir dir;
  const std::string path = (dir.path() / "missing-dir" / "report.txt").string();
  AtomicOutputStream out;
  const Status s = out.open(path);
  EXPECT_EQ(s.code(), StatusCode::io_error);
  EXPECT_EQ(s.message(), "cannot create a temporary file for '" + path + "': No such file or directory");
}

TEST(AtomicOutputStream, SymlinkIsFollowedToItsTarget) {
  TempDir dir;
  const fs::path target = dir.path() / "real.txt";
  const fs::path link = dir.path() / "link.txt";
  test::write_file(target, "old");
  fs::create_symlink("real.txt", link);
  AtomicOutputStream out;
  ASSERT_TRUE(out.open(link.string()).ok());
  out.stream() << "new";
  ASSERT_TRUE(out.commit().ok());
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(read_file(target), "new");
}

// A stop signal mid-write (SIGTERM from a deadline, SIGHUP from a closed terminal) removes the
// temporary before the process dies of it.
void expect_signal_removes_the_temporary(int signal_number) {
  TempDir dir;
  const fs::path path = dir.path() / "report.txt";
  EXPECT_EXIT(
      {
        AtomicOutputStream out;
        if (!out.open(path.string()).ok()) std::_Exit(3);
        out.stream() << "partial";
        out.stream().flush();
        if (entries_in(dir.path()) != 1) std::_Exit(4);  // the temporary exists
        ::raise(signal_number);
        std::_Exit(5);
      },
      ::testing::KilledBySignal(signal_number), "");
  EXPECT_EQ(entries_in(dir.path()), 0u);
}

TEST(AtomicOutputStream, SigtermRemovesTheTemporary) { expect_signal_removes_the_temporary(SIGTERM); }

TEST(AtomicOutputStream, SighupRemovesTheTemporary) { expect_signal_removes_the_temporary(SIGHUP); }

TEST(AtomicOutputStream, DirectoryAndSocketTargetsAreClearErrors) {
  TempDir dir;
  AtomicOutputStream to_dir;
  const Status d = to_dir.open(dir.str());
  EXPECT_EQ(d.code(), StatusCode::io_error);
  EXPECT_EQ(d.message(), "cannot write the report to '" + dir.str() +
                             "': Is a directory (give a file name, or - for standard output)");

  const fs::path socket_path = dir.path() / "s.sock";
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  ASSERT_LT(socket_path.string().size(), sizeof(addr.sun_path));
  std::strcpy(addr.sun_path, socket_path.c_str());
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  AtomicOutputStream to_socket;
  const Status s = to_socket.open(socket_path.string());
  ::close(fd);
  EXPECT_EQ(s.code(), StatusCode::io_error);
  EXPECT_NE(s.message().find("it is a socket"), std::string::npos) << s.message();
  EXPECT_TRUE(fs::is_socket(socket_path));  // untouched
  EXPECT_EQ(entries_in(dir.path()), 1u);
}

// The host part of our temporaries' names, as atomic_stream.cpp builds it.
std::string host_tag() {
  std::array<char, 256> name{};
  if (::gethostname(name.data(), name.size() - 1) != 0) return "unknown";
  std::string tag;
  for (const char* c = name.data(); *c != '\0' && tag.size() < 64; ++c) {
    tag += (std::isalnum(static_cast<unsigned char>(*c)) != 0 || *c == '-') ? *c : '_';
  }
  return tag.empty() ? std::string("unknown") : tag;
}

// A pid that is certainly dead: a child that exited and was reaped.
pid_t dead_pid() {
  const pid_t pid = fork();
  if (pid == 0) _exit(0);
  int status = 0;
  waitpid(pid, &status, 0);
  return pid;
}

TEST(AtomicOutputStream, StaleTemporaryOfADeadRunIsRemovedOnOpen) {
  TempDir dir;
  const fs::path path = dir.path() / "report.txt";
  const fs::path stale = dir.path() / (".report.txt.tmp." + host_tag() + "." + std::to_string(dead_pid()) + ".Ab12Cd");
  const fs::path live = dir.path() / (".report.txt.tmp." + host_tag() + "." + std::to_string(::getppid()) + ".Ab12Cd");
  const fs::path other_host = dir.path() / ".report.txt.tmp.elsewhere.1.Ab12Cd";
  const fs::path legacy = dir.path() / ".report.txt.tmp.Zz99Yy";
  const fs::path other_target =
      dir.path() / (".other.txt.tmp." + host_tag() + "." + std::to_string(dead_pid()) + ".Ab12Cd");
  for (const auto& p : {stale, live, other_host, legacy, other_target}) test::write_file(p, "partial");
  AtomicOutputStream out;
  ASSERT_TRUE(out.open(path.string()).ok());
  out.stream() << "new";
  ASSERT_TRUE(out.commit().ok());
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_TRUE(fs::exists(live));  // its writer (our parent) is alive and older than the file
  EXPECT_TRUE(fs::exists(other_host));
  EXPECT_TRUE(fs::exists(legacy));
  EXPECT_TRUE(fs::exists(other_target));  // another target's temporary is not ours to judge
  ASSERT_EQ(out.stale_removed().size(), 1u);
  EXPECT_EQ(out.stale_removed()[0], stale.string());
  ASSERT_EQ(out.stale_kept().size(), 2u);  // named, not removed: another host, an older naming
  EXPECT_EQ(read_file(path.string()), "new");
}

TEST(AtomicOutputStream, StaleTemporaryWhosePidWasReusedIsRemoved) {
  TempDir dir;
  const fs::path path = dir.path() / "report.txt";
  // A live process started after the temporary was last written cannot have written it.
  const pid_t child = fork();
  if (child == 0) {
    ::pause();
    _exit(0);
  }
  const fs::path stale = dir.path() / (".report.txt.tmp." + host_tag() + "." + std::to_string(child) + ".Ab12Cd");
  test::write_file(stale, "partial");
  const std::array<timespec, 2> an_hour_ago = {timespec{::time(nullptr) - 3600, 0},
                                               timespec{::time(nullptr) - 3600, 0}};
  ASSERT_EQ(::utimensat(AT_FDCWD, stale.c_str(), an_hour_ago.data(), 0), 0);
  AtomicOutputStream out;
  const Status opened = out.open(path.string());
  ::kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(opened.ok()) << opened.message();
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_EQ(out.stale_removed().size(), 1u);
}

// --- the same through a real tool's --output (tools/tool_common.cpp) --------------------------

const std::vector<std::string> k_export_args = {
    "export", "--oplog-file", test::source_path("testdata/oplog/worked-batch.jsonl"), "--cluster-id", "prod-a"};

std::vector<std::string> export_to(const std::string& output) {
  auto args = k_export_args;
  args.push_back("--output");
  args.push_back(output);
  return args;
}

std::string expected_export() {
  auto run = test::run_tool("oplog-inspect", k_export_args);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_FALSE(run.out.empty());
  return run.out;
}

TEST(AtomicOutputTool, DevNullStaysACharacterDevice) {
  auto run = test::run_tool("oplog-inspect", export_to("/dev/null"));
  EXPECT_EQ(run.exit_code, 0) << run.err;
  struct stat st {};
  ASSERT_EQ(::stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
}

TEST(AtomicOutputTool, SymlinkIsKeptAndItsTargetReplaced) {
  TempDir dir;
  fs::create_directories(dir.path() / "real");
  test::write_file(dir.path() / "real" / "out.jsonl", "old");
  fs::create_symlink("real/out.jsonl", dir.path() / "link.jsonl");
  auto run = test::run_tool("oplog-inspect", export_to((dir.path() / "link.jsonl").string()));
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(fs::is_symlink(dir.path() / "link.jsonl"));
  EXPECT_EQ(fs::read_symlink(dir.path() / "link.jsonl"), fs::path("real/out.jsonl"));
  EXPECT_EQ(read_file((dir.path() / "real" / "out.jsonl").string()), expected_export());
  EXPECT_EQ(entries_in(dir.path() / "real"), 1u);
}

TEST(AtomicOutputTool, FifoIsWrittenThrough) {
  TempDir dir;
  const fs::path fifo = dir.path() / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string received;
  std::thread reader([&] {
    std::ifstream in(fifo, std::ios::binary);  // blocks until the tool opens the FIFO
    std::stringstream ss;
    ss << in.rdbuf();
    received = ss.str();
  });
  auto run = test::run_tool("oplog-inspect", export_to(fifo.string()));
  reader.join();
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(received, expected_export());
  struct stat st {};
  ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  EXPECT_EQ(entries_in(dir.path()), 1u);
}

// Runs oplog-inspect with `args` in `cwd`, with MOONQUOTA_TEST_PAUSE_AT=`pause_at` when not
// empty, stdout and stderr into files of `cwd`; returns the pid (stopped at the pause point when
// one is given: the caller waits for it).
pid_t spawn_tool(const fs::path& cwd, const std::vector<std::string>& args, const std::string& pause_at) {
  const std::string binary = test::binary_path("tools/oplog-inspect");
  const pid_t pid = fork();
  if (pid == 0) {
    if (::chdir(cwd.c_str()) != 0) _exit(126);
    const int out = ::open("stdout.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err = ::open("stderr.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(out, 1);
    ::dup2(err, 2);
    std::vector<std::string> text = args;
    text.insert(text.begin(), binary);
    std::vector<char*> argv;
    for (auto& a : text) argv.push_back(a.data());
    argv.push_back(nullptr);
    if (!pause_at.empty()) ::setenv("MOONQUOTA_TEST_PAUSE_AT", pause_at.c_str(), 1);
    ::execv(binary.c_str(), argv.data());
    _exit(127);
  }
  return pid;
}

TEST(AtomicOutputTool, DashWritesStdoutAndCreatesNoFile) {
  TempDir dir;
  const pid_t pid = spawn_tool(dir.path(), export_to("-"), "");
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << read_file((dir.path() / "stderr.txt").string());
  EXPECT_FALSE(fs::exists(dir.path() / "-"));
  EXPECT_EQ(read_file((dir.path() / "stdout.txt").string()), expected_export());
  EXPECT_EQ(entries_in(dir.path()), 2u);  // stdout.txt, stderr.txt
}

TEST(AtomicOutputTool, DirectoryAndSocketAreClearErrors) {
  TempDir dir;
  auto to_dir = test::run_tool("oplog-inspect", export_to(dir.str()));
  EXPECT_EQ(to_dir.exit_code, 3);
  EXPECT_NE(to_dir.err.find("oplog-inspect: cannot write the report to '" + dir.str() + "': Is a directory"),
            std::string::npos)
      << to_dir.err;
  const fs::path socket_path = dir.path() / "s.sock";
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strcpy(addr.sun_path, socket_path.c_str());
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  auto to_socket = test::run_tool("oplog-inspect", export_to(socket_path.string()));
  ::close(fd);
  EXPECT_EQ(to_socket.exit_code, 3);
  EXPECT_NE(to_socket.err.find("it is a socket"), std::string::npos) << to_socket.err;
  EXPECT_TRUE(fs::is_socket(socket_path));
  EXPECT_EQ(entries_in(dir.path()), 1u);
}

// Stops the tool where its temporary holds the whole report, then delivers `signal_number`.
TEST(AtomicOutputTool, InterruptedRunLeavesNoTemporary) {
  for (const int signal_number : {SIGINT, SIGTERM, SIGHUP}) {
    TempDir dir;
    fs::create_directories(dir.path() / "out");
    const pid_t pid = spawn_tool(dir.path(), export_to("out/export.jsonl"), "output-commit");
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, WUNTRACED), pid);
    ASSERT_TRUE(WIFSTOPPED(status)) << "the tool never reached its pause point (status " << status << ")";
    EXPECT_EQ(entries_in(dir.path() / "out"), 1u) << "the temporary exists while the tool writes";
    ::kill(pid, signal_number);
    ::kill(pid, SIGCONT);
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == signal_number) << strsignal(signal_number);
    EXPECT_EQ(entries_in(dir.path() / "out"), 0u) << strsignal(signal_number) << " left a temporary";
  }
}

TEST(AtomicOutputTool, TemporaryOfAKilledRunIsRemovedByTheNextRun) {
  TempDir dir;
  fs::create_directories(dir.path() / "out");
  const pid_t pid = spawn_tool(dir.path(), export_to("out/export.jsonl"), "output-commit");
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, WUNTRACED), pid);
  ASSERT_TRUE(WIFSTOPPED(status));
  ::kill(pid, SIGKILL);
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_EQ(entries_in(dir.path() / "out"), 1u) << "SIGKILL cannot be caught: the temporary stays";
  const std::string left = fs::directory_iterator(dir.path() / "out")->path().filename().string();
  auto next = test::run_tool("oplog-inspect", export_to((dir.path() / "out" / "export.jsonl").string()));
  EXPECT_EQ(next.exit_code, 0) << next.err;
  EXPECT_NE(next.err.find("removed a temporary file left by a killed earlier run: "), std::string::npos) << next.err;
  EXPECT_NE(next.err.find(left), std::string::npos) << next.err;
  EXPECT_EQ(entries_in(dir.path() / "out"), 1u);  // only the report
  EXPECT_EQ(read_file((dir.path() / "out" / "export.jsonl").string()), expected_export());
}

}  // namespace
}  // namespace moonquota::util
