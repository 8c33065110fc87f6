// Byte strings as text: hex, UTF-8 validity, and a printable escape of control bytes. Used by
// every renderer that shows a key or a tenant id read from untrusted input.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace moonquota::util {

// A printable form of a raw byte string: control bytes (< 0x20, 0x7f) as \xNN, the rest unchanged.
[[nodiscard]] std::string printable(const std::string& raw);

// True when `s` is well-formed UTF-8 (JSON strings must be).
[[nodiscard]] bool is_valid_utf8(std::string_view s);

// Lower-case hex of the bytes.
[[nodiscard]] std::string to_hex(std::string_view s);
// The bytes of to_hex's text (lowercase, two digits a byte); nullopt for anything else.
[[nodiscard]] std::optional<std::string> from_hex(std::string_view hex);

// `s` without leading and trailing ASCII white space (space, \t \n \r \f \v).
[[nodiscard]] std::string trim_ascii(const std::string& s);

// `s` with the ASCII letters A-Z made lower case; every other byte unchanged (no locale).
[[nodiscard]] std::string ascii_lower(std::string_view s);

}  // namespace moonquota::util
