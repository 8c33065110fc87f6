// The struct_pack framing reader over hostile bytes: both header forms, every primitive, a cut at
// every byte, and length claims larger than the buffer, each with its exact message and offset.
#include "format/struct_pack_reader.hpp"
#include "support/byte_literals.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <string>

namespace moonquota::format {
namespace {

constexpr std::uint32_t k_type_code = 0xA1B2C3D4;  // low bit clear: the M bit is hash_head's own

using test::bytes;

std::string le(std::uint64_t v, unsigned width) {
  std::string s;
  for (unsigned i = 0; i < width; ++i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
  return s;
}

// Compact form: hash_head (M = 0), then u8 7, u64, i32 -2, bool true, string "abc" (1-byte length).
const std::string k_compact = le(k_type_code, 4) + bytes({7}) + le(0x0102030405060708ULL, 8) + le(0xFFFFFFFEU, 4) +
                              bytes({1}) + bytes({3, 'a', 'b', 'c'});

struct Body {
  std::uint8_t small = 0;
  std::uint64_t big = 0;
  std::int32_t negative = 0;
  bool flag = false;
  std::string text;
};

bool read_body(StructPackReader& r, Body& b) {
  return r.u8(b.small, "small") && r.u64(b.big, "big") && r.i32(b.negative, "negative") && r.boolean(b.flag, "flag") &&
         r.string(b.text, "text");
}

TEST(StructPackReader, ReadsTheCompactForm) {
  StructPackReader r(k_compact);
  StructPackHeader h;
  ASSERT_TRUE(r.open(k_type_code, "unused", h)) << r.error();
  EXPECT_EQ(h.form, PayloadForm::compact);
  EXPECT_FALSE(h.has_metainfo);
  EXPECT_FALSE(h.has_total_len);
  EXPECT_EQ(h.length_width, 1u);
  EXPECT_EQ(h.body_offset, 4u);
  Body b;
  ASSERT_TRUE(read_body(r, b)) << r.error();
  EXPECT_EQ(b.small, 7u);
  EXPECT_EQ(b.big, 0x0102030405060708ULL);
  EXPECT_EQ(b.negative, -2);
  EXPECT_TRUE(b.flag);
  EXPECT_EQ(b.text, "abc");
  EXPECT_EQ(r.position(), k_compact.size());
  EXPECT_TRUE(r.error().empty());
  EXPECT_STREQ(payload_form_name(h.form), "compact");
}

// hash_head (M = 1), metainfo 0x0D (total_len u16, literal, 2-byte lengths), total_len, "LIT\0",
// then a string with a 2-byte length.
std::string literal_form(std::uint64_t total_len) {
  return le(k_type_code | 1U, 4) + bytes({0x0D}) + le(total_len, 2) + "LIT" + bytes({0}) + le(2, 2) + "xy";
}

TEST(StructPackReader, ReadsTheTypeLiteralFormWithTotalLen) {
  const std::string in = literal_form(15);
  ASSERT_EQ(in.size(), 15u);
  StructPackReader r(in);
  StructPackHeader h;
  ASSERT_TRUE(r.open(k_type_code, "LIT", h)) << r.error();
  EXPECT_EQ(h.form, PayloadForm::type_literal);
  EXPECT_TRUE(h.has_metainfo);
  EXPECT_EQ(h.metainfo, 0x0D);
  EXPECT_TRUE(h.has_total_len);
  EXPECT_EQ(h.total_len, 15u);
  EXPECT_EQ(h.length_width, 2u);
  EXPECT_EQ(h.body_offset, 11u);
  std::string text;
  ASSERT_TRUE(r.string(text, "text")) << r.error();
  EXPECT_EQ(text, "xy");
  EXPECT_STREQ(payload_form_name(h.form), "type-literal");
}

TEST(StructPackReader, ComparesOnlyTheUpper31BitsOfTheTypeCode) {
  StructPackReader r(k_compact);
  StructPackHeader h;
  EXPECT_TRUE(r.open(k_type_code | 1U, "", h)) << r.error();

  StructPackReader other(k_compact);
  EXPECT_FALSE(other.open(k_type_code + 2, "", h));
  EXPECT_EQ(other.error(), "type code 0xA1B2C3D4, expected 0xA1B2C3D6 at byte 0");
}

TEST(StructPackReader, RejectsReservedMetainfoBitsAtTheirByte) {
  for (int bit : {0x20, 0x40, 0x80}) {
    const std::string in = le(k_type_code | 1U, 4) + bytes({bit});
    StructPackReader r(in);
    StructPackHeader h;
    EXPECT_FALSE(r.open(k_type_code, "", h));
    EXPECT_EQ(r.error(), "metainfo reserved bits 5-7 are set (never written) at byte 4") << bit;
  }
}

TEST(StructPackReader, RejectsATotalLenOutsideTheBuffer) {
  StructPackHeader h;
  const std::string longer_bytes = literal_form(16);  // the reader keeps a view: the bytes must outlive it
  StructPackReader longer(longer_bytes);
  EXPECT_FALSE(longer.open(k_type_code, "LIT", h));
  EXPECT_EQ(longer.error(), "total_len 16 exceeds the 15-byte buffer at byte 5");

  const std::string huge_bytes =
      le(k_type_code | 1U, 4) + bytes({0x03}) + le(~0ULL, 8);  // the reader keeps a view: the bytes must outlive it
  StructPackReader huge(huge_bytes);
  EXPECT_FALSE(huge.open(k_type_code, "", h));
  EXPECT_EQ(huge.error(), "total_len 18446744073709551615 exceeds the 13-byte buffer at byte 5");

  const std::string inside_header_bytes = literal_form(10);  // the reader keeps a view: the bytes must outlive it
  StructPackReader inside_header(inside_header_bytes);
  EXPECT_FALSE(inside_header.open(k_type_code, "LIT", h));
  EXPECT_EQ(inside_header.error(), "total_len is smaller than the header at byte 5");
}

TEST(StructPackReader, RejectsADifferentEmbeddedLiteral) {
  StructPackHeader h;
  const std::string other_bytes = literal_form(15);  // the reader keeps a view: the bytes must outlive it
  StructPackReader other(other_bytes);
  EXPECT_FALSE(other.open(k_type_code, "LIX", h));
  EXPECT_EQ(other.error(), "embedded type literal differs from the expected one (hash conflict) at byte 7");

  // The expected literal is a prefix of the embedded one: the NUL must follow it.
  const std::string prefix_bytes = literal_form(15);  // the reader keeps a view: the bytes must outlive it
  StructPackReader prefix(prefix_bytes);
  EXPECT_FALSE(prefix.open(k_type_code, "LI", h));
  EXPECT_EQ(prefix.error(), "embedded type literal differs from the expected one (hash conflict) at byte 7");
}

TEST(StructPackReader, RejectsABoolByteOtherThanZeroOrOne) {
  std::string in = k_compact;
  in[17] = 2;  // the bool
  StructPackReader r(in);
  StructPackHeader h;
  ASSERT_TRUE(r.open(k_type_code, "", h));
  Body b;
  EXPECT_FALSE(read_body(r, b));
  EXPECT_EQ(r.error(), "flag: bool byte 2 is neither 0 nor 1 at byte 17");
}

// A cut at every byte of the compact buffer: the first field that does not fit is named, with
// its offset and the bytes it needed.
TEST(StructPackReader, ReportsACutAtEveryByteWithTheFieldItHits) {
  struct Field {
    const char* what;
    std::size_t offset;
    std::size_t width;
  };
  const Field fields[] = {{"hash_head", 0, 4}, {"small", 4, 1}, {"big", 5, 8},
                          {"negative", 13, 4}, {"flag", 17, 1}, {"text", 18, 1}};
  for (std::size_t cut = 0; cut < k_compact.size(); ++cut) {
    StructPackReader r(std::string_view(k_compact).substr(0, cut));
    StructPackHeader h;
    Body b;
    EXPECT_FALSE(r.open(k_type_code, "", h) && read_body(r, b)) << cut;
    std::string expected;
    for (const Field& f : fields) {
      if (cut < f.offset + f.width) {
        expected = std::string("truncated ") + f.what + " (" + std::to_string(f.width) + " bytes needed, " +
                   std::to_string(cut - f.offset) + " left) at byte " + std::to_string(f.offset);
        break;
      }
    }
    // Only the string's bytes are missing: its length claims more than what is left.
    if (expected.empty()) {
      expected = "text: 3 elements cannot fit in the " + std::to_string(cut - 19) + " bytes left at byte 18";
    }
    EXPECT_EQ(r.error(), expected) << cut;
  }
}

// A cut inside the type-literal header: once total_len is read, it claims the whole buffer.
TEST(StructPackReader, ReportsACutAtEveryByteOfTheLiteralHeader) {
  const std::string full = literal_form(15);
  for (std::size_t cut = 0; cut < full.size(); ++cut) {
    StructPackReader r(std::string_view(full).substr(0, cut));
    StructPackHeader h;
    EXPECT_FALSE(r.open(k_type_code, "LIT", h)) << cut;
    std::string expected;
    if (cut < 4) {
      expected = "truncated hash_head (4 bytes needed, " + std::to_string(cut) + " left) at byte 0";
    } else if (cut < 5) {
      expected = "truncated metainfo (1 bytes needed, 0 left) at byte 4";
    } else if (cut < 7) {
      expected = "truncated total_len (2 bytes needed, " + std::to_string(cut - 5) + " left) at byte 5";
    } else {
      expected = "total_len 15 exceeds the " + std::to_string(cut) + "-byte buffer at byte 5";
    }
    EXPECT_EQ(r.error(), expected) << cut;
  }
}

TEST(StructPackReader, RejectsCountsTheRestCannotHoldBeforeAnyAllocation) {
  // 8-byte lengths (LEN_SIZE code 3), no total_len: a string claiming 2^64-1 bytes.
  const std::string in = le(k_type_code | 1U, 4) + bytes({0x18}) + le(~0ULL, 8) + "abc";
  StructPackReader r(in);
  StructPackHeader h;
  ASSERT_TRUE(r.open(k_type_code, "", h)) << r.error();
  EXPECT_EQ(h.length_width, 8u);
  std::string text;
  EXPECT_FALSE(r.string(text, "text"));
  EXPECT_EQ(r.error(), "text: 18446744073709551615 elements cannot fit in the 3 bytes left at byte 5");
  EXPECT_TRUE(text.empty());

  // A count of elements of at least 4 bytes each: 1 fits in 4 bytes, 2 do not.
  const std::string one = le(k_type_code, 4) + bytes({1, 0, 0, 0, 0});
  StructPackReader fits(one);
  ASSERT_TRUE(fits.open(k_type_code, "", h));
  std::uint64_t n = 0;
  EXPECT_TRUE(fits.count(n, 4, "items")) << fits.error();
  EXPECT_EQ(n, 1u);
  const std::string two = le(k_type_code, 4) + bytes({2, 0, 0, 0, 0});
  StructPackReader does_not_fit(two);
  ASSERT_TRUE(does_not_fit.open(k_type_code, "", h));
  EXPECT_FALSE(does_not_fit.count(n, 4, "items"));
  EXPECT_EQ(does_not_fit.error(), "items: 2 elements cannot fit in the 4 bytes left at byte 4");
}

TEST(StructPackReader, KeepsTheFirstErrorAndTracksTheCompatibleLimit) {
  StructPackReader r(k_compact);
  StructPackHeader h;
  ASSERT_TRUE(r.open(k_type_code, "", h));
  r.set_limit(5);
  EXPECT_FALSE(r.at_limit());
  std::uint8_t small = 0;
  ASSERT_TRUE(r.u8(small, "small"));
  EXPECT_TRUE(r.at_limit());
  std::string text;
  std::uint64_t big = 0;
  // Reading on past the limit is the caller's choice; the bytes still bound every read.
  ASSERT_TRUE(r.u64(big, "big"));
  StructPackReader cut(std::string_view(k_compact).substr(0, 6));
  ASSERT_TRUE(cut.open(k_type_code, "", h));
  ASSERT_TRUE(cut.u8(small, "small"));
  EXPECT_FALSE(cut.u64(big, "big"));
  EXPECT_FALSE(cut.string(text, "text"));
  EXPECT_EQ(cut.error(), "truncated big (8 bytes needed, 1 left) at byte 5");
}

}  // namespace
}  // namespace moonquota::format
