#include "format/msgpack_convert.hpp"

#include <limits>

namespace moonquota::format {

bool ValueReader::type_error(const MpHeader& h, const char* what, const char* expected) {
  if (m_error.empty()) {
    m_error = std::string(what) + ": expected " + expected + ", found " + mp_type_name(h.type) + " at byte offset " +
              std::to_string(h.offset);
  }
  // Keep the stream positioned after the offending value so callers that go on stay in sync.
  (void)m_reader.skip_after_header(h);
  return false;
}

bool ValueReader::error_at(std::size_t offset, const std::string& message) {
  if (m_error.empty()) m_error = message + " at byte offset " + std::to_string(offset);
  return false;
}

bool ValueReader::u32(std::uint32_t& out, const char* what) {
  MpHeader h;
  if (!header(h)) return false;
  if (h.type != MpType::pos_int || h.u > std::numeric_limits<std::uint32_t>::max()) {
    return type_error(h, what, "an unsigned 32-bit integer");
  }
  out = static_cast<std::uint32_t>(h.u);
  return true;
}

bool ValueReader::u8(std::uint8_t& out, const char* what) {
  MpHeader h;
  if (!header(h)) return false;
  if (h.type != MpType::pos_int || h.u > 255) return type_error(h, what, "an unsigned 8-bit integer");
  out = static_cast<std::uint8_t>(h.u);
  return true;
}

bool ValueReader::signed_value(const MpHeader& h, std::int64_t lo, std::int64_t hi, std::int64_t& out, const char* what,
                               const char* expected) {
  if (h.type == MpType::pos_int && h.u <= static_cast<std::uint64_t>(hi)) {
    out = static_cast<std::int64_t>(h.u);
    return true;
  }
  if (h.type == MpType::neg_int && h.i >= lo) {
    out = h.i;
    return true;
  }
  return type_error(h, what, expected);
}

bool ValueReader::i64(std::int64_t& out, const char* what) {
  MpHeader h;
  return header(h) && signed_value(h, std::numeric_limits<std::int64_t>::min(),
                                   std::numeric_limits<std::int64_t>::max(), out, what, "a signed 64-bit integer");
}

bool ValueReader::i32(std::int32_t& out, const char* what) {
  MpHeader h;
  std::int64_t v = 0;
  if (!header(h) || !signed_value(h, INT32_MIN, INT32_MAX, v, what, "a signed 32-bit integer")) return false;
  out = static_cast<std::int32_t>(v);
  return true;
}

bool ValueReader::i16(std::int16_t& out, const char* what) {
  MpHeader h;
  std::int64_t v = 0;
  if (!header(h) || !signed_value(h, INT16_MIN, INT16_MAX, v, what, "a signed 16-bit integer")) return false;
  out = static_cast<std::int16_t>(v);
  return true;
}

bool ValueReader::i8(std::int8_t& out, const char* what) {
  MpHeader h;
  std::int64_t v = 0;
  if (!header(h) || !signed_value(h, INT8_MIN, INT8_MAX, v, what, "a signed 8-bit integer")) return false;
  out = static_cast<std::int8_t>(v);
  return true;
}

bool ValueReader::boolean(bool& out, const char* what) {
  MpHeader h;
  if (!header(h)) return false;
  if (h.type != MpType::boolean) return type_error(h, what, "a boolean");
  out = h.boolean;
  return true;
}

bool ValueReader::str_strict(std::string_view& out, const char* what) {
  MpHeader h;
  if (!header(h)) return false;
  if (h.type != MpType::str) return type_error(h, what, "a msgpack STR");
  return m_reader.read_payload(h.length, out);
}

bool ValueReader::map(std::uint32_t& length, const char* what) {
  MpHeader h;
  if (!header(h)) return false;
  if (h.type != MpType::map) return type_error(h, what, "a map");
  length = h.length;
  return true;
}

bool ValueReader::skip() { return !failed() && m_reader.skip_value(); }

}  // namespace moonquota::format
