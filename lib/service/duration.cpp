#include "service/duration.hpp"

#include <array>
#include <utility>

namespace moonquota::service {

namespace {

constexpr std::array<std::pair<const char*, std::uint64_t>, 4> k_units{
    {{"h", 3600 * 1000}, {"m", 60 * 1000}, {"s", 1000}, {"ms", 1}}};

}  // namespace

util::Result<std::uint64_t> parse_duration_ms(const std::string& text, const std::string& flag) {
  const auto bad = [&](const std::string& why) {
    return util::Status::invalid_argument(flag + " '" + text + "': " + why +
                                          " (a whole number and a unit: 500ms, 30s, 5m, 1h)");
  };
  std::size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  if (digits == 0) return bad("does not start with a number");
  const std::string unit = text.substr(digits);
  std::uint64_t scale = 0;
  for (const auto& [name, ms] : k_units) {
    if (unit == name) scale = ms;
  }
  if (scale == 0 && !unit.empty() && unit.front() == '.') return bad("not a whole number");
  if (scale == 0) return bad(unit.empty() ? "no unit" : "unknown unit '" + unit + "'");
  // Digits beyond what fits in 7 days are rejected before any multiplication can overflow.
  if (digits > 10) return bad("longer than 7 days");
  const std::uint64_t count = std::stoull(text.substr(0, digits));
  if (count == 0) return bad("must be more than zero");
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
