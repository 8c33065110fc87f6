#include "util/uuid.hpp"

#include <gtest/gtest.h>

namespace moonquota::util {
namespace {

TEST(Uuid, ParsesCanonicalForm) {
  auto u = parse_uuid_lenient("13723462823495839274-988437948375934");
  ASSERT_TRUE(u.has_value());
  EXPECT_EQ(u->first, 13723462823495839274ULL);
  EXPECT_EQ(u->second, 988437948375934ULL);
  EXPECT_TRUE(is_canonical_uuid("1-2"));
}

TEST(Uuid, AcceptsWhatStoullAccepts) {
  EXPECT_TRUE(parse_uuid_lenient(" 1-+2").has_value());
  EXPECT_TRUE(parse_uuid_lenient("1x-2y").has_value());
  EXPECT_FALSE(is_canonical_uuid(" 1-+2"));
  EXPECT_TRUE(parse_uuid_lenient("0-0").has_value());
  EXPECT_TRUE(parse_uuid_lenient("0-0")->is_zero());
}

TEST(Uuid, RejectsMalformed) {
  EXPECT_FALSE(parse_uuid_lenient("").has_value());
  EXPECT_FALSE(parse_uuid_lenient("12").has_value());
  EXPECT_FALSE(parse_uuid_lenient("-12").has_value());
  EXPECT_FALSE(parse_uuid_lenient("12-").has_value());
  EXPECT_FALSE(parse_uuid_lenient("a-b").has_value());
  EXPECT_FALSE(parse_uuid_lenient("18446744073709551616-1").has_value());  // out of range
}

}  // namespace
}  // namespace moonquota::util
