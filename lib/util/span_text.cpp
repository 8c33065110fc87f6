#include "util/span_text.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <utility>

namespace moonquota::util {

ParsedSpan parse_span_ms(std::string_view text) {
  static constexpr std::array<std::pair<std::string_view, std::uint64_t>, 5> k_units = {
      {{"ms", 1}, {"s", 1000}, {"m", 60'000}, {"h", 3'600'000}, {"d", 86'400'000}}};
  std::string_view number = text;
  std::uint64_t unit = 0;
  for (const auto& [suffix, ms] : k_units) {  // "ms" before "s" and "m"
    if (number.size() > suffix.size() && number.substr(number.size() - suffix.size()) == suffix &&
        std::isdigit(static_cast<unsigned char>(number[number.size() - suffix.size() - 1])) != 0) {
      number.remove_suffix(suffix.size());
      unit = ms;
      break;
    }
  }
  if (number.empty() || number.find_first_not_of("0123456789") != std::string_view::npos) {
    return {0, SpanFault::malformed};
  }
  // Leading zeros count for nothing; more digits than any span within the limit has is too long.
  number.remove_prefix(std::min(number.find_first_not_of('0'), number.size()));
  if (number.size() > 19) return {0, SpanFault::too_long};
  std::uint64_t value = 0;
  if (!number.empty()) std::from_chars(number.data(), number.data() + number.size(), value, 10);
  if (unit == 0) {
    if (value != 0) return {0, SpanFault::no_unit};
    unit = 1;
  }
  if (value > k_max_span_ms / unit) return {0, SpanFault::too_long};
  return {value * unit, SpanFault::none};
}

}  // namespace moonquota::util
