// A plain text table for people: left-aligned text columns, right-aligned number columns.
#pragma once

#include <ostream>
#include <string>
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

}  // namespace moonquota::util
