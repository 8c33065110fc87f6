#include "util/atomic_stream.hpp"

#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <string>

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

TEST(AtomicOutputStream, SigtermRemovesTheTemporary) {
  TempDir dir;
  const fs::path path = dir.path() / "report.txt";
  EXPECT_EXIT(
      {
        AtomicOutputStream out;
        if (!out.open(path.string()).ok()) std::_Exit(3);
        out.stream() << "partial";
        out.stream().flush();
        if (entries_in(dir.path()) != 1) std::_Exit(4);  // the temporary exists
        ::raise(SIGTERM);
        std::_Exit(5);
      },
      ::testing::KilledBySignal(SIGTERM), "");
  EXPECT_EQ(entries_in(dir.path()), 0u);
}

}  // namespace
}  // namespace moonquota::util
