// A plain text table for people: left-aligned text columns, right-aligned number columns.
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace moonquota::util {

class TextTable {
 public:
  enum class Align { left, right };
  void add_column(std::string header, Align align);
  void add_row(std::vector<std::string> cells);
  void render(std::ostream& out) const;

 private:
  std::vector<std::string> m_headers;
  std::vector<Align> m_aligns;
  std::vector<std::vector<std::string>> m_rows;
};

// A printable form of a raw byte string: control bytes (< 0x20, 0x7f) as \xNN, the rest unchanged.
[[nodiscard]] std::string printable(const std::string& raw);

// True when `s` is well-formed UTF-8 (JSON strings must be).
[[nodiscard]] bool is_valid_utf8(std::string_view s);

// Lower-case hex of the bytes.
[[nodiscard]] std::string to_hex(std::string_view s);

}  // namespace moonquota::util
