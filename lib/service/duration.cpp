#include "service/duration.hpp"

#include <algorithm>
#include <array>
#include <utility>

namespace moonquota::service {

namespace {

constexpr std::array<std::pair<const char*, std::uint64_t>, 5> k_units{
    {{"d", 24 * 3600 * 1000}, {"h", 3600 * 1000}, {"m", 60 * 1000}, {"s", 1000}, {"ms", 1}}};

}  // namespace

util::Result<std::uint64_t> parse_duration_ms(const std::string& text, const std::string& flag) {
  const auto bad = [&](const std::string& why) {
    return util::Status::invalid_argument(flag + " '" + text + "': " + why +
                                          " (a whole number and a unit: 500ms, 30s, 5m, 1h, 7d)");
  };
  std::size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  if (digits == 0) return bad("does not start with a number");
  // Leading zeros count for nothing: 00000000001s is 1s.
  const std::size_t first_nonzero = std::min(text.find_first_not_of('0'), digits);
  const std::string number = text.substr(first_nonzero, digits - first_nonzero);
  if (number.empty()) return bad("must be more than zero");
  const std::string unit = text.substr(digits);
  std::uint64_t scale = 0;
  for (const auto& [name, ms] : k_units) {
    if (unit == name) scale = ms;
  }
  if (scale == 0 && !unit.empty() && unit.front() == '.') return bad("not a whole number");
  if (scale == 0) return bad(unit.empty() ? "no unit" : "unknown unit '" + unit + "'");
  // Digits beyond what fits in 7 days are rejected before any multiplication can overflow.
  if (number.size() > 10) return bad("longer than 7 days");
  const std::uint64_t count = std::stoull(number);
  if (count > k_max_duration_ms / scale) return bad("longer than 7 days");
  return count * scale;
}

std::string duration_text(std::uint64_t ms) {
  for (const auto& [name, scale] : k_units) {
    if (ms != 0 && ms % scale == 0) return std::to_string(ms / scale) + name;
  }
  return std::to_string(ms) + "ms";
}

}  // namespace moonquota::service
