// util/time_text: ISO-8601 instants and h/m/s spans, worked out by hand.
#include "util/time_text.hpp"

#include <gtest/gtest.h>

#include <limits>

namespace moonquota::util {
namespace {

TEST(TimeText, Iso8601WithMilliseconds) {
  EXPECT_EQ(utc_iso8601(0), "1970-01-01T00:00:00.000Z");
  // The sample store's created_at: 1787375520 s = 20687 days (2026-08-22) + 18720 s (05:12:00).
  EXPECT_EQ(utc_iso8601(1787375520123), "2026-08-22T05:12:00.123Z");
  EXPECT_EQ(utc_iso8601(-1), "1969-12-31T23:59:59.999Z");
  EXPECT_EQ(utc_iso8601(std::numeric_limits<std::int64_t>::max()), "(out of range)");
  EXPECT_EQ(utc_iso8601(std::numeric_limits<std::int64_t>::min()), "(out of range)");
}

TEST(TimeText, HoursMinutesSeconds) {
  EXPECT_EQ(hms_text(0), "0h 00m 00s");
  EXPECT_EQ(hms_text(3723999), "1h 02m 03s");  // 3600 + 120 + 3 s, the 999 ms truncated
  EXPECT_EQ(hms_text(-5000), "-0h 00m 05s");
  EXPECT_EQ(hms_text(90000000), "25h 00m 00s");  // hours are not folded into days
  EXPECT_EQ(hms_text(std::numeric_limits<std::int64_t>::min()), "-2562047788015h 12m 55s");
}

TEST(TimeText, SpanClampsInsteadOfOverflowing) {
  EXPECT_EQ(span_ms(1787375520123, 1787375515123), 5000);
  EXPECT_EQ(span_ms(0, 10), -10);
  EXPECT_EQ(span_ms(std::numeric_limits<std::int64_t>::max(), -1), std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(span_ms(std::numeric_limits<std::int64_t>::min(), 1), std::numeric_limits<std::int64_t>::min());
}

}  // namespace
}  // namespace moonquota::util
