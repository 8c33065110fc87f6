// ZstdStreamWriter: a frame written in pieces is one frame that zstd_decompress (Mooncake's rules:
// content size in the header, exactly one frame) reads back byte for byte; a pledge that the
// writes do not meet fails at finish(); a failing sink stops the writer with its error.
#include "util/zstd_file.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "util/zstd_codec.hpp"

namespace moonquota::util {
namespace {

std::string sample_text(std::size_t n) {
  std::string s;
  std::uint32_t x = 12345;
  while (s.size() < n) {
    x = x * 1103515245u + 12345u;
    s += "tenant-" + std::to_string(x % 7) + "/key-" + std::to_string(x % 100000) + ' ';
  }
  s.resize(n);
  return s;
}

TEST(ZstdStreamWriter, PiecesMakeOneFrameWithThePledgedContentSize) {
  const std::string raw = sample_text(3 << 20);  // several output buffers' worth
  auto w = ZstdStreamWriter::create(raw.size());
  ASSERT_TRUE(w.ok()) << w.status().message();
  std::string frame;
  const ZstdStreamWriter::Sink sink = [&frame](std::string_view b) {
    frame.append(b);
    return Status::ok_status();
  };
  for (std::size_t at = 0; at < raw.size(); at += 100000) {
    ASSERT_TRUE((*w)->write(std::string_view(raw).substr(at, 100000), sink).ok());
  }
  ASSERT_TRUE((*w)->write({}, sink).ok());
  ASSERT_TRUE((*w)->finish(sink).ok());

  auto declared = zstd_content_size(frame);
  ASSERT_TRUE(declared.ok()) << declared.status().message();
  EXPECT_EQ(*declared, raw.size());
  std::string back;
  ASSERT_TRUE(zstd_decompress(frame, raw.size(), back).ok());
  EXPECT_EQ(back, raw);
}

TEST(ZstdStreamWriter, FewerOrMoreBytesThanPledgedFailAtFinish) {
  const ZstdStreamWriter::Sink discard = [](std::string_view) { return Status::ok_status(); };
  auto fewer = ZstdStreamWriter::create(10);
  ASSERT_TRUE(fewer.ok());
  ASSERT_TRUE((*fewer)->write("123456789", discard).ok());
  const Status short_by_one = (*fewer)->finish(discard);
  EXPECT_EQ(short_by_one.code(), StatusCode::internal);
  EXPECT_EQ(short_by_one.message(), "streamed 9 bytes, pledged 10");

  auto more = ZstdStreamWriter::create(1);
  ASSERT_TRUE(more.ok());
  (void)(*more)->write("12", discard);  // zstd may or may not notice before the end
  EXPECT_FALSE((*more)->finish(discard).ok());
}

TEST(ZstdStreamWriter, TheSinksErrorStopsTheWriter) {
  const ZstdStreamWriter::Sink refusing = [](std::string_view) { return Status::io_error("disk full"); };
  auto w = ZstdStreamWriter::create(3);
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE((*w)->write("abc", refusing).ok());  // nothing to hand out before the end
  const Status s = (*w)->finish(refusing);
  EXPECT_EQ(s.code(), StatusCode::io_error);
  EXPECT_EQ(s.message(), "disk full");
}

}  // namespace
}  // namespace moonquota::util
