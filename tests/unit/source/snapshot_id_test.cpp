// snapshot ids (snapshot-format.md §2.7): 19 bytes, '_' at 8 and 15, digits elsewhere.
#include "source/snapshot_id.hpp"

#include <gtest/gtest.h>

#include <string>

namespace moonquota::source {
namespace {

TEST(SnapshotId, AcceptsTheMasterFormat) {
  EXPECT_TRUE(is_valid_snapshot_id("20260822_051200_123"));
  EXPECT_TRUE(is_valid_snapshot_id("00000000_000000_000"));
  EXPECT_TRUE(is_valid_snapshot_id("99999999_999999_999"));  // the date is not checked
}

TEST(SnapshotId, RejectsEverythingElse) {
  for (const std::string bad :
       {"", "snapshot-000123", "20260822_051200_12", "20260822_051200_1234", "20260822-051200_123",
        "20260822_051200-123", "2026082_0051200_123", "2026a822_051200_123", "20260822_05120x_123",
        " 0260822_051200_123", "20260822_051200_12 ", "20260822_051200_12\n", "batch-oplog", "20260822__51200_123",
        "２0260822_051200_1"}) {
    EXPECT_FALSE(is_valid_snapshot_id(bad)) << "'" << bad << "'";
  }
  EXPECT_FALSE(is_valid_snapshot_id(std::string("20260822_051200_12\0", 19)));
}

TEST(SnapshotId, CalendarCheck) {
  EXPECT_TRUE(is_calendar_valid_snapshot_id("20260822_051200_123"));
  EXPECT_TRUE(is_calendar_valid_snapshot_id("20240229_235959_999"));   // leap day
  EXPECT_TRUE(is_calendar_valid_snapshot_id("20000229_000000_000"));   // 400-year leap
  EXPECT_FALSE(is_calendar_valid_snapshot_id("21000229_000000_000"));  // 100-year non-leap
  EXPECT_FALSE(is_calendar_valid_snapshot_id("20250229_000000_000"));
  EXPECT_FALSE(is_calendar_valid_snapshot_id("20261301_000000_000"));  // month 13
  EXPECT_FALSE(is_calendar_valid_snapshot_id("20260001_000000_000"));  // month 0
  EXPECT_FALSE(is_calendar_valid_snapshot_id("20260100_000000_000"));  // day 0
  EXPECT_FALSE(is_calendar_valid_snapshot_id("20260431_000000_000"));  // April 31
  EXPECT_FALSE(is_calendar_valid_snapshot_id("20260822_240000_000"));  // hour 24
  EXPECT_FALSE(is_calendar_valid_snapshot_id("20260822_236000_000"));  // minute 60
  EXPECT_FALSE(is_calendar_valid_snapshot_id("20260822_235961_000"));  // second 61
  EXPECT_FALSE(is_calendar_valid_snapshot_id("snapshot-000123"));
}

}  // namespace
}  // namespace moonquota::source
