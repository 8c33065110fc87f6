#include "format/msgpack_writer.hpp"

#include <limits>

namespace moonquota::format {

namespace {
constexpr std::uint8_t k_no_code = 0;  // "this family has no such form": bin has no fix form, arrays/maps no 8-bit one
}  // namespace

void MsgpackWriter::put_be(std::uint64_t value, int bytes) {
  for (int shift = (bytes - 1) * 8; shift >= 0; shift -= 8) { put_byte(static_cast<std::uint8_t>(value >> shift)); }
}

void MsgpackWriter::pack_uint(std::uint64_t value) {
  if (value <= 0x7f) {
    put_byte(static_cast<std::uint8_t>(value));
  } else if (value <= 0xff) {
    put_byte(0xcc);
    put_be(value, 1);
  } else if (value <= 0xffff) {
    put_byte(0xcd);
    put_be(value, 2);
  } else if (value <= 0xffffffffULL) {
    put_byte(0xce);
    put_be(value, 4);
  } else {
    put_byte(0xcf);
    put_be(value, 8);
  }
}

void MsgpackWriter::pack_int(std::int64_t value) {
  if (value >= 0) {
    pack_uint(static_cast<std::uint64_t>(value));
    return;
  }
  // Two's complement bytes of the negative value, written big-endian.
  const auto bits = static_cast<std::uint64_t>(value);
  if (value >= -32) {
    put_byte(static_cast<std::uint8_t>(bits));
  } else if (value >= std::numeric_limits<std::int8_t>::min()) {
    put_byte(0xd0);
    put_be(bits, 1);
  } else if (value >= std::numeric_limits<std::int16_t>::min()) {
    put_byte(0xd1);
    put_be(bits, 2);
  } else if (value >= std::numeric_limits<std::int32_t>::min()) {
    put_byte(0xd2);
    put_be(bits, 4);
  } else {
    put_byte(0xd3);
    put_be(bits, 8);
  }
}

void MsgpackWriter::pack_bool(bool value) { put_byte(value ? 0xc3 : 0xc2); }

void MsgpackWriter::pack_nil() { put_byte(0xc0); }

void MsgpackWriter::put_length_header(std::uint64_t length, std::uint8_t fix_base, std::uint64_t fix_limit,
                                      std::uint8_t code8, std::uint8_t code16, std::uint8_t code32, const char* what) {
  if (length > 0xffffffffULL) {
    if (m_status.ok()) {
      m_status = util::Status::invalid_argument(std::string("msgpack ") + what + " of " + std::to_string(length) +
                                                " exceeds 2^32-1");
    }
    return;
  }
  if (fix_base != k_no_code && length <= fix_limit) {
    put_byte(static_cast<std::uint8_t>(fix_base | length));
  } else if (code8 != k_no_code && length <= 0xff) {
    put_byte(code8);
    put_be(length, 1);
  } else if (length <= 0xffff) {
    put_byte(code16);
    put_be(length, 2);
  } else {
    put_byte(code32);
    put_be(length, 4);
  }
}

void MsgpackWriter::pack_str(std::string_view value) {
  put_length_header(value.size(), 0xa0, 31, 0xd9, 0xda, 0xdb, "string");
  if (value.size() <= 0xffffffffULL) m_out->append(value);
}

void MsgpackWriter::pack_bin(std::string_view value) {
  put_length_header(value.size(), k_no_code, 0, 0xc4, 0xc5, 0xc6, "binary");
  if (value.size() <= 0xffffffffULL) m_out->append(value);
}

void MsgpackWriter::pack_array_header(std::uint64_t count) {
  put_length_header(count, 0x90, 15, k_no_code, 0xdc, 0xdd, "array");
}

void MsgpackWriter::pack_map_header(std::uint64_t count) {
  put_length_header(count, 0x80, 15, k_no_code, 0xde, 0xdf, "map");
}

}  // namespace moonquota::format
