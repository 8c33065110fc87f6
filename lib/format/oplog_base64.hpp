// Standard RFC 4648 base64 (alphabet A-Z a-z 0-9 + /, '=' padding, no line breaks), as the
// OpLog batch record carries payloads (oplog-format.md §6.4) and as etcd's JSON gateway carries
// keys and values (build-notes.md §5).
//
// Grammar accepted by base64_decode_canonical:
//   text   = *quad [ last ]          length a multiple of 4
//   quad   = 4 alphabet characters
//   last   = 2 alphabet "==" | 3 alphabet "="   with the unused low bits zero
// Anything else (missing padding, whitespace, a wrong length, non-zero unused bits, characters
// outside the alphabet) is "not canonical": decode(text) re-encoded must equal text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace moonquota::format {

[[nodiscard]] std::string base64_encode(std::string_view bytes);

// The decoded bytes, or nothing when `text` is not canonical base64. `max_decoded_bytes` bounds
// the output (checked from the text length before anything is allocated).
[[nodiscard]] std::optional<std::string> base64_decode_canonical(std::string_view text,
                                                                 std::size_t max_decoded_bytes = SIZE_MAX);

inline constexpr std::size_t k_not_base64 = SIZE_MAX;

// The same decoder writing into `out`, which must hold text.size() / 4 * 3 bytes: the number of
// bytes written, or k_not_base64 (the bytes at `out` then unspecified).
[[nodiscard]] std::size_t base64_decode_canonical_to(std::string_view text, char* out);

}  // namespace moonquota::format
