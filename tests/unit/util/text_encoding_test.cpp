#include "util/text_encoding.hpp"

#include <gtest/gtest.h>

#include <string>

namespace moonquota::util {
namespace {

TEST(Utf8, AcceptsWellFormedAndRejectsMalformed) {
  EXPECT_TRUE(is_valid_utf8(""));
  EXPECT_TRUE(is_valid_utf8("ascii"));
  EXPECT_TRUE(is_valid_utf8("\xc3\xa9"));
  EXPECT_TRUE(is_valid_utf8("\xf0\x9f\x98\x80"));
  EXPECT_FALSE(is_valid_utf8("\xff"));
  EXPECT_FALSE(is_valid_utf8("\xc3"));              // truncated
  EXPECT_FALSE(is_valid_utf8("\xc0\x80"));          // overlong
  EXPECT_FALSE(is_valid_utf8("\xed\xa0\x80"));      // surrogate
  EXPECT_FALSE(is_valid_utf8("\xf4\x90\x80\x80"));  // above U+10FFFF
}

TEST(Printable, EscapesControlBytesOnly) {
  EXPECT_EQ(printable(std::string("a\nb\x7f\\\"\xc3\xa9", 8)), "a\\x0ab\\x7f\\\"\xc3\xa9");
  EXPECT_EQ(to_hex("\x01\xab"), "01ab");
}

TEST(FromHex, ReadsBackWhatToHexWritesAndNothingElse) {
  const std::string bytes("\x00\xff t\xc3", 5);
  EXPECT_EQ(from_hex(to_hex(bytes)), bytes);
  EXPECT_EQ(from_hex(""), std::string());
  EXPECT_FALSE(from_hex("abc").has_value());  // odd length
  EXPECT_FALSE(from_hex("AB").has_value());   // to_hex writes lowercase
  EXPECT_FALSE(from_hex("0g").has_value());
}

}  // namespace
}  // namespace moonquota::util
