// ParseTenantQuotaBytes (quota-semantics.md §9.4) and the policy save format (§9.5).
#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "format/policy_yaml.hpp"
#include "util/checked_math.hpp"

namespace moonquota::format {
namespace {

struct QuotaUnit {
  std::string_view suffix;
  std::uint64_t multiplier;
};

constexpr std::array<QuotaUnit, 6> k_quota_units{{
    {"", 1},
    {"B", 1},
    {"KB", std::uint64_t{1} << 10},
    {"MB", std::uint64_t{1} << 20},
    {"GB", std::uint64_t{1} << 30},
    {"TB", std::uint64_t{1} << 40},
}};

bool is_ascii_digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

util::Result<std::uint64_t> parse_quota_bytes(std::string_view text) {
  using util::Status;
  if (text.empty()) return Status::invalid_argument("quota is empty");
  if (!is_ascii_digit(text.front())) {
    return Status::invalid_argument("quota must start with a decimal digit (no sign, space or bare unit)");
  }

  // Leading zeros never grow the value, so any number of them is accepted.
  std::size_t digits_end = 0;
  std::uint64_t number = 0;
  bool number_overflowed = false;
  for (; digits_end < text.size() && is_ascii_digit(text[digits_end]); ++digits_end) {
    if (number_overflowed) continue;  // keep scanning: the unit is still checked
    auto digit = static_cast<std::uint64_t>(text[digits_end] - '0');
    auto scaled = util::checked_mul(number, 10);
    auto next = scaled ? util::checked_add(*scaled, digit) : std::nullopt;
    number_overflowed = !next.has_value();
    number = next.value_or(number);
  }

  std::string_view suffix = text.substr(digits_end);
  const QuotaUnit* unit = nullptr;
  for (const auto& candidate : k_quota_units) {
    if (candidate.suffix == suffix) unit = &candidate;
  }
  if (unit == nullptr) {
    return Status::invalid_argument(
        fmt::format("unexpected {} after the number: the unit must be one of B, KB, MB, GB, TB, "
                    "case-sensitive, directly after the digits (no space, decimal point or other unit)",
                    quote_policy_name(suffix)));
  }
  if (number_overflowed) return Status::invalid_argument("the number exceeds 2^64-1");
  if (number == 0) return Status::invalid_argument("quota must be positive");

  util::u128 bytes = static_cast<util::u128>(number) * unit->multiplier;
  if (bytes > util::k_max_charged_bytes) {
    return Status::invalid_argument(
        fmt::format("quota exceeds the accounting limit of {} bytes (2^63-1)", util::k_max_charged_bytes));
  }
  return static_cast<std::uint64_t>(bytes);
}

std::string quote_policy_name(std::string_view name) {
  std::string quoted = "\"";
  for (char c : name) {
    auto byte = static_cast<unsigned char>(c);
    switch (c) {
      case '\\': quoted += "\\\\"; break;
      case '"': quoted += "\\\""; break;
      case '\0': quoted += "\\0"; break;
      case '\a': quoted += "\\a"; break;
      case '\b': quoted += "\\b"; break;
      case '\t': quoted += "\\t"; break;
      case '\n': quoted += "\\n"; break;
      case '\v': quoted += "\\v"; break;
      case '\f': quoted += "\\f"; break;
      case '\r': quoted += "\\r"; break;
      default:
        if (byte < 0x20 || byte == 0x7f) {
          quoted += fmt::format("\\x{:02X}", byte);
        } else {
          quoted += c;
        }
    }
  }
  quoted += '"';
  return quoted;
}

std::string format_policy_yaml(const std::map<std::string, std::uint64_t>& quotas) {
  std::string yaml = "version: 1\n\n";
  if (quotas.empty()) return yaml + "tenants: []\n";
  yaml += "tenants:\n";
  for (const auto& [name, bytes] : quotas) {  // std::map order is bytewise
    yaml += fmt::format("  - name: {}\n    quota: {}\n", quote_policy_name(name), bytes);
  }
  return yaml;
}

}  // namespace moonquota::format
