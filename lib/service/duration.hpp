// Durations as operators write them on a command line (--every): a positive whole number followed
// by one unit, ms, s, m, h or d ("500ms", "30s", "5m", "1h", "7d"); leading zeros count for nothing.
// No bare numbers, no fractions, no sums.
#pragma once

#include <cstdint>
#include <string>

#include "util/status.hpp"

namespace moonquota::service {

// The longest duration accepted: 7 days (a longer audit interval is a configuration mistake).
inline constexpr std::uint64_t k_max_duration_ms = 7ULL * 24 * 3600 * 1000;

// Milliseconds. Errors: invalid_argument naming `flag` and the text (empty, no unit, unknown
// unit, zero, above k_max_duration_ms).
[[nodiscard]] util::Result<std::uint64_t> parse_duration_ms(const std::string& text, const std::string& flag);

// "500ms", "30s", "5m", "1h", "1d": the largest unit that divides `ms` exactly.
[[nodiscard]] std::string duration_text(std::uint64_t ms);

}  // namespace moonquota::service
