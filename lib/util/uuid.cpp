#include "util/uuid.hpp"

#include <cctype>
#include <charconv>

namespace moonquota::util {

namespace {

// std::stoull(s, nullptr, 10): skips leading whitespace, accepts an optional sign, needs at
// least one digit, ignores trailing characters, fails on overflow. A '-' sign negates modulo
// 2^64 (strtoull semantics), which the lenient parser accepts too.
std::optional<std::uint64_t> stoull_like(std::string_view s) {
  size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  bool negative = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
    negative = s[i] == '-';
    ++i;
  }
  std::uint64_t value = 0;
  auto [ptr, ec] = std::from_chars(s.data() + i, s.data() + s.size(), value, 10);
  if (ec != std::errc() || ptr == s.data() + i) return std::nullopt;
  return negative ? (~value + 1) : value;
}

}  // namespace

std::string Uuid::to_string() const { return std::to_string(first) + "-" + std::to_string(second); }

std::optional<Uuid> parse_uuid_lenient(std::string_view text) {
  size_t dash = text.find('-');
  if (dash == std::string_view::npos || dash == 0 || dash + 1 == text.size()) return std::nullopt;
  auto a = stoull_like(text.substr(0, dash));
  auto b = stoull_like(text.substr(dash + 1));
  if (!a || !b) return std::nullopt;
  return Uuid{*a, *b};
}

bool is_canonical_uuid(std::string_view text) {
  auto u = parse_uuid_lenient(text);
  return u && u->to_string() == text;
}

}  // namespace moonquota::util
