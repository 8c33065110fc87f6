// Instants and spans as people read them: UTC ISO-8601 with milliseconds, and "1h 02m 03s".
#pragma once

#include <cstdint>
#include <string>

namespace moonquota::util {

// "2026-08-22T05:12:00.123Z" for epoch milliseconds (negative: before 1970). A value whose year
// does not fit four digits gives "(out of range)".
[[nodiscard]] std::string utc_iso8601(std::int64_t epoch_ms);

// "1h 02m 03s" (hours unbounded), truncated to whole seconds; "-0h 00m 05s" for a negative span.
[[nodiscard]] std::string hms_text(std::int64_t span);

// later_ms - earlier_ms, clamped to the int64 range (both may come from hostile input).
[[nodiscard]] std::int64_t span_ms(std::int64_t later_ms, std::int64_t earlier_ms);

}  // namespace moonquota::util
