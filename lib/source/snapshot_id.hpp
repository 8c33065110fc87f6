// Snapshot ids "YYYYMMDD_HHMMSS_mmm" (snapshot-format.md §2.7).
#pragma once

#include <string_view>

namespace moonquota::source {

// Exactly 19 bytes; bytes 8 and 15 are '_'; all others ASCII digits. The date is not checked.
[[nodiscard]] bool is_valid_snapshot_id(std::string_view id);

// True when the date/time part names a real calendar instant (month 1-12, day valid, hour < 24...).
[[nodiscard]] bool is_calendar_valid_snapshot_id(std::string_view id);

}  // namespace moonquota::source
