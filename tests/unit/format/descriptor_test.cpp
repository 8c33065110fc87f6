// descriptor.txt (snapshot-format.md §2.9): three decimal fields, each consumed completely.
#include "format/descriptor.hpp"

#include <gtest/gtest.h>

#include <string>

namespace moonquota::format {
namespace {

TEST(Descriptor, ParsesCanonical) {
  auto d = parse_descriptor("0|0|1787375520123");
  ASSERT_TRUE(d.ok()) << d.status().message();
  EXPECT_EQ(d->last_included_seq, 0u);
  EXPECT_EQ(d->producer_view_version, 0);
  EXPECT_EQ(d->created_at_ms, 1787375520123);
}

TEST(Descriptor, ParsesExtremes) {
  auto d = parse_descriptor("18446744073709551615|-9223372036854775808|9223372036854775807");
  ASSERT_TRUE(d.ok()) << d.status().message();
  EXPECT_EQ(d->last_included_seq, 18446744073709551615ULL);
  EXPECT_EQ(d->producer_view_version, INT64_MIN);
  EXPECT_EQ(d->created_at_ms, INT64_MAX);
}

TEST(Descriptor, MinusAcceptedInSignedFields) {
  auto d = parse_descriptor("7|-3|-1");
  ASSERT_TRUE(d.ok()) << d.status().message();
  EXPECT_EQ(d->last_included_seq, 7u);
  EXPECT_EQ(d->producer_view_version, -3);
  EXPECT_EQ(d->created_at_ms, -1);
}

struct BadDescriptor {
  const char* name;
  std::string text;
  const char* message;  // exact rejection message
};

class DescriptorRejects : public ::testing::TestWithParam<BadDescriptor> {};

TEST_P(DescriptorRejects, WithExactMessage) {
  auto d = parse_descriptor(GetParam().text);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.status().code(), util::StatusCode::corruption);
  EXPECT_EQ(d.status().message(), GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(
    Spec, DescriptorRejects,
    ::testing::Values(
        BadDescriptor{"plus_seq", "+0|0|1", "descriptor.txt last_included_seq '+0' is not an unsigned decimal"},
        BadDescriptor{"plus_view", "0|+0|1", "descriptor.txt producer_view_version '+0' is not a signed decimal"},
        BadDescriptor{"plus_created", "0|0|+1", "descriptor.txt created_at_ms '+1' is not a signed decimal"},
        BadDescriptor{"minus_seq", "-1|0|1", "descriptor.txt last_included_seq '-1' is not an unsigned decimal"},
        BadDescriptor{"leading_space", " 0|0|1", "descriptor.txt last_included_seq ' 0' is not an unsigned decimal"},
        BadDescriptor{"inner_space", "0| 0|1", "descriptor.txt producer_view_version ' 0' is not a signed decimal"},
        BadDescriptor{"trailing_space", "0|0|1 ", "descriptor.txt created_at_ms '1 ' is not a signed decimal"},
        BadDescriptor{"trailing_newline", "0|0|1787375520123\n",
                      "descriptor.txt created_at_ms '1787375520123\n' is not a signed decimal"},
        BadDescriptor{"empty_seq", "|0|1", "descriptor.txt last_included_seq '' is not an unsigned decimal"},
        BadDescriptor{"empty_view", "0||1", "descriptor.txt producer_view_version '' is not a signed decimal"},
        BadDescriptor{"empty_created", "0|0|", "descriptor.txt created_at_ms '' is not a signed decimal"},
        BadDescriptor{"third_pipe", "0|0|1|2", "descriptor.txt created_at_ms '1|2' is not a signed decimal"},
        BadDescriptor{"two_fields", "0|0", "descriptor.txt needs three '|'-separated fields"},
        BadDescriptor{"no_pipe", "0", "descriptor.txt needs three '|'-separated fields"},
        BadDescriptor{"empty", "", "descriptor.txt needs three '|'-separated fields"},
        BadDescriptor{"seq_overflow", "18446744073709551616|0|1",
                      "descriptor.txt last_included_seq '18446744073709551616' is not an unsigned decimal"},
        BadDescriptor{"created_overflow", "0|0|9223372036854775808",
                      "descriptor.txt created_at_ms '9223372036854775808' is not a signed decimal"},
        BadDescriptor{"hex", "0x1|0|1", "descriptor.txt last_included_seq '0x1' is not an unsigned decimal"},
        BadDescriptor{"lone_minus", "0|-|1", "descriptor.txt producer_view_version '-' is not a signed decimal"}),
    [](const ::testing::TestParamInfo<BadDescriptor>& p) { return std::string(p.param.name); });

}  // namespace
}  // namespace moonquota::format
