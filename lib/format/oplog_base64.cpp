#include "format/oplog_base64.hpp"

#include <array>
#include <cstdint>

namespace moonquota::format {

namespace {

constexpr char k_alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

constexpr std::array<std::int8_t, 256> make_table() {
  std::array<std::int8_t, 256> t{};
  for (auto& v : t) v = -1;
  for (int i = 0; i < 64; ++i) t[static_cast<unsigned char>(k_alphabet[i])] = static_cast<std::int8_t>(i);
  return t;
}
constexpr auto k_table = make_table();

int value_of(char c) { return k_table[static_cast<unsigned char>(c)]; }

}  // namespace

std::string base64_encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const std::uint32_t v = (static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i])) << 16) |
                            (static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8) |
                            static_cast<unsigned char>(bytes[i + 2]);
    out.push_back(k_alphabet[(v >> 18) & 63]);
    out.push_back(k_alphabet[(v >> 12) & 63]);
    out.push_back(k_alphabet[(v >> 6) & 63]);
    out.push_back(k_alphabet[v & 63]);
  }
  const std::size_t rest = bytes.size() - i;
  if (rest > 0) {
    std::uint32_t v = static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i])) << 16;
    if (rest == 2) v |= static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8;
    out.push_back(k_alphabet[(v >> 18) & 63]);
    out.push_back(k_alphabet[(v >> 12) & 63]);
    out.push_back(rest == 2 ? k_alphabet[(v >> 6) & 63] : '=');
    out.push_back('=');
  }
  return out;
}

std::size_t base64_decode_canonical_to(std::string_view text, char* out) {
  if (text.size() % 4 != 0) return k_not_base64;
  char* dst = out;
  const std::size_t full = text.empty() ? 0 : text.size() - 4;  // every group but the last: no padding
  for (std::size_t i = 0; i < full; i += 4) {
    const int a = value_of(text[i]);
    const int b = value_of(text[i + 1]);
    const int c = value_of(text[i + 2]);
    const int d = value_of(text[i + 3]);
    if ((a | b | c | d) < 0) return k_not_base64;
    dst[0] = static_cast<char>((a << 2) | (b >> 4));
    dst[1] = static_cast<char>(((b & 0x0F) << 4) | (c >> 2));
    dst[2] = static_cast<char>(((c & 0x03) << 6) | d);
    dst += 3;
  }
  if (!text.empty()) {
    const std::size_t i = full;
    const int a = value_of(text[i]);
    const int b = value_of(text[i + 1]);
    if (a < 0 || b < 0) return k_not_base64;
    if (text[i + 2] == '=' && text[i + 3] == '=') {
      if ((b & 0x0F) != 0) return k_not_base64;  // unused bits must be zero
      *dst++ = static_cast<char>((a << 2) | (b >> 4));
    } else {
      const int c = value_of(text[i + 2]);
      if (c < 0) return k_not_base64;
      if (text[i + 3] == '=') {
        if ((c & 0x03) != 0) return k_not_base64;
        *dst++ = static_cast<char>((a << 2) | (b >> 4));
        *dst++ = static_cast<char>(((b & 0x0F) << 4) | (c >> 2));
      } else {
        const int d = value_of(text[i + 3]);
        if (d < 0) return k_not_base64;
        *dst++ = static_cast<char>((a << 2) | (b >> 4));
        *dst++ = static_cast<char>(((b & 0x0F) << 4) | (c >> 2));
        *dst++ = static_cast<char>(((c & 0x03) << 6) | d);
      }
    }
  }
  return static_cast<std::size_t>(dst - out);
}

std::optional<std::string> base64_decode_canonical(std::string_view text, std::size_t max_decoded_bytes) {
  if (text.size() % 4 != 0) return std::nullopt;
  if (max_decoded_bytes < SIZE_MAX - 2 && text.size() / 4 * 3 > max_decoded_bytes + 2) return std::nullopt;
  std::string out(text.size() / 4 * 3, '\0');
  const std::size_t n = base64_decode_canonical_to(text, out.data());
  if (n == k_not_base64) return std::nullopt;
  out.resize(n);
  if (out.size() > max_decoded_bytes) return std::nullopt;
  return out;
}

}  // namespace moonquota::format
