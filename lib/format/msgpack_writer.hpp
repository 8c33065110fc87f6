// A msgpack packer that follows msgpack-c's smallest-format rules (snapshot-format.md §4.1), so
// that what we write is byte-identical to Mooncake's encoder:
//   - non-negative integers (signed or unsigned C++ type) use positive fixint / uint8..64;
//   - negative integers use negative fixint / int8..64;
//   - strings use fixstr / str8 / str16 / str32; binaries bin8 / bin16 / bin32;
//   - arrays fixarray / array16 / array32; maps fixmap / map16 / map32.
// Bytes are appended to a caller-owned std::string. Lengths above 2^32-1 cannot be represented
// in msgpack: the packer then writes nothing for that value and keeps the first such error,
// which the caller reads once at the end with status() (a sticky error, like an ostream's).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "util/status.hpp"

namespace moonquota::format {

class MsgpackWriter {
 public:
  // `out` must outlive the writer; bytes are appended to it.
  explicit MsgpackWriter(std::string& out) : m_out(&out) {}

  void pack_uint(std::uint64_t value);
  // Non-negative values are written in the unsigned formats, as msgpack-c does.
  void pack_int(std::int64_t value);
  void pack_bool(bool value);
  void pack_nil();

  // STR family (always STR, never BIN: some Mooncake readers require the STR type).
  void pack_str(std::string_view value);
  // BIN family.
  void pack_bin(std::string_view value);
  // Headers only; the caller then packs `count` elements (arrays) or `count` key/value pairs.
  void pack_array_header(std::uint64_t count);
  void pack_map_header(std::uint64_t count);

  // Appends bytes that are already valid msgpack (e.g. a value encoded elsewhere).
  void append_raw(std::string_view bytes) { m_out->append(bytes); }

  [[nodiscard]] std::string& buffer() { return *m_out; }
  // OK, or the first length overflow met since construction.
  [[nodiscard]] const util::Status& status() const { return m_status; }

 private:
  void put_byte(std::uint8_t b) { m_out->push_back(static_cast<char>(b)); }
  void put_be(std::uint64_t value, int bytes);
  void put_length_header(std::uint64_t length, std::uint8_t fix_base, std::uint64_t fix_limit, std::uint8_t code8,
                         std::uint8_t code16, std::uint8_t code32, const char* what);

  std::string* m_out;
  util::Status m_status;
};

}  // namespace moonquota::format
