// ZstdStreamReader (the piece-by-piece read of one zstd payload that the streamed `segments`
// decode pulls from) against zstd_decompress_stream, the whole-payload read (the same reader in
// one piece), and both against the in-memory ZSTD_decompress of zstd_codec (an independent path:
// the same verdict, code and bytes; its messages are its own): the same bytes, and
// the same first error (code, and message but for zstd's own error name) on hostile frames: cut at every byte, a
// flipped bit at every byte, bytes after the frame, a second frame, declared sizes that disagree with the content, no
// content size, a size above the cap, a source whose read fails.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "support/segments_stream_support.hpp"
#include "util/byte_buffer.hpp"
#include "util/zstd_codec.hpp"
#include "util/zstd_file.hpp"

namespace moonquota::util {
namespace {

struct StreamOutcome {
  StatusCode code = StatusCode::ok;
  std::string message;
  std::string out;
  // zstd's own error names may differ between a piece-by-piece and a whole decompression of the
  // same damaged frame (snapshot_reader takes the message from the whole one); every message of
  // ours is the same.
  bool operator==(const StreamOutcome& o) const {
    const std::string zstd = "zstd decompression failed: ";
    const bool zstd_error = message.rfind(zstd, 0) == 0 && o.message.rfind(zstd, 0) == 0;
    return code == o.code && (message == o.message || zstd_error) && out == o.out;
  }
};

std::ostream& operator<<(std::ostream& os, const StreamOutcome& o) {
  return os << status_code_name(o.code) << " '" << o.message << "' " << o.out.size() << " bytes";
}

StreamOutcome whole(const std::string& frame, std::size_t max_bytes, std::size_t fail_at) {
  test::StringSource source(frame, fail_at);
  ByteBuffer out;
  Status s = zstd_decompress_stream(source, max_bytes, out);
  if (!s.ok()) return {s.code(), s.message(), {}};
  return {s.code(), s.message(), std::string(out.view())};
}

// Reads in pieces of `piece` bytes, then finish(); the output only counts when all succeeded.
StreamOutcome pieces(const std::string& frame, std::size_t max_bytes, std::size_t fail_at, std::size_t piece) {
  test::StringSource source(frame, fail_at);
  ZstdStreamReader reader(source);
  std::string out;
  Status s = reader.open(max_bytes);
  while (s.ok() && reader.produced() < reader.content_bytes()) {
    const std::uint64_t before = reader.produced();
    s = reader.read(piece, out);
    if (s.ok() && reader.produced() == before) break;  // cannot happen: read fills or fails
  }
  if (s.ok()) s = reader.finish();
  if (s.ok()) { EXPECT_EQ(reader.content_bytes(), out.size()); }
  if (!s.ok()) return {s.code(), s.message(), {}};
  return {s.code(), s.message(), out};
}

void expect_same(const std::string& frame, const std::string& what, std::size_t max_bytes = 1 << 26,
                 std::size_t fail_at = std::string::npos) {
  const StreamOutcome expected = whole(frame, max_bytes, fail_at);
  if (fail_at == std::string::npos) {
    ByteBuffer in_memory;
    const Status s = zstd_decompress(frame, max_bytes, in_memory);
    ASSERT_EQ(s.code(), expected.code) << what << ": in memory '" << s.message() << "', streamed " << expected;
    ASSERT_EQ(std::string(in_memory.view()), expected.out) << what;
  }
  for (std::size_t piece : {std::size_t{1}, std::size_t{7}, std::size_t{4096}, std::size_t{1} << 30}) {
    ASSERT_EQ(pieces(frame, max_bytes, fail_at, piece), expected) << what << ", pieces of " << piece;
  }
}

std::string text(std::size_t n, std::uint32_t seed) {
  std::string s;
  s.reserve(n);
  std::uint32_t x = seed;
  for (std::size_t i = 0; i < n; ++i) {
    x = x * 1103515245u + 12345u;
    s.push_back(static_cast<char>('a' + ((x >> 16) % 7)));
  }
  return s;
}

TEST(ZstdStreamReader, ReadsWhatTheWholeReadReads) {
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{100}, std::size_t{70000}}) {
    expect_same(zstd_compress(text(n, 1)), "size " + std::to_string(n));
  }
}

TEST(ZstdStreamReader, CrossesTheOneMiBSourceChunks) {
  // Incompressible enough that the frame spans several 1 MiB reads of the source.
  std::string raw;
  std::uint64_t x = 88172645463325252ULL;
  for (int i = 0; i < 3 << 20; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    raw.push_back(static_cast<char>(x));
  }
  const std::string frame = zstd_compress(raw, 1);
  ASSERT_GT(frame.size(), std::size_t{2} << 20);
  const StreamOutcome expected = whole(frame, 1 << 26, std::string::npos);
  ASSERT_EQ(expected.out, raw);
  for (std::size_t piece : {std::size_t{4096}, std::size_t{1} << 30}) {
    EXPECT_EQ(pieces(frame, 1 << 26, std::string::npos, piece), expected) << piece;
  }
  // A read failure of the source in the middle is that failure, as in the whole read.
  EXPECT_EQ(pieces(frame, 1 << 26, std::size_t{3} << 19, 4096), whole(frame, 1 << 26, std::size_t{3} << 19));
  EXPECT_EQ(whole(frame, 1 << 26, std::size_t{3} << 19).code, StatusCode::io_error);
  // Over the cap: refused before anything is decompressed.
  expect_same(frame, "capped", 1 << 20);
}

TEST(ZstdStreamReader, RefusesEveryCutAndEveryBitFlipAsTheWholeReadDoes) {
  const std::string frame = zstd_compress(text(3000, 7));
  for (std::size_t cut = 0; cut < frame.size(); ++cut) expect_same(frame.substr(0, cut), "cut " + std::to_string(cut));
  for (std::size_t byte = 0; byte < frame.size(); ++byte) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string damaged = frame;
      damaged[byte] = static_cast<char>(damaged[byte] ^ (1 << bit));
      expect_same(damaged, "byte " + std::to_string(byte) + " bit " + std::to_string(bit));
    }
  }
}

TEST(ZstdStreamReader, RefusesTrailingBytesASecondFrameAndDisagreeingSizes) {
  const std::string frame = zstd_compress(text(500, 3));
  expect_same(frame + "x", "one trailing byte");
  expect_same(frame + frame, "two frames");
  expect_same("", "empty");
  const std::string magic = "\x28\xb5\x2f\xfd";
  const std::string abc_block = std::string("\x19\x00\x00", 3) + "abc";
  for (int declared : {0, 1, 2, 3, 4, 5, 100}) {
    expect_same(magic + std::string(1, '\x20') + std::string(1, static_cast<char>(declared)) + abc_block,
                "declared " + std::to_string(declared));
  }
  expect_same(magic + std::string("\x00\x00", 2) + abc_block, "no content size");
}

}  // namespace
}  // namespace moonquota::util
