// A bounds-checked msgpack pull reader over an in-memory byte range. It never builds an object
// tree and never allocates: values are read header by header, strings as views into the input.
//
// Grammar read (msgpack spec): every byte 0x00-0xff except 0xc1 starts a value;
//   header := fixint | fixmap | fixarray | fixstr | nil | bool | bin8/16/32 | ext | float32/64
//             | uint8..64 | int8..64 | fixext | str8/16/32 | array16/32 | map16/32 | negfixint
// Integers are classified by value as msgpack-c does: a non-negative value is `pos_int`
// whatever its encoding, a negative one `neg_int`.
//
// Errors (truncation, the reserved byte 0xc1, a container longer than the bytes left) make the
// reader fail; `error()` then names the absolute byte offset (base_offset + position).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace moonquota::format {

enum class MpType : std::uint8_t { nil, boolean, pos_int, neg_int, float32, float64, str, bin, array, map, ext };

[[nodiscard]] const char* mp_type_name(MpType t);

// Fields are deliberately left uninitialised by default (this struct is filled tens of times
// per object on the hot path); read_header sets every field its type gives meaning to, and
// `MpHeader{}` value-initialises everything to zero.
struct MpHeader {
  MpType type;
  bool boolean;
  std::uint64_t u;       // pos_int value
  std::int64_t i;        // neg_int value
  std::uint32_t length;  // str/bin/ext payload bytes, array elements, map pairs
  std::int8_t ext_type;
  std::size_t offset;  // absolute offset of the header's first byte
  bool smallest;       // false when an integer or length used a wider format than needed
};

class MsgpackReader {
 public:
  explicit MsgpackReader(std::string_view data, std::size_t base_offset = 0) : m_data(data), m_base(base_offset) {}

  // Turns off the "container longer than the remaining input" check: for parsing a lone
  // header whose contents are read elsewhere (the streaming file scanner checks them itself).
  void disable_length_checks() { m_check_lengths = false; }

  // Reads one header. For str/bin/ext the payload must be consumed next with read_payload.
  // Inline fast path for the one-byte forms that dominate snapshot payloads.
  [[nodiscard]] [[gnu::always_inline]] inline bool read_header(MpHeader& h) {
    if (m_pos < m_data.size() && m_error.empty()) {
      const auto b = static_cast<unsigned char>(m_data[m_pos]);
      if (b <= 0x7f) {
        h.type = MpType::pos_int;
        h.u = b;
        h.smallest = true;
        h.offset = m_base + m_pos++;
        return true;
      }
      const std::size_t rest = m_data.size() - m_pos - 1;
      if ((b & 0xe0) == 0xa0 && (b & 0x1fu) <= rest) {
        h.type = MpType::str;
        h.length = b & 0x1fu;
        h.smallest = true;
        h.offset = m_base + m_pos++;
        return true;
      }
      if ((b & 0xf0) == 0x90 && ((b & 0x0fu) <= rest || !m_check_lengths)) {
        h.type = MpType::array;
        h.length = b & 0x0fu;
        h.smallest = true;
        h.offset = m_base + m_pos++;
        return true;
      }
      if (b == 0xc2 || b == 0xc3) {
        h.type = MpType::boolean;
        h.boolean = b == 0xc3;
        h.offset = m_base + m_pos++;
        return true;
      }
      if (b >= 0xcc && b <= 0xcf) {  // uint8..uint64
        const std::size_t n = std::size_t{1} << (b - 0xcc);
        if (n <= rest) {
          h.offset = m_base + m_pos;
          const auto* p = reinterpret_cast<const unsigned char*>(m_data.data()) + m_pos + 1;
          std::uint64_t v = load_big_endian(p, n);
          static constexpr std::uint64_t k_min_for_format[] = {0x80, 0x100, 0x10000, 0x100000000ULL};
          h.type = MpType::pos_int;
          h.u = v;
          h.smallest = v >= k_min_for_format[b - 0xcc];
          m_pos += 1 + n;
          return true;
        }
      }
      if (b == 0xd9 && rest >= 1) {  // str8
        const auto len = static_cast<unsigned char>(m_data[m_pos + 1]);
        if (len <= rest - 1) {
          h.type = MpType::str;
          h.length = len;
          h.smallest = len >= 32;
          h.offset = m_base + m_pos;
          m_pos += 2;
          return true;
        }
      }
    }
    return read_header_slow(h);
  }
  // Reads `length` payload bytes of the last str/bin/ext header.
  [[nodiscard]] bool read_payload(std::uint32_t length, std::string_view& out) {
    if (m_error.empty() && length <= m_data.size() - m_pos) {
      out = m_data.substr(m_pos, length);
      m_pos += length;
      return true;
    }
    return read_payload_slow(length, out);
  }
  // Reads and discards one complete value, iteratively (no recursion, any depth).
  [[nodiscard]] bool skip_value();
  // Skips the rest of a value whose header was already read.
  [[nodiscard]] bool skip_after_header(const MpHeader& h);

  [[nodiscard]] std::size_t position() const { return m_pos; }  // relative
  // Moves back to a relative position obtained from position() (look-ahead undo).
  void rewind_to(std::size_t rel_pos) { m_pos = rel_pos; }
  [[nodiscard]] std::size_t absolute_position() const { return m_base + m_pos; }
  [[nodiscard]] std::size_t remaining() const { return m_data.size() - m_pos; }
  [[nodiscard]] bool at_end() const { return m_pos == m_data.size(); }
  [[nodiscard]] bool failed() const { return !m_error.empty(); }
  [[nodiscard]] const std::string& error() const { return m_error; }
  [[nodiscard]] std::string_view data() const { return m_data; }

 private:
  bool read_header_slow(MpHeader& h);
  // Big-endian unsigned load of 1, 2, 4 or 8 bytes.
  static std::uint64_t load_big_endian(const unsigned char* p, std::size_t n) {
    switch (n) {
      case 1: return p[0];
      case 2: {
        std::uint16_t v;
        std::memcpy(&v, p, 2);
        return __builtin_bswap16(v);
      }
      case 4: {
        std::uint32_t v;
        std::memcpy(&v, p, 4);
        return __builtin_bswap32(v);
      }
      default: {
        std::uint64_t v;
        std::memcpy(&v, p, 8);
        return __builtin_bswap64(v);
      }
    }
  }
  bool read_payload_slow(std::uint32_t length, std::string_view& out);
  bool fail(const std::string& what, std::size_t rel_offset);
  bool need(std::size_t n, const char* what);
  std::uint64_t be(std::size_t n);

  std::string_view m_data;
  std::size_t m_base;
  std::size_t m_pos = 0;
  bool m_check_lengths = true;
  std::string m_error;
};

}  // namespace moonquota::format
