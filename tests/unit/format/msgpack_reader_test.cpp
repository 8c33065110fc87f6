#include "format/msgpack_reader.hpp"
#include "support/byte_literals.hpp"

#include <gtest/gtest.h>

#include <string>

namespace moonquota::format {
namespace {

using test::bytes;

TEST(MsgpackReader, ClassifiesIntegersByValue) {
  std::string in = bytes({0x05, 0xd0, 0x05, 0xd0, 0xfb, 0xcf, 0, 0, 0, 0, 0, 0, 0, 1});
  MsgpackReader r(in);
  MpHeader h;
  ASSERT_TRUE(r.read_header(h));
  EXPECT_EQ(h.type, MpType::pos_int);
  EXPECT_TRUE(h.smallest);
  ASSERT_TRUE(r.read_header(h));
  EXPECT_EQ(h.type, MpType::pos_int);  // int8 holding 5 is still a positive integer
  EXPECT_EQ(h.u, 5u);
  EXPECT_FALSE(h.smallest);
  ASSERT_TRUE(r.read_header(h));
  EXPECT_EQ(h.type, MpType::neg_int);
  EXPECT_EQ(h.i, -5);
  ASSERT_TRUE(r.read_header(h));
  EXPECT_EQ(h.u, 1u);
  EXPECT_FALSE(h.smallest);
  EXPECT_TRUE(r.at_end());
}

TEST(MsgpackReader, ReportsTruncationWithOffset) {
  std::string in = bytes({0x92, 0x01, 0xcd, 0x04});
  MsgpackReader r(in, 100);
  EXPECT_FALSE(r.skip_value());
  EXPECT_EQ(r.error(), "truncated msgpack uint16 at byte offset 103");
}

TEST(MsgpackReader, RejectsReservedByte) {
  std::string in = bytes({0xc1});
  MsgpackReader r(in);
  MpHeader h;
  EXPECT_FALSE(r.read_header(h));
  EXPECT_EQ(r.error(), "invalid msgpack byte 0xc1 at byte offset 0");
}

TEST(MsgpackReader, RejectsContainerLongerThanInput) {
  std::string in = bytes({0xdd, 0xff, 0xff, 0xff, 0xff, 0x01});
  MsgpackReader r(in);
  MpHeader h;
  EXPECT_FALSE(r.read_header(h));
  EXPECT_EQ(r.error(), "array of 4294967295 elements exceeds the remaining input at byte offset 0");
}

TEST(MsgpackReader, SkipsDeepNestingIteratively) {
  std::string in(100000, static_cast<char>(0x91));
  in.push_back(0x01);
  MsgpackReader r(in);
  EXPECT_TRUE(r.skip_value());
  EXPECT_TRUE(r.at_end());
}

TEST(MsgpackReader, ReadsStringPayload) {
  std::string in = bytes({0xa3, 'a', 'b', 'c', 0xc4, 0x01, 0x7f});
  MsgpackReader r(in);
  MpHeader h;
  std::string_view v;
  ASSERT_TRUE(r.read_header(h));
  ASSERT_EQ(h.type, MpType::str);
  ASSERT_TRUE(r.read_payload(h.length, v));
  EXPECT_EQ(v, "abc");
  ASSERT_TRUE(r.read_header(h));
  EXPECT_EQ(h.type, MpType::bin);
  ASSERT_TRUE(r.read_payload(h.length, v));
  EXPECT_EQ(v.size(), 1u);
}

}  // namespace
}  // namespace moonquota::format
