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

}  // namespace
}  // namespace moonquota::util
