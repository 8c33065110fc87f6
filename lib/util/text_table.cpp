#include "util/text_table.hpp"

#include <algorithm>
#include <cstdio>

namespace moonquota::util {

void TextTable::add_column(std::string header, Align align) {
  m_headers.push_back(std::move(header));
  m_aligns.push_back(align);
}

void TextTable::add_row(std::vector<std::string> cells) {
  cells.resize(m_headers.size());
  m_rows.push_back(std::move(cells));
}

void TextTable::render(std::ostream& out) const {
  std::vector<size_t> widths(m_headers.size());
  for (size_t c = 0; c < m_headers.size(); ++c) widths[c] = m_headers[c].size();
  for (const auto& row : m_rows)
    for (size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], row[c].size());
  auto emit = [&](const std::vector<std::string>& cells) {
    std::string line;
    for (size_t c = 0; c < cells.size(); ++c) {
      std::string pad(widths[c] - cells[c].size(), ' ');
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

std::string printable(const std::string& raw) {
  std::string out;
  for (unsigned char c : raw) {
    if (c >= 0x20 && c != 0x7f) {  // printable ASCII and UTF-8 bytes pass through
      out.push_back(static_cast<char>(c));
    } else {
      char buf[5];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    }
  }
  return out;
}

}  // namespace moonquota::util
