// Typed reads over MsgpackReader with msgpack-c's conversion rules (snapshot-format.md §4.2):
//   unsigned targets: positive integers <= max(T);  signed targets: any integer in range;
//   bool: BOOLEAN only;  string: STR or BIN (str_strict: STR only, where Mooncake checks the type).
// A failed conversion is what msgpack-c throws as a type error. Every failure records a message
// with the absolute byte offset of the offending value; the caller decides what it means
// (object skipped or candidate rejected).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "format/msgpack_reader.hpp"

namespace moonquota::format {

class ValueReader {
 public:
  explicit ValueReader(MsgpackReader& reader) : m_reader(reader) {}

  // The hot conversions are inline (snapshot decoding calls them tens of times per object).
  [[nodiscard]] bool header(MpHeader& h) { return !failed() && m_reader.read_header(h); }
  [[nodiscard]] bool u64(std::uint64_t& out, const char* what) {
    MpHeader h;
    return header(h) && to_u64(h, out, what);
  }
  [[nodiscard]] bool u32(std::uint32_t& out, const char* what);
  [[nodiscard]] bool u8(std::uint8_t& out, const char* what);
  [[nodiscard]] bool i64(std::int64_t& out, const char* what);
  [[nodiscard]] bool i32(std::int32_t& out, const char* what);
  [[nodiscard]] bool i16(std::int16_t& out, const char* what);
  [[nodiscard]] bool i8(std::int8_t& out, const char* what);
  [[nodiscard]] bool boolean(bool& out, const char* what);
  [[nodiscard]] bool string(std::string_view& out, const char* what) {
    MpHeader h;
    return header(h) && to_string(h, out, what);
  }
  [[nodiscard]] bool str_strict(std::string_view& out, const char* what);
  [[nodiscard]] bool array(std::uint32_t& length, const char* what) {
    MpHeader h;
    if (!header(h)) return false;
    if (h.type != MpType::array) return type_error(h, what, "an array");
    length = h.length;
    return true;
  }
  [[nodiscard]] bool map(std::uint32_t& length, const char* what);
  [[nodiscard]] bool skip();

  // Conversions of an already-read header (for look-ahead decisions).
  [[nodiscard]] bool to_u64(const MpHeader& h, std::uint64_t& out, const char* what) {
    if (h.type != MpType::pos_int) return type_error(h, what, "an unsigned integer");
    out = h.u;
    return true;
  }
  [[nodiscard]] bool to_string(const MpHeader& h, std::string_view& out, const char* what) {
    if (h.type != MpType::str && h.type != MpType::bin) return type_error(h, what, "a string");
    return m_reader.read_payload(h.length, out);
  }

  // Records a type error ("<what>: expected X, found Y at byte offset N") and returns false.
  bool type_error(const MpHeader& h, const char* what, const char* expected);
  // Records a free-form error at `offset` and returns false.
  bool error_at(std::size_t offset, const std::string& message);

  [[nodiscard]] bool failed() const { return !m_error.empty() || m_reader.failed(); }
  // True when the failure is malformed msgpack (truncation etc.) rather than a type error.
  [[nodiscard]] bool malformed() const { return m_reader.failed(); }
  [[nodiscard]] std::string error() const { return m_reader.failed() ? m_reader.error() : m_error; }
  void clear_type_error() { m_error.clear(); }
  [[nodiscard]] MsgpackReader& reader() { return m_reader; }

 private:
  bool signed_value(const MpHeader& h, std::int64_t lo, std::int64_t hi, std::int64_t& out, const char* what,
                    const char* expected);

  MsgpackReader& m_reader;
  std::string m_error;
};

}  // namespace moonquota::format
