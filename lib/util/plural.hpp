// "1 entry", "2 entries": a count with its noun in the right number, for text reports.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace moonquota::util {

[[nodiscard]] inline std::string counted(std::uint64_t n, std::string_view singular, std::string_view plural) {
  return std::to_string(n) + " " + std::string(n == 1 ? singular : plural);
}

}  // namespace moonquota::util
