#include "service/duration.hpp"

#include <gtest/gtest.h>

namespace moonquota::service {
namespace {

TEST(ServiceDuration, UnitsAndErrors) {
  EXPECT_EQ(*parse_duration_ms("500ms", "--every"), 500u);
  EXPECT_EQ(*parse_duration_ms("30s", "--every"), 30'000u);
  EXPECT_EQ(*parse_duration_ms("5m", "--every"), 300'000u);
  EXPECT_EQ(*parse_duration_ms("2h", "--every"), 7'200'000u);
  EXPECT_EQ(*parse_duration_ms("168h", "--every"), k_max_duration_ms);
  for (const char* bad : {"", "5", "m", "0s", "-5s", "1.5s", "5 m", "5M", "5min", "169h", "99999999999999999999s"}) {
    auto parsed = parse_duration_ms(bad, "--every");
    ASSERT_FALSE(parsed.ok()) << bad;
    EXPECT_EQ(parsed.status().code(), util::StatusCode::invalid_argument);
    EXPECT_EQ(parsed.status().message().rfind(std::string("--every '") + bad + "'", 0), 0u)
        << parsed.status().message();
  }
  EXPECT_EQ(duration_text(500), "500ms");
  EXPECT_EQ(duration_text(90'000), "90s");
  EXPECT_EQ(duration_text(900'000), "15m");
  EXPECT_EQ(duration_text(3'600'000), "1h");
  EXPECT_EQ(duration_text(86'400'000), "1d");
}

TEST(ServiceDuration, DaysLeadingZerosAndZero) {
  EXPECT_EQ(*parse_duration_ms("7d", "--every"), k_max_duration_ms);
  EXPECT_EQ(*parse_duration_ms("1d", "--every"), 86'400'000u);
  EXPECT_FALSE(parse_duration_ms("8d", "--every").ok());
  // Regression (fuzz campaign): leading zeros were counted as digits, "longer than 7 days".
  EXPECT_EQ(*parse_duration_ms("00000000001s", "--every"), 1'000u);
  EXPECT_EQ(*parse_duration_ms("0000000000000000000000000000005m", "--every"), 300'000u);
  for (const char* zero : {"0", "0s", "000ms", "0d"}) {
    auto parsed = parse_duration_ms(zero, "--every");
    ASSERT_FALSE(parsed.ok()) << zero;
    EXPECT_NE(parsed.status().message().find("must be more than zero"), std::string::npos) << parsed.status().message();
  }
}

}  // namespace
}  // namespace moonquota::service
