#include "format/msgpack_reader.hpp"

namespace moonquota::format {

const char* mp_type_name(MpType t) {
  switch (t) {
    case MpType::nil: return "nil";
    case MpType::boolean: return "boolean";
    case MpType::pos_int: return "positive integer";
    case MpType::neg_int: return "negative integer";
    case MpType::float32: return "float32";
    case MpType::float64: return "float64";
    case MpType::str: return "string";
    case MpType::bin: return "binary";
    case MpType::array: return "array";
    case MpType::map: return "map";
    case MpType::ext: return "ext";
  }
  return "?";
}

bool MsgpackReader::fail(const std::string& what, std::size_t rel_offset) {
  if (m_error.empty()) m_error = what + " at byte offset " + std::to_string(m_base + rel_offset);
  return false;
}

bool MsgpackReader::need(std::size_t n, const char* what) {
  if (m_data.size() - m_pos < n) return fail(std::string("truncated msgpack ") + what, m_pos);
  return true;
}

std::uint64_t MsgpackReader::be(std::size_t n) {
  std::uint64_t v = 0;
  for (std::size_t k = 0; k < n; ++k) v = (v << 8) | static_cast<unsigned char>(m_data[m_pos + k]);
  m_pos += n;
  return v;
}

bool MsgpackReader::read_header_slow(MpHeader& h) {
  if (failed()) return false;
  h = MpHeader{};
  h.offset = m_base + m_pos;
  if (!need(1, "value")) return false;
  const auto b = static_cast<unsigned char>(m_data[m_pos++]);
  auto set_uint = [&](std::uint64_t v, std::uint64_t min_for_format) {
    h.type = MpType::pos_int;
    h.u = v;
    h.smallest = v >= min_for_format;
  };
  auto set_int = [&](std::int64_t v, std::int64_t min_neg_for_format) {
    if (v >= 0) {
      h.type = MpType::pos_int;
      h.u = static_cast<std::uint64_t>(v);
      h.smallest = false;  // msgpack-c packs non-negative values in unsigned formats
    } else {
      h.type = MpType::neg_int;
      h.i = v;
      h.smallest = v < min_neg_for_format;
    }
  };
  auto container = [&](MpType t, std::uint64_t len, std::uint64_t min_for_format) {
    h.type = t;
    h.length = static_cast<std::uint32_t>(len);
    h.smallest = len >= min_for_format;
    // Every element takes at least one byte: a longer declared length cannot be satisfied.
    std::uint64_t per = (t == MpType::map) ? 2 : 1;
    if (!m_check_lengths) return true;
    if (t == MpType::array || t == MpType::map) {
      if (len > remaining() / per)
        return fail(
            std::string(mp_type_name(t)) + " of " + std::to_string(len) + " elements exceeds the remaining input",
            h.offset - m_base);
    } else if (len > remaining()) {
      return fail(std::string("truncated msgpack ") + mp_type_name(t) + " of " + std::to_string(len) + " bytes",
                  h.offset - m_base);
    }
    return true;
  };
  if (b <= 0x7f) {
    h.type = MpType::pos_int;
    h.u = b;
    return true;
  }
  if (b >= 0xe0) {
    h.type = MpType::neg_int;
    h.i = static_cast<std::int8_t>(b);
    return true;
  }
  if ((b & 0xf0) == 0x80) return container(MpType::map, b & 0x0f, 0);
  if ((b & 0xf0) == 0x90) return container(MpType::array, b & 0x0f, 0);
  if ((b & 0xe0) == 0xa0) return container(MpType::str, b & 0x1f, 0);
  switch (b) {
    case 0xc0: h.type = MpType::nil; return true;
    case 0xc2:
      h.type = MpType::boolean;
      h.boolean = false;
      return true;
    case 0xc3:
      h.type = MpType::boolean;
      h.boolean = true;
      return true;
    case 0xc4:
      if (!need(1, "bin8 length")) return false;
      return container(MpType::bin, be(1), 0);
    case 0xc5:
      if (!need(2, "bin16 length")) return false;
      return container(MpType::bin, be(2), 0x100);
    case 0xc6:
      if (!need(4, "bin32 length")) return false;
      return container(MpType::bin, be(4), 0x10000);
    case 0xc7:
    case 0xc8:
    case 0xc9: {
      std::size_t n = b == 0xc7 ? 1 : (b == 0xc8 ? 2 : 4);
      if (!need(n + 1, "ext header")) return false;
      std::uint64_t len = be(n);
      h.ext_type = static_cast<std::int8_t>(m_data[m_pos++]);
      return container(MpType::ext, len, 0);
    }
    case 0xca:
      if (!need(4, "float32")) return false;
      m_pos += 4;
      h.type = MpType::float32;
      return true;
    case 0xcb:
      if (!need(8, "float64")) return false;
      m_pos += 8;
      h.type = MpType::float64;
      return true;
    case 0xcc:
      if (!need(1, "uint8")) return false;
      set_uint(be(1), 0x80);
      return true;
    case 0xcd:
      if (!need(2, "uint16")) return false;
      set_uint(be(2), 0x100);
      return true;
    case 0xce:
      if (!need(4, "uint32")) return false;
      set_uint(be(4), 0x10000);
      return true;
    case 0xcf:
      if (!need(8, "uint64")) return false;
      set_uint(be(8), 0x100000000ULL);
      return true;
    case 0xd0:
      if (!need(1, "int8")) return false;
      set_int(static_cast<std::int8_t>(be(1)), -32);
      return true;
    case 0xd1:
      if (!need(2, "int16")) return false;
      set_int(static_cast<std::int16_t>(be(2)), -128);
      return true;
    case 0xd2:
      if (!need(4, "int32")) return false;
      set_int(static_cast<std::int32_t>(be(4)), -32768);
      return true;
    case 0xd3:
      if (!need(8, "int64")) return false;
      set_int(static_cast<std::int64_t>(be(8)), -2147483648LL);
      return true;
    case 0xd4:
    case 0xd5:
    case 0xd6:
    case 0xd7:
    case 0xd8: {
      std::uint32_t len = 1u << (b - 0xd4);
      if (!need(1, "fixext type")) return false;
      h.ext_type = static_cast<std::int8_t>(m_data[m_pos++]);
      return container(MpType::ext, len, 0);
    }
    case 0xd9:
      if (!need(1, "str8 length")) return false;
      return container(MpType::str, be(1), 32);
    case 0xda:
      if (!need(2, "str16 length")) return false;
      return container(MpType::str, be(2), 0x100);
    case 0xdb:
      if (!need(4, "str32 length")) return false;
      return container(MpType::str, be(4), 0x10000);
    case 0xdc:
      if (!need(2, "array16 length")) return false;
      return container(MpType::array, be(2), 16);
    case 0xdd:
      if (!need(4, "array32 length")) return false;
      return container(MpType::array, be(4), 0x10000);
    case 0xde:
      if (!need(2, "map16 length")) return false;
      return container(MpType::map, be(2), 16);
    case 0xdf:
      if (!need(4, "map32 length")) return false;
      return container(MpType::map, be(4), 0x10000);
    default: break;
  }
  m_pos--;
  return fail("invalid msgpack byte 0xc1", m_pos);
}

bool MsgpackReader::read_payload_slow(std::uint32_t length, std::string_view& out) {
  if (failed()) return false;
  if (!need(length, "payload")) return false;
  out = m_data.substr(m_pos, length);
  m_pos += length;
  return true;
}

bool MsgpackReader::skip_after_header(const MpHeader& h) {
  std::uint64_t pending = 0;
  auto account = [&](const MpHeader& x) {
    switch (x.type) {
      case MpType::str:
      case MpType::bin:
      case MpType::ext:
        if (!need(x.length, "payload")) return false;
        m_pos += x.length;
        return true;
      case MpType::array: pending += x.length; return true;
      case MpType::map: pending += 2ULL * x.length; return true;
      default: return true;
    }
  };
  if (!account(h)) return false;
  MpHeader inner;
  while (pending > 0) {
    --pending;
    if (!read_header(inner) || !account(inner)) return false;
  }
  return true;
}

bool MsgpackReader::skip_value() {
  MpHeader h;
  if (!read_header(h)) return false;
  return skip_after_header(h);
}

}  // namespace moonquota::format
