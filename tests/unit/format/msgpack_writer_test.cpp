#include "format/msgpack_writer.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "util/text_encoding.hpp"

namespace moonquota::format {
namespace {

using util::to_hex;

template <typename Fn>
std::string packed(Fn fn) {
  std::string out;
  MsgpackWriter w(out);
  fn(w);
  EXPECT_TRUE(w.status().ok());
  return to_hex(out);
}

TEST(MsgpackWriter, UnsignedUsesSmallestFormat) {
  EXPECT_EQ(packed([](MsgpackWriter& w) { w.pack_uint(0); }), "00");
  EXPECT_EQ(packed([](MsgpackWriter& w) { w.pack_uint(0x7f); }), "7f");
  EXPECT_EQ(packed([](MsgpackWriter& w) { w.pack_uint(0x80); }), "cc80");
  EXPECT_EQ(packed([](MsgpackWriter& w) { w.pack_uint(0xff); }), "ccff");
  EXPECT_EQ(packed([](MsgpackWriter& w) { w.pack_uint(0x100); }), "cd0100");
  EXPECT_EQ(packed([](MsgpackWriter& w) { w.pack_uint(0xffff); }), "cdffff");
  EXPECT_EQ(packed([](MsgpackWriter& w) { w.pack_uint(0x10000); }), "ce00010000");
  EXPECT_EQ(packed([](MsgpackWriter& w) { w.pack_uint(0xffffffffULL); }), "ceffffffff");
  EXPECT_EQ(packed([](MsgpackWriter& w) { w.pack_uint(0x100000000ULL); }), "cf0000000100000000");
  EXPECT_EQ(packed([](MsgpackWriter& w) { w.pack_uint(1700000000000ULL); }), "cf0000018bcfe56800");
}

TEST(MsgpackWriter, NonNegativeSignedUsesUnsignedFormats) {
  EXPECT_EQ(packed([](MsgpackWriter& w) { w.pack_int(3); }), "03");
  EXPECT_EQ(packed([](MsgpackWriter& w) { w.pack_int(200); }), "ccc8");
  EXPECT_EQ(packed([](MsgpackWriter& w) { w.pack_int(INT64_MAX); }), "cf7fffffffffffffff");
}

TEST(MsgpackWriter, NegativeUsesSmallestSignedFormat) {
  EXPECT_EQ(packed([](MsgpackWriter& w) { w.pack_int(-1); }), "ff");
  EXPECT_EQ(packed([](MsgpackWriter& w) { w.pack_int(-32); }), "e0");
  EXPECT_EQ(packed([](MsgpackWriter& w) { w.pack_int(-33); }), "d0df");
  EXPECT_EQ(packed([](MsgpackWriter& w) { w.pack_int(-128); }), "d080");
  EXPECT_EQ(packed([](MsgpackWriter& w) { w.pack_int(-129); }), "d1ff7f");
  EXPECT_EQ(packed([](MsgpackWriter& w) { w.pack_int(-32768); }), "d18000");
  EXPECT_EQ(packed([](MsgpackWriter& w) { w.pack_int(-32769); }), "d2ffff7fff");
  EXPECT_EQ(packed([](MsgpackWriter& w) { w.pack_int(INT32_MIN); }), "d280000000");
  EXPECT_EQ(packed([](MsgpackWriter& w) { w.pack_int(INT64_MIN); }), "d38000000000000000");
}

TEST(MsgpackWriter, StringsBinariesAndContainers) {
  EXPECT_EQ(packed([](MsgpackWriter& w) { w.pack_str(""); }), "a0");
  EXPECT_EQ(packed([](MsgpackWriter& w) { w.pack_str("ma"); }), "a26d61");
  EXPECT_EQ(packed([](MsgpackWriter& w) { w.pack_str(std::string(31, 'x')); }).substr(0, 2), "bf");
  EXPECT_EQ(packed([](MsgpackWriter& w) { w.pack_str(std::string(32, 'x')); }).substr(0, 4), "d920");
  EXPECT_EQ(packed([](MsgpackWriter& w) { w.pack_str(std::string(256, 'x')); }).substr(0, 6), "da0100");
  EXPECT_EQ(packed([](MsgpackWriter& w) { w.pack_str(std::string(65536, 'x')); }).substr(0, 10), "db00010000");
  EXPECT_EQ(packed([](MsgpackWriter& w) { w.pack_str(std::string("a\0b", 3)); }), "a3610062");
  EXPECT_EQ(packed([](MsgpackWriter& w) { w.pack_bin(""); }), "c400");
  EXPECT_EQ(packed([](MsgpackWriter& w) { w.pack_bin(std::string(256, 'x')); }).substr(0, 6), "c50100");
  EXPECT_EQ(packed([](MsgpackWriter& w) { w.pack_bin(std::string(65536, 'x')); }).substr(0, 10), "c600010000");
  EXPECT_EQ(packed([](MsgpackWriter& w) { w.pack_array_header(15); }), "9f");
  EXPECT_EQ(packed([](MsgpackWriter& w) { w.pack_array_header(16); }), "dc0010");
  EXPECT_EQ(packed([](MsgpackWriter& w) { w.pack_array_header(65536); }), "dd00010000");
  EXPECT_EQ(packed([](MsgpackWriter& w) { w.pack_map_header(0); }), "80");
  EXPECT_EQ(packed([](MsgpackWriter& w) { w.pack_map_header(16); }), "de0010");
  EXPECT_EQ(packed([](MsgpackWriter& w) { w.pack_map_header(0x10000); }), "df00010000");
  EXPECT_EQ(packed([](MsgpackWriter& w) {
              w.pack_bool(true);
              w.pack_bool(false);
              w.pack_nil();
            }),
            "c3c2c0");
}

TEST(MsgpackWriter, OversizedLengthIsAStickyErrorAndWritesNothing) {
  std::string out;
  MsgpackWriter w(out);
  w.pack_array_header(0x100000000ULL);
  EXPECT_TRUE(out.empty());
  w.pack_uint(1);
  EXPECT_FALSE(w.status().ok());
  EXPECT_NE(w.status().message().find("array"), std::string::npos);
}

}  // namespace
}  // namespace moonquota::format
