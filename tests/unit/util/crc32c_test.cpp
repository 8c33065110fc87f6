#include "util/crc32c.hpp"

#include <gtest/gtest.h>

#include <string>

namespace moonquota::util {
namespace {

TEST(Crc32c, KnownVectors) {
  EXPECT_EQ(crc32c("123456789"), 0xE3069283u);  // the CRC catalogue's check value for CRC-32C
  EXPECT_EQ(crc32c(""), 0u);
  EXPECT_EQ(crc32c("a"), 0xC1D04330u);
  EXPECT_EQ(crc32c("hello world"), 0xC99465AAu);
}

TEST(Crc32c, FreshStateIsTheEmptyChecksum) {
  Crc32c c;
  EXPECT_EQ(c.value(), 0u);
  EXPECT_EQ(c.base64(), "AAAAAA==");
  c.update("");
  EXPECT_EQ(c.value(), 0u);
}

TEST(Crc32c, Base64IsTheHeaderForm) {
  // x-amz-checksum-crc32c carries the big-endian 4 bytes in base64.
  Crc32c check;
  check.update("123456789");
  EXPECT_EQ(check.base64(), "4waSgw==");
  Crc32c hello;
  hello.update("hello world");
  EXPECT_EQ(hello.base64(), "yZRlqg==");
  Crc32c one;
  one.update("a");
  EXPECT_EQ(one.base64(), "wdBDMA==");
}

TEST(Crc32c, PiecesOfAnyLengthEqualOneUpdate) {
  std::string data(1 << 20, '\0');
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<char>((i * 131 + (i >> 7)) & 0xFF);
  const std::uint32_t whole = crc32c(data);
  Crc32c pieces;
  std::size_t pos = 0;
  std::size_t step = 1;
  while (pos < data.size()) {
    const std::size_t n = std::min(step, data.size() - pos);
    pieces.update(std::string_view(data).substr(pos, n));
    pos += n;
    step = step * 3 + 7;  // 1, 10, 37, 118, ...: odd lengths and unaligned starts
    if (step > 100000) step = 13;
  }
  EXPECT_EQ(pieces.value(), whole);
  // A one-byte change shows.
  data[data.size() / 2] ^= 1;
  EXPECT_NE(crc32c(data), whole);
}

}  // namespace
}  // namespace moonquota::util
