// parse_quota_bytes against every example of quota-semantics.md §9.4, plus the boundaries.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "format/policy_yaml.hpp"
#include "util/status.hpp"

namespace moonquota::format {
namespace {

struct AcceptedQuota {
  const char* text;
  std::uint64_t bytes;
};

class PolicyQuotaBytesAccepted : public ::testing::TestWithParam<AcceptedQuota> {};

TEST_P(PolicyQuotaBytesAccepted, ParsesToBytes) {
  auto result = parse_quota_bytes(GetParam().text);
  ASSERT_TRUE(result.ok()) << GetParam().text << ": " << result.status().message();
  EXPECT_EQ(*result, GetParam().bytes);
}

INSTANTIATE_TEST_SUITE_P(
    SpecTable, PolicyQuotaBytesAccepted,
    ::testing::Values(AcceptedQuota{"12345", 12345}, AcceptedQuota{"500MB", 524288000},
                      AcceptedQuota{"200GB", 214748364800}, AcceptedQuota{"0012345", 12345}, AcceptedQuota{"1B", 1},
                      AcceptedQuota{"9223372036854775807", 9223372036854775807ULL},
                      AcceptedQuota{"8589934591GB", 9223372035781033984ULL},
                      AcceptedQuota{"8388607TB", 9223370937343148032ULL},
                      // Beyond the table: each unit once, and zeros that would overflow if counted.
                      AcceptedQuota{"1", 1}, AcceptedQuota{"1KB", 1024}, AcceptedQuota{"1MB", 1048576},
                      AcceptedQuota{"1GB", 1073741824}, AcceptedQuota{"1TB", 1099511627776},
                      AcceptedQuota{"000000000000000000000000000001KB", 1024},
                      AcceptedQuota{"09223372036854775807B", 9223372036854775807ULL}));

struct RejectedQuota {
  const char* text;
  const char* reason;  // a fragment the message must contain
};

class PolicyQuotaBytesRejected : public ::testing::TestWithParam<RejectedQuota> {};

TEST_P(PolicyQuotaBytesRejected, NamesTheReason) {
  auto result = parse_quota_bytes(GetParam().text);
  ASSERT_FALSE(result.ok()) << GetParam().text << " accepted as " << *result;
  EXPECT_EQ(result.status().code(), util::StatusCode::invalid_argument);
  EXPECT_NE(result.status().message().find(GetParam().reason), std::string::npos)
      << GetParam().text << ": " << result.status().message();
}

INSTANTIATE_TEST_SUITE_P(
    SpecTable, PolicyQuotaBytesRejected,
    ::testing::Values(
        RejectedQuota{"9223372036854775808", "2^63-1"}, RejectedQuota{"18446744073709551616", "exceeds 2^64-1"},
        RejectedQuota{"18446744073709551615TB", "2^63-1"}, RejectedQuota{"8589934592GB", "2^63-1"},
        RejectedQuota{"8388608TB", "2^63-1"}, RejectedQuota{"0", "positive"}, RejectedQuota{"0GB", "positive"},
        RejectedQuota{"1 GB", "unexpected \" GB\""}, RejectedQuota{"1gb", "unexpected \"gb\""},
        RejectedQuota{"1GiB", "unexpected \"GiB\""}, RejectedQuota{"1K", "unexpected \"K\""},
        RejectedQuota{"+1", "decimal digit"}, RejectedQuota{"-1", "decimal digit"},
        RejectedQuota{"1.5GB", "unexpected \".5GB\""}, RejectedQuota{"GB", "decimal digit"}, RejectedQuota{"", "empty"},
        // Beyond the table.
        RejectedQuota{"9223372036854775807KB", "2^63-1"}, RejectedQuota{"99999999999999999999999", "exceeds 2^64-1"},
        RejectedQuota{" 1", "decimal digit"}, RejectedQuota{"1 ", "unexpected \" \""},
        RejectedQuota{"1BB", "unexpected \"BB\""}, RejectedQuota{"1Kb", "unexpected \"Kb\""},
        RejectedQuota{"1PB", "unexpected \"PB\""}, RejectedQuota{"1e3", "unexpected \"e3\""},
        RejectedQuota{"0x10", "unexpected \"x10\""}, RejectedQuota{"1\nGB", "unexpected \"\\nGB\""}));

TEST(PolicyQuotaBytes, OverflowingNumberWithBadUnitReportsTheUnit) {
  auto result = parse_quota_bytes("18446744073709551616XB");
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("\"XB\""), std::string::npos);
}

}  // namespace
}  // namespace moonquota::format
