// Mooncake UUID strings "<first>-<second>" (snapshot-format.md §4.4). Parsing follows the
// master's lenient std::stoull rules; canonical form is checked separately.
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace moonquota::util {

struct Uuid {
  std::uint64_t first = 0;
  std::uint64_t second = 0;
  auto operator<=>(const Uuid&) const = default;
  [[nodiscard]] bool is_zero() const { return first == 0 && second == 0; }
  [[nodiscard]] std::string to_string() const;
};

// What the master accepts: split at the first '-', neither first nor last character; each
// side parsed like std::stoull(base 10) (leading whitespace, '+', trailing garbage accepted;
// out of range rejected).
[[nodiscard]] std::optional<Uuid> parse_uuid_lenient(std::string_view text);

// True when `text` is exactly the canonical "<u64>-<u64>" form.
[[nodiscard]] bool is_canonical_uuid(std::string_view text);

}  // namespace moonquota::util
