// The zstd codec over hostile frames: Mooncake's one-frame rules, the caller's size cap checked
// before any allocation, a cut at every byte, and both decompression targets agreeing.
#include "util/zstd_codec.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <string>

#include "util/byte_buffer.hpp"

namespace moonquota::util {
namespace {

std::string bytes(std::initializer_list<int> b) {
  std::string s;
  for (int x : b) s.push_back(static_cast<char>(x));
  return s;
}

const std::string k_magic = bytes({0x28, 0xb5, 0x2f, 0xfd});

// Hand-made frames around one raw block holding "abc" (block header: last, raw, 3 bytes).
const std::string k_abc_block = bytes({0x19, 0x00, 0x00}) + "abc";
// Single segment, 1-byte content size `declared`.
std::string frame_declaring(int declared) { return k_magic + bytes({0x20, declared}) + k_abc_block; }
// Single segment, 8-byte content size (little-endian).
std::string frame_declaring_u64(std::uint64_t declared) {
  std::string s = k_magic + bytes({0xe0});
  for (int i = 0; i < 8; ++i) s.push_back(static_cast<char>((declared >> (8 * i)) & 0xFF));
  return s + k_abc_block;
}
// No content size in the header (window descriptor instead), as a streaming writer may produce.
const std::string k_no_content_size = k_magic + bytes({0x00, 0x00}) + k_abc_block;

const std::string k_text = "tenant-a/key-0001 tenant-a/key-0002 tenant-a/key-0003 tenant-b/key-0001";

struct Outcome {
  StatusCode code = StatusCode::ok;
  std::string message;
  std::string out;
};

// Decompresses into both targets and checks they agree (code, message, output cleared on error).
Outcome decompress(std::string_view frame, std::size_t max_bytes) {
  std::string out = "stale";
  Status s = zstd_decompress(frame, max_bytes, out);
  ByteBuffer buffer;
  buffer.resize_uninitialized(5);
  Status b = zstd_decompress(frame, max_bytes, buffer);
  EXPECT_EQ(s.code(), b.code());
  EXPECT_EQ(s.message(), b.message());
  EXPECT_EQ(out, buffer.view());
  if (!s.ok()) { EXPECT_TRUE(out.empty()) << "the target is cleared on error"; }
  return {s.code(), s.message(), out};
}

TEST(ZstdCodec, RoundTripsOneFrameWithItsContentSize) {
  const std::string frame = zstd_compress(k_text);
  auto size = zstd_content_size(frame);
  ASSERT_TRUE(size.ok()) << size.status().to_string();
  EXPECT_EQ(*size, k_text.size());
  Outcome o = decompress(frame, k_text.size());  // the cap is inclusive
  EXPECT_EQ(o.code, StatusCode::ok) << o.message;
  EXPECT_EQ(o.out, k_text);
  EXPECT_TRUE(zstd_check_frame(frame, k_text.size()).ok());

  Outcome empty = decompress(zstd_compress(""), 0);
  EXPECT_EQ(empty.code, StatusCode::ok) << empty.message;
  EXPECT_TRUE(empty.out.empty());
}

TEST(ZstdCodec, DecodesAHandMadeRawBlockFrame) {
  Outcome o = decompress(frame_declaring(3), 3);
  EXPECT_EQ(o.code, StatusCode::ok) << o.message;
  EXPECT_EQ(o.out, "abc");
  EXPECT_TRUE(zstd_check_frame(frame_declaring(3), 3).ok());
}

TEST(ZstdCodec, ChecksTheDeclaredSizeAgainstTheCapBeforeAllocating) {
  Outcome over = decompress(frame_declaring(3), 2);
  EXPECT_EQ(over.code, StatusCode::limit_exceeded);
  EXPECT_EQ(over.message, "zstd content size 3 exceeds the limit of 2 bytes");
  // A claim of 1 TiB over a 6-byte body: refused by the cap, nothing allocated.
  Outcome huge = decompress(frame_declaring_u64(std::uint64_t{1} << 40), std::size_t{1} << 30);
  EXPECT_EQ(huge.code, StatusCode::limit_exceeded);
  EXPECT_EQ(huge.message, "zstd content size 1099511627776 exceeds the limit of 1073741824 bytes");
}

TEST(ZstdCodec, RejectsAFrameWithoutContentSize) {
  Outcome o = decompress(k_no_content_size, 1024);
  EXPECT_EQ(o.code, StatusCode::corruption);
  EXPECT_EQ(o.message, "zstd frame has no content size");
  EXPECT_EQ(zstd_content_size(k_no_content_size).status().message(), "zstd frame has no content size");
  EXPECT_EQ(zstd_check_frame(k_no_content_size, 3).message(), "zstd frame has no content size");
}

TEST(ZstdCodec, RejectsEmptyInputAndOtherMagic) {
  Outcome empty = decompress("", 1024);
  EXPECT_EQ(empty.code, StatusCode::corruption);
  EXPECT_EQ(empty.message, "empty zstd input");
  EXPECT_EQ(zstd_check_frame("", 0).message(), "empty zstd input");

  Outcome msgpack = decompress(bytes({0x81, 0xa8, 'm', 'e', 't', 'a'}), 1024);
  EXPECT_EQ(msgpack.code, StatusCode::corruption);
  EXPECT_EQ(msgpack.message, "not a zstd frame");
}

TEST(ZstdCodec, RejectsBytesAfterTheFirstFrame) {
  const std::string frame = zstd_compress(k_text);
  Outcome trailing = decompress(frame + "x", 1024);
  EXPECT_EQ(trailing.code, StatusCode::corruption);
  EXPECT_EQ(trailing.message, "zstd input holds 1 bytes after the first frame");
  Outcome two = decompress(frame + frame, 1024);
  EXPECT_EQ(two.code, StatusCode::corruption);
  EXPECT_EQ(two.message, "zstd input holds " + std::to_string(frame.size()) + " bytes after the first frame");
  EXPECT_EQ(zstd_check_frame(frame + "x", k_text.size()).message(), "zstd input is not exactly one complete frame");
}

TEST(ZstdCodec, RejectsContentThatDisagreesWithTheDeclaredSize) {
  // The header says 5 bytes, the block holds 3 (and the other way round).
  for (int declared : {2, 5}) {
    Outcome o = decompress(frame_declaring(declared), 1024);
    EXPECT_EQ(o.code, StatusCode::corruption) << declared;
    EXPECT_EQ(o.message.rfind("zstd decompression failed: ", 0), 0u) << o.message;
    Status check = zstd_check_frame(frame_declaring(declared), static_cast<std::uint64_t>(declared));
    EXPECT_EQ(check.code(), StatusCode::corruption) << declared;
  }
  EXPECT_EQ(zstd_check_frame(frame_declaring(3), 4).message(), "zstd content size 3, expected 4");
}

// Every proper prefix of a valid frame is refused with a corruption code: an incomplete header is
// "not a zstd frame", a complete header over missing blocks is a truncated frame.
TEST(ZstdCodec, RejectsACutAtEveryByte) {
  const std::string frame = zstd_compress(k_text);
  std::size_t header_bytes = 0;
  while (!zstd_content_size(frame.substr(0, header_bytes)).ok()) ++header_bytes;
  EXPECT_GE(header_bytes, 5u);
  for (std::size_t cut = 0; cut < frame.size(); ++cut) {
    const std::string_view prefix = std::string_view(frame).substr(0, cut);
    Outcome o = decompress(prefix, 1024);
    EXPECT_EQ(o.code, StatusCode::corruption) << cut;
    if (cut == 0) {
      EXPECT_EQ(o.message, "empty zstd input");
    } else if (cut < header_bytes) {
      EXPECT_EQ(o.message, "not a zstd frame") << cut;
    } else {
      EXPECT_EQ(o.message.rfind("truncated or invalid zstd frame: ", 0), 0u) << cut << ": " << o.message;
    }
    EXPECT_FALSE(zstd_check_frame(prefix, k_text.size()).ok()) << cut;
  }
}

}  // namespace
}  // namespace moonquota::util
