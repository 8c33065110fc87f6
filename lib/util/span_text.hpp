// Spans as operators type them on a command line: a non-negative whole number and one unit, ms,
// s, m, h or d ("1500ms", "30s", "5m", "1h", "2d"); "0" alone needs none. Shared by the flags that
// take a span after an instant (survival's --at DELAY and +DELAY, --restore-time +DELAY).
#pragma once

#include <cstdint>
#include <string_view>

namespace moonquota::util {

// The longest span accepted: 100 years of 365.25 days (anything longer is a typing mistake, and
// every instant it makes still fits in 63 bits).
inline constexpr std::uint64_t k_max_span_ms = 36'525ULL * 86'400'000ULL;

enum class SpanFault {
  none,
  malformed,  // not digits and a known unit
  no_unit,    // a number other than 0 without a unit
  too_long,   // more than k_max_span_ms
};

struct ParsedSpan {
  std::uint64_t ms = 0;
  SpanFault fault = SpanFault::none;
};

// Never throws or overflows, whatever the text.
[[nodiscard]] ParsedSpan parse_span_ms(std::string_view text);

}  // namespace moonquota::util
