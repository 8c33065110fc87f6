#include "util/crc32c.hpp"

#include <array>
#include <cstring>

namespace moonquota::util {

namespace {

constexpr std::uint32_t k_poly = 0x82F63B78u;

using Tables = std::array<std::array<std::uint32_t, 256>, 8>;

constexpr Tables make_tables() {
  Tables t{};
  for (std::uint32_t i = 0; i < 256; ++i) {
    std::uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1u) != 0 ? (c >> 1) ^ k_poly : c >> 1;
    t[0][i] = c;
  }
  for (std::size_t s = 1; s < 8; ++s) {
    for (std::uint32_t i = 0; i < 256; ++i) t[s][i] = (t[s - 1][i] >> 8) ^ t[0][t[s - 1][i] & 0xFFu];
  }
  return t;
}

constexpr Tables k_tables = make_tables();

std::uint32_t update_table(std::uint32_t crc, const unsigned char* p, std::size_t n) {
  while (n >= 8) {
    std::uint32_t lo = 0;
    std::uint32_t hi = 0;
    std::memcpy(&lo, p, 4);
    std::memcpy(&hi, p + 4, 4);
    lo ^= crc;  // little-endian hosts only (x86-64, aarch64)
    crc = k_tables[7][lo & 0xFFu] ^ k_tables[6][(lo >> 8) & 0xFFu] ^ k_tables[5][(lo >> 16) & 0xFFu] ^
          k_tables[4][lo >> 24] ^ k_tables[3][hi & 0xFFu] ^ k_tables[2][(hi >> 8) & 0xFFu] ^
          k_tables[1][(hi >> 16) & 0xFFu] ^ k_tables[0][hi >> 24];
    p += 8;
    n -= 8;
  }
  while (n-- > 0) crc = (crc >> 8) ^ k_tables[0][(crc ^ *p++) & 0xFFu];
  return crc;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) std::uint32_t update_sse42(std::uint32_t crc, const unsigned char* p, std::size_t n) {
  std::uint64_t c = crc;
  while (n >= 8) {
    std::uint64_t word = 0;
    std::memcpy(&word, p, 8);
    c = __builtin_ia32_crc32di(c, word);
    p += 8;
    n -= 8;
  }
  auto c32 = static_cast<std::uint32_t>(c);
  while (n-- > 0) c32 = __builtin_ia32_crc32qi(c32, *p++);
  return c32;
}

bool has_sse42() {
  static const bool yes = __builtin_cpu_supports("sse4.2") != 0;
  return yes;
}
#endif

}  // namespace

void Crc32c::update(std::string_view bytes) {
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
#if defined(__x86_64__)
  if (has_sse42()) {
    m_state = update_sse42(m_state, p, bytes.size());
    return;
  }
#endif
  m_state = update_table(m_state, p, bytes.size());
}

std::string Crc32c::base64() const {
  static constexpr char k_alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const std::uint32_t v = value();
  const unsigned char b[4] = {static_cast<unsigned char>(v >> 24), static_cast<unsigned char>(v >> 16),
                              static_cast<unsigned char>(v >> 8), static_cast<unsigned char>(v)};
  std::string out;
  out += k_alphabet[b[0] >> 2];
  out += k_alphabet[((b[0] & 3) << 4) | (b[1] >> 4)];
  out += k_alphabet[((b[1] & 15) << 2) | (b[2] >> 6)];
  out += k_alphabet[b[2] & 63];
  out += k_alphabet[b[3] >> 2];
  out += k_alphabet[(b[3] & 3) << 4];
  out += "==";
  return out;
}

std::uint32_t crc32c(std::string_view bytes) {
  Crc32c c;
  c.update(bytes);
  return c.value();
}

}  // namespace moonquota::util
