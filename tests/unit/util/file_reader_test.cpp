// FileReader and read_small_file over short, missing and shrinking files: exact reads that name
// the byte offset, length claims beyond the file refused before any allocation, the size guard,
// a FIFO refused without waiting for a writer.
#include "util/file_reader.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <future>
#include <string>

#include "support/snapshot_test_support.hpp"

namespace moonquota::util {
namespace {

namespace fs = std::filesystem;

const std::string k_content = "0123456789abcdef";

class FileReaderTest : public ::testing::Test {
 protected:
  std::string write(const std::string& name, const std::string& bytes) {
    const fs::path p = m_tmp.path() / name;
    test::write_file(p, bytes);
    return p.string();
  }
  test::TempDir m_tmp;
};

TEST_F(FileReaderTest, ReadsExactlyAndTracksTheOffset) {
  const std::string path = write("f", k_content);
  FileReader r;
  ASSERT_TRUE(r.open(path).ok());
  EXPECT_EQ(r.name(), path);
  EXPECT_EQ(r.size(), 16u);
  std::string out = "x";
  ASSERT_TRUE(r.read_exact(3, &out).ok());
  EXPECT_EQ(out, "x012") << "appends";
  ASSERT_TRUE(r.read_exact(4, nullptr).ok());  // skipped
  EXPECT_EQ(r.offset(), 7u);
  EXPECT_EQ(r.remaining(), 9u);
  ByteBuffer buffer;
  ASSERT_TRUE(r.read_exact(5, buffer).ok());
  EXPECT_EQ(buffer.view(), "789ab");
  ASSERT_TRUE(r.read_exact(4, buffer).ok());
  EXPECT_EQ(buffer.view(), "cdef") << "replaces";
  EXPECT_EQ(r.remaining(), 0u);
  ASSERT_TRUE(r.read_exact(0, &out).ok());
  ASSERT_TRUE(r.read_exact(0, buffer).ok());
  EXPECT_EQ(buffer.view(), "");
}

// A file cut at every byte: the first read that does not fit names the end of the file, what it
// needed and where, and leaves the offset where it was.
TEST_F(FileReaderTest, ReportsACutAtEveryByte) {
  const std::uint64_t fields[] = {3, 4, 5, 4};  // 16 bytes in four reads
  for (std::size_t cut = 0; cut < k_content.size(); ++cut) {
    const std::string path = write("cut-" + std::to_string(cut), k_content.substr(0, cut));
    for (bool into_buffer : {false, true}) {
      FileReader r;
      ASSERT_TRUE(r.open(path).ok());
      std::uint64_t at = 0;
      Status failed;
      for (std::uint64_t n : fields) {
        std::string out;
        ByteBuffer buffer;
        failed = into_buffer ? r.read_exact(n, buffer) : r.read_exact(n, &out);
        if (!failed.ok()) {
          EXPECT_EQ(failed.code(), StatusCode::corruption);
          EXPECT_EQ(failed.message(), "'" + path + "' ends at byte " + std::to_string(cut) + ", " + std::to_string(n) +
                                          " bytes needed at byte offset " + std::to_string(at));
          EXPECT_EQ(r.offset(), at);
          EXPECT_TRUE(out.empty());
          break;
        }
        at += n;
      }
      EXPECT_FALSE(failed.ok()) << cut;
    }
  }
}

TEST_F(FileReaderTest, RefusesAHugeLengthWithoutAllocating) {
  const std::string path = write("f", k_content);
  FileReader r;
  ASSERT_TRUE(r.open(path).ok());
  ASSERT_TRUE(r.read_exact(1, nullptr).ok());
  std::string out;
  Status s = r.read_exact(UINT64_MAX, &out);
  EXPECT_EQ(s.code(), StatusCode::corruption);
  EXPECT_EQ(s.message(), "'" + path + "' ends at byte 16, 18446744073709551615 bytes needed at byte offset 1");
  ByteBuffer buffer;
  EXPECT_EQ(r.read_exact(UINT64_MAX, buffer).message(), s.message());
  EXPECT_EQ(r.read_exact(UINT64_MAX, nullptr).message(), s.message());
  EXPECT_EQ(r.offset(), 1u);
}

TEST_F(FileReaderTest, ReportsAFileThatShrinksWhileRead) {
  const std::string path = write("f", k_content);
  for (bool into_buffer : {false, true}) {
    test::write_file(path, k_content);
    FileReader r;
    ASSERT_TRUE(r.open(path).ok());
    ASSERT_TRUE(r.read_exact(2, nullptr).ok());
    fs::resize_file(path, 6);  // after open: the size the reader knows is stale
    std::string out = "keep";
    ByteBuffer buffer;
    Status s = into_buffer ? r.read_exact(10, buffer) : r.read_exact(10, &out);
    EXPECT_EQ(s.code(), StatusCode::io_error);
    EXPECT_EQ(s.message(), "cannot read '" + path + "' at byte offset 6: file shrank");
    EXPECT_EQ(out, "keep") << "the partial read is undone";
    EXPECT_EQ(r.offset(), 2u);
  }
}

TEST_F(FileReaderTest, NamesAMissingFileAndADirectory) {
  FileReader missing;
  const std::string none = (m_tmp.path() / "none").string();
  Status s = missing.open(none);
  EXPECT_EQ(s.code(), StatusCode::not_found);
  EXPECT_EQ(s.message(), "file not found: " + none);

  FileReader dir;
  s = dir.open(m_tmp.str());
  EXPECT_EQ(s.code(), StatusCode::io_error);
  EXPECT_EQ(s.message(), "'" + m_tmp.str() + "' is not a regular file");

  auto small = read_small_file(none, 100);
  ASSERT_FALSE(small.ok());
  EXPECT_EQ(small.status().code(), StatusCode::not_found);
}

TEST_F(FileReaderTest, ReadSmallFileGuardsItsLimit) {
  const std::string path = write("f", k_content);
  auto at_limit = read_small_file(path, 16);
  ASSERT_TRUE(at_limit.ok()) << at_limit.status().to_string();
  EXPECT_EQ(*at_limit, k_content);

  auto over = read_small_file(path, 15);
  ASSERT_FALSE(over.ok());
  EXPECT_EQ(over.status().code(), StatusCode::limit_exceeded);
  EXPECT_EQ(over.status().message(), "'" + path + "' is 16 bytes, more than the limit of 15");

  auto empty = read_small_file(write("empty", ""), 0);
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty());
}

// A FIFO nobody writes to (`--live-json f` where f was made by mkfifo, a scenario file that is a
// FIFO) is refused at once: open() without O_NONBLOCK waited for a writer forever.
TEST_F(FileReaderTest, AFifoWithoutAWriterIsRefusedWithoutBlocking) {
  const std::string path = (m_tmp.path() / "fifo").string();
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0) << std::strerror(errno);
  auto opened = std::async(std::launch::async, [&] {
    FileReader r;
    return r.open(path);
  });
  if (opened.wait_for(std::chrono::seconds(30)) != std::future_status::ready) {
    const int writer = ::open(path.c_str(), O_WRONLY | O_NONBLOCK);  // lets the blocked open() return
    if (writer >= 0) ::close(writer);
    opened.wait();
    FAIL() << "open() of a FIFO without a writer blocked";
  }
  const Status status = opened.get();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "'" + path + "' is not a regular file");
}

}  // namespace
}  // namespace moonquota::util
