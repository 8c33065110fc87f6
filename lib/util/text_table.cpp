#include "util/text_table.hpp"

#include <algorithm>

namespace moonquota::util {

void TextTable::add_column(std::string header, Align align) {
  m_headers.push_back(std::move(header));
  m_aligns.push_back(align);
}

void TextTable::add_row(std::vector<std::string> cells) {
  cells.resize(m_headers.size());
  m_rows.push_back(std::move(cells));
}

namespace {

// Display width: UTF-8 continuation bytes take no column.
std::size_t display_width(const std::string& s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xc0) != 0x80 ? 1 : 0;
  return n;
}

}  // namespace

void TextTable::render(std::ostream& out) const {
  std::vector<size_t> widths(m_headers.size());
  for (size_t c = 0; c < m_headers.size(); ++c) widths[c] = display_width(m_headers[c]);
  for (const auto& row : m_rows)
    for (size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], display_width(row[c]));
  auto emit = [&](const std::vector<std::string>& cells) {
    std::string line;
    for (size_t c = 0; c < cells.size(); ++c) {
      std::string pad(widths[c] - display_width(cells[c]), ' ');
      if (c > 0) line += "  ";
      line += m_aligns[c] == Align::right ? pad + cells[c] : cells[c] + pad;
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << '\n';
  };
  emit(m_headers);
  std::vector<std::string> rule;
  for (size_t w : widths) rule.emplace_back(w, '-');
  emit(rule);
  for (const auto& row : m_rows) emit(row);
}

}  // namespace moonquota::util
