#include "format/struct_pack_reader.hpp"

#include <cstdio>

namespace moonquota::format {

const char* payload_form_name(PayloadForm form) { return form == PayloadForm::compact ? "compact" : "type-literal"; }

bool StructPackReader::fail(const std::string& message) {
  if (m_error.empty()) m_error = message + " at byte " + std::to_string(m_pos);
  return false;
}

bool StructPackReader::need(std::size_t n, const char* what) {
  if (m_bytes.size() - m_pos < n) {
    return fail(std::string("truncated ") + what + " (" + std::to_string(n) + " bytes needed, " +
                std::to_string(m_bytes.size() - m_pos) + " left)");
  }
  return true;
}

bool StructPackReader::fixed(std::uint64_t& v, unsigned width, const char* what) {
  if (!need(width, what)) return false;
  v = 0;
  for (unsigned i = 0; i < width; ++i) {
    v |= static_cast<std::uint64_t>(static_cast<unsigned char>(m_bytes[m_pos + i])) << (8 * i);
  }
  m_pos += width;
  return true;
}

bool StructPackReader::open(std::uint32_t type_code, std::string_view type_literal, StructPackHeader& out) {
  std::uint64_t head = 0;
  if (!fixed(head, 4, "hash_head")) return false;
  if ((head & 0xFFFFFFFEULL) != (type_code & 0xFFFFFFFEU)) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "type code 0x%08llX, expected 0x%08X", static_cast<unsigned long long>(head & ~1ULL),
                  type_code & 0xFFFFFFFEU);
    m_pos = 0;
    return fail(buf);
  }
  out = StructPackHeader{};
  out.has_metainfo = (head & 1U) != 0;
  std::size_t total_len_at = 0;
  if (out.has_metainfo) {
    std::uint8_t meta = 0;
    if (!u8(meta, "metainfo")) return false;
    out.metainfo = meta;
    if ((meta & 0xE0U) != 0) {
      --m_pos;  // the error names the metainfo byte
      return fail("metainfo reserved bits 5-7 are set (never written)");
    }
    const unsigned data_code = meta & 3U;
    out.length_width = 1U << ((meta >> 3) & 3U);
    if (data_code != 0) {
      out.has_total_len = true;
      total_len_at = m_pos;
      if (!fixed(out.total_len, 1U << data_code, "total_len")) return false;
      if (out.total_len > m_bytes.size()) {
        m_pos = total_len_at;
        return fail("total_len " + std::to_string(out.total_len) + " exceeds the " + std::to_string(m_bytes.size()) +
                    "-byte buffer");
      }
    }
    if ((meta & 4U) != 0) {
      out.form = PayloadForm::type_literal;
      if (!need(type_literal.size() + 1, "type literal")) return false;
      if (m_bytes.substr(m_pos, type_literal.size()) != type_literal || m_bytes[m_pos + type_literal.size()] != '\0') {
        return fail("embedded type literal differs from the expected one (hash conflict)");
      }
      m_pos += type_literal.size() + 1;
    }
  }
  m_length_width = out.length_width;
  out.body_offset = m_pos;
  if (out.has_total_len && out.total_len < m_pos) {
    m_pos = total_len_at;
    return fail("total_len is smaller than the header");
  }
  return true;
}

bool StructPackReader::u8(std::uint8_t& v, const char* what) {
  std::uint64_t x = 0;
  if (!fixed(x, 1, what)) return false;
  v = static_cast<std::uint8_t>(x);
  return true;
}

bool StructPackReader::u64(std::uint64_t& v, const char* what) { return fixed(v, 8, what); }

bool StructPackReader::i32(std::int32_t& v, const char* what) {
  std::uint64_t x = 0;
  if (!fixed(x, 4, what)) return false;
  v = static_cast<std::int32_t>(static_cast<std::uint32_t>(x));
  return true;
}

bool StructPackReader::boolean(bool& v, const char* what) {
  std::uint8_t b = 0;
  if (!u8(b, what)) return false;
  if (b > 1) {
    --m_pos;
    return fail(std::string(what) + ": bool byte " + std::to_string(b) + " is neither 0 nor 1");
  }
  v = b == 1;
  return true;
}

bool StructPackReader::count(std::uint64_t& v, std::size_t min_element_bytes, const char* what) {
  const std::size_t at = m_pos;
  if (!fixed(v, m_length_width, what)) return false;
  const std::size_t left = m_bytes.size() - m_pos;
  if (min_element_bytes > 0 && v > left / min_element_bytes) {
    m_pos = at;  // the error names the count
    return fail(std::string(what) + ": " + std::to_string(v) + " elements cannot fit in the " + std::to_string(left) +
                " bytes left");
  }
  return true;
}

bool StructPackReader::string(std::string& v, const char* what) {
  std::uint64_t n = 0;
  if (!count(n, 1, what)) return false;
  v.assign(m_bytes.data() + m_pos, static_cast<std::size_t>(n));
  m_pos += static_cast<std::size_t>(n);
  return true;
}

}  // namespace moonquota::format
