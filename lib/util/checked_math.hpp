// Overflow-checked and saturating integer arithmetic. An overflow is reported, never wrapped.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>

namespace moonquota::util {

__extension__ typedef unsigned __int128 u128;  // NOLINT(modernize-use-using)

inline constexpr std::uint64_t k_max_charged_bytes = (std::uint64_t{1} << 63) - 1;  // 2^63-1

[[nodiscard]] inline std::optional<std::uint64_t> checked_add(std::uint64_t a, std::uint64_t b) {
  std::uint64_t r = 0;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}

[[nodiscard]] inline std::optional<std::uint64_t> checked_mul(std::uint64_t a, std::uint64_t b) {
  std::uint64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

[[nodiscard]] inline std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
  auto r = checked_add(a, b);
  return r ? *r : std::numeric_limits<std::uint64_t>::max();
}

// a * b in 128 bits, clamped to 2^64-1 (Mooncake's CompletedMemoryQuotaCharge rule).
[[nodiscard]] inline std::uint64_t clamped_mul(std::uint64_t a, std::uint64_t b) {
  u128 p = static_cast<u128>(a) * b;
  if (p > std::numeric_limits<std::uint64_t>::max()) return std::numeric_limits<std::uint64_t>::max();
  return static_cast<std::uint64_t>(p);
}

// A 128-bit sum as 64 bits, saturated at 2^64-1.
[[nodiscard]] inline std::uint64_t saturated_u64(u128 value) {
  return value > std::numeric_limits<std::uint64_t>::max() ? std::numeric_limits<std::uint64_t>::max()
                                                           : static_cast<std::uint64_t>(value);
}

// A byte count as a charge can hold it: saturated at 2^63-1 (the account's counter has 63 bits).
[[nodiscard]] inline std::uint64_t saturated_charge(u128 bytes) {
  return bytes > k_max_charged_bytes ? k_max_charged_bytes : static_cast<std::uint64_t>(bytes);
}

}  // namespace moonquota::util
