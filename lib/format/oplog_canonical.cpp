#include "format/oplog_canonical.hpp"

#include <array>
#include <cstring>

namespace moonquota::format {

namespace {

// Bytes a canonical string holds as they are: printable ASCII but '"' and '\\'.
constexpr auto k_plain = [] {
  std::array<bool, 256> table{};
  for (int c = 0x20; c <= 0x7e; ++c) table[c] = c != '"' && c != '\\';
  return table;
}();

class Scanner {
 public:
  explicit Scanner(std::string_view text) : m_text(text) {}

  bool literal(char c) {
    if (m_pos >= m_text.size() || m_text[m_pos] != c) return false;
    ++m_pos;
    return true;
  }

  bool number(std::uint64_t& out) {
    const std::size_t start = m_pos;
    std::uint64_t value = 0;
    while (m_pos < m_text.size() && m_text[m_pos] >= '0' && m_text[m_pos] <= '9') {
      const auto digit = static_cast<std::uint64_t>(m_text[m_pos] - '0');
      if (value > (UINT64_MAX - digit) / 10) return false;
      value = value * 10 + digit;
      ++m_pos;
    }
    if (m_pos == start) return false;
    if (m_text[start] == '0' && m_pos - start > 1) return false;  // leading zero
    out = value;
    return true;
  }

  bool string(std::string_view& out) {
    if (!literal('"')) return false;
    const std::size_t start = m_pos;
    while (m_pos < m_text.size()) {
      m_pos = skip_plain_ascii(m_text, m_pos);
      if (m_pos >= m_text.size()) break;
      const auto c = static_cast<unsigned char>(m_text[m_pos]);
      if (c == '"') {
        out = m_text.substr(start, m_pos - start);
        ++m_pos;
        return true;
      }
      if (c < 0x20 || c > 0x7e || c == '\\') return false;
      ++m_pos;
    }
    return false;
  }

  [[nodiscard]] bool at_end() const { return m_pos == m_text.size(); }
  [[nodiscard]] std::size_t pos() const { return m_pos; }

 private:
  std::string_view m_text;
  std::size_t m_pos = 0;
};

bool scan_entry(Scanner& s, CanonicalEntryView& e) {
  return s.literal('[') && s.number(e.op_type) && s.literal(',') && s.string(e.tenant_id) && s.literal(',') &&
         s.string(e.key) && s.literal(',') && s.string(e.payload_base64) && s.literal(']');
}

}  // namespace

std::size_t skip_plain_ascii(std::string_view text, std::size_t pos) {
  constexpr std::uint64_t k_ones = 0x0101010101010101ULL;
  constexpr std::uint64_t k_highs = 0x8080808080808080ULL;
  const std::size_t size = text.size();
  while (pos + 8 <= size) {
    std::uint64_t w = 0;
    std::memcpy(&w, text.data() + pos, 8);
    // A byte is special when its high bit is set (> 0x7f), it is below 0x20, or it equals 0x7f,
    // '"' or '\\' (a zero byte after the xor). Each test is exact on whether any byte matches.
    auto has_zero = [](std::uint64_t v) { return (v - k_ones) & ~v & k_highs; };
    const std::uint64_t special = (w & k_highs) | ((w - k_ones * 0x20) & ~w & k_highs) | has_zero(w ^ (k_ones * 0x7f)) |
                                  has_zero(w ^ (k_ones * '"')) | has_zero(w ^ (k_ones * '\\'));
    if (special != 0) break;
    pos += 8;
  }
  while (pos < size && k_plain[static_cast<unsigned char>(text[pos])]) ++pos;
  return pos;
}

bool scan_canonical_batch(std::string_view text, CanonicalBatchView& out) {
  out.entries.clear();
  Scanner s(text);
  if (!(s.literal('[') && s.number(out.schema_version) && s.literal(',') && s.number(out.batch_id) && s.literal(',') &&
        s.number(out.first_seq) && s.literal(',') && s.number(out.last_seq) && s.literal(',') && s.literal('['))) {
    return false;
  }
  do {
    CanonicalEntryView& e = out.entries.emplace_back();
    if (!scan_entry(s, e)) return false;
  } while (s.literal(','));
  if (!s.literal(']')) return false;
  out.checksum_input_end = s.pos();
  return s.literal(',') && s.number(out.checksum) && s.literal(']') && s.at_end();
}

}  // namespace moonquota::format
