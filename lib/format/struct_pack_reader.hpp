// Bounds-checked reader of one yalantinglibs struct_pack buffer (oplog-format.md §8.1), as the
// Mooncake OpLog payloads use it. Everything is little-endian.
//
//   buffer    = hash_head:u32 [metainfo:u8 [total_len] [literal NUL]] body [compat] [trailing]
//   hash_head = (TYPE_CODE & ~1) | M          M = 1: a metainfo byte follows
//   metainfo  = bits 0-1 DATA_SIZE code (0 none, 1 u16, 2 u32, 3 u64: width of total_len)
//               bit  2   TYPE_LITERAL present (the literal and a NUL follow total_len)
//               bits 3-4 LEN_SIZE code (length prefixes are 1, 2, 4 or 8 bytes wide)
//               bits 5-7 must be 0 (never written; we treat them as undecodable)
//   total_len = byte length of the whole buffer, header included
//   string    = length (LEN_SIZE width) + raw bytes;  vector = count (LEN_SIZE width) + elements
//   bool      = one byte, 0 or 1 (anything else: undecodable)
//
// Rules modelled: only hash_head's upper 31 bits are compared with the expected TYPE_CODE; an
// embedded literal must equal the expected one byte for byte (NUL included); compatible fields
// live up to total_len, and a field the buffer ends before reads as absent.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "util/status.hpp"

namespace moonquota::format {

enum class PayloadForm { compact, type_literal };

[[nodiscard]] const char* payload_form_name(PayloadForm form);

struct StructPackHeader {
  PayloadForm form = PayloadForm::compact;
  bool has_metainfo = false;
  std::uint8_t metainfo = 0;
  unsigned length_width = 1;  // bytes per length prefix
  bool has_total_len = false;
  std::uint64_t total_len = 0;  // when has_total_len
  std::size_t body_offset = 0;  // first byte of the body
};

class StructPackReader {
 public:
  explicit StructPackReader(std::string_view bytes) : m_bytes(bytes) {}

  // Reads the header; fails on a type-code or literal mismatch, reserved bits, a bad total_len.
  [[nodiscard]] bool open(std::uint32_t type_code, std::string_view type_literal, StructPackHeader& out);

  [[nodiscard]] bool u8(std::uint8_t& v, const char* what);
  [[nodiscard]] bool u64(std::uint64_t& v, const char* what);
  [[nodiscard]] bool i32(std::int32_t& v, const char* what);
  [[nodiscard]] bool boolean(bool& v, const char* what);
  [[nodiscard]] bool string(std::string& v, const char* what);
  // A container count; also checks that `count * min_element_bytes` bytes remain.
  [[nodiscard]] bool count(std::uint64_t& v, std::size_t min_element_bytes, const char* what);

  // The compatible section ends at `limit` (total_len); reads beyond it report "absent".
  void set_limit(std::size_t limit) { m_limit = limit; }
  [[nodiscard]] bool at_limit() const { return m_pos >= m_limit; }

  [[nodiscard]] std::size_t position() const { return m_pos; }
  [[nodiscard]] std::size_t size() const { return m_bytes.size(); }
  // The first failure, ending in "at byte N": the offset of the field at fault.
  [[nodiscard]] const std::string& error() const { return m_error; }

 private:
  bool fail(const std::string& message);
  bool need(std::size_t n, const char* what);
  bool fixed(std::uint64_t& v, unsigned width, const char* what);

  std::string_view m_bytes;
  std::size_t m_pos = 0;
  std::size_t m_limit = SIZE_MAX;
  unsigned m_length_width = 1;
  std::string m_error;
};

}  // namespace moonquota::format
