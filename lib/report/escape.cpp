#include "report/escape.hpp"

#include "util/text_encoding.hpp"

namespace moonquota::report {

namespace {

// Characters that can open or close inline markup wherever they stand in a line: escapes, code
// spans, emphasis, links and images, raw HTML and autolinks, entities, GFM table borders and
// strikethrough, and GitHub's math. Others ('#', '-', '+', '.', '=', ')') are markup only at the
// start of a line, where our text never stands.
bool opens_markup(char c) {
  switch (c) {
    case '\\':
    case '`':
    case '*':
    case '_':
    case '[':
    case ']':
    case '<':
    case '>':
    case '&':
    case '|':
    case '~':
    case '$': return true;
    default: return false;
  }
}

}  // namespace

std::string markdown_escape(std::string_view raw) {
  const std::string text = util::printable(std::string(raw));
  std::size_t first = 0;
  while (first < text.size() && text[first] == ' ') ++first;
  std::size_t last = text.size();
  while (last > first && text[last - 1] == ' ') --last;
  std::string out;
  out.reserve(text.size() + text.size() / 4);
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == ' ' && (i < first || i >= last)) {
      out += "&#32;";
    } else {
      // ':' before a non-space could start an emoji shortcode (":name:") on GitHub.
      const bool shortcode = c == ':' && i + 1 < text.size() && text[i + 1] != ' ';
      if (opens_markup(c) || shortcode) out.push_back('\\');
      out.push_back(c);
    }
  }
  return out;
}

std::string html_escape(const std::string& raw) {
  // Tenant ids are raw bytes: control bytes, and every byte >= 0x80 when the id is not UTF-8,
  // become \xNN text so the page stays valid UTF-8 and well-formed.
  const bool utf8 = util::is_valid_utf8(raw);
  std::string out;
  for (char c : raw) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f || (u >= 0x80 && !utf8)) {
      static const char* hex = "0123456789abcdef";
      out += "\\x";
      out.push_back(hex[u >> 4]);
      out.push_back(hex[u & 0xF]);
      continue;
    }
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out.push_back(c);
    }
  }
  return out;
}

}  // namespace moonquota::report
