#include "source/s3_xml.hpp"

#include <cstdint>

namespace moonquota::source {

namespace {

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// The inner text of the element starting at or after `pos`, and where it ends.
std::optional<std::pair<std::string_view, std::size_t>> find_element(std::string_view xml, std::string_view tag,
                                                                     std::size_t pos) {
  const std::string open = "<" + std::string(tag);
  const std::string close = "</" + std::string(tag) + ">";
  while (true) {
    const auto start = xml.find(open, pos);
    if (start == std::string_view::npos) return std::nullopt;
    const auto after = start + open.size();
    if (after >= xml.size()) return std::nullopt;
    if (xml.substr(after, 2) == "/>") {  // <Tag/>: empty, as a view into the body
      return std::make_pair(xml.substr(after, 0), after + 2);
    }
    if (xml[after] != '>' && xml[after] != ' ') {  // <TagLonger>
      pos = after;
      continue;
    }
    const auto body = xml.find('>', after);
    if (body == std::string_view::npos) return std::nullopt;
    const auto end = xml.find(close, body + 1);
    if (end == std::string_view::npos) return std::nullopt;
    return std::make_pair(xml.substr(body + 1, end - body - 1), end + close.size());
  }
}

}  // namespace

std::optional<std::string> xml_first(std::string_view xml, std::string_view tag) {
  auto found = find_element(xml, tag, 0);
  if (!found) return std::nullopt;
  return xml_unescape(found->first);
}

std::vector<std::string_view> xml_elements(std::string_view xml, std::string_view tag) {
  std::vector<std::string_view> out;
  std::size_t pos = 0;
  while (auto found = find_element(xml, tag, pos)) {
    out.push_back(found->first);
    pos = found->second;
  }
  return out;
}

std::string xml_unescape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '&') {
      out += text[i];
      continue;
    }
    // An entity spans at most 10 bytes after its '&' ("&#x10FFFF;"): looking further would make
    // a run of '&' without ';' quadratic in its length.
    const auto window = text.substr(i, 11);
    const auto semi_at = window.find(';');
    if (semi_at == std::string_view::npos) {
      out += text[i];
      continue;
    }
    const std::size_t semi = i + semi_at;
    const std::string_view entity = text.substr(i + 1, semi - i - 1);
    if (entity == "lt") {
      out += '<';
    } else if (entity == "gt") {
      out += '>';
    } else if (entity == "amp") {
      out += '&';
    } else if (entity == "quot") {
      out += '"';
    } else if (entity == "apos") {
      out += '\'';
    } else if (entity.size() > 1 && entity[0] == '#') {
      std::uint32_t cp = 0;
      const bool hex = entity[1] == 'x' || entity[1] == 'X';
      bool ok = entity.size() > (hex ? 2u : 1u);
      for (std::size_t k = hex ? 2 : 1; ok && k < entity.size(); ++k) {
        const char c = entity[k];
        std::uint32_t d = 0;
        if (c >= '0' && c <= '9') {
          d = static_cast<std::uint32_t>(c - '0');
        } else if (hex && c >= 'a' && c <= 'f') {
          d = static_cast<std::uint32_t>(c - 'a' + 10);
        } else if (hex && c >= 'A' && c <= 'F') {
          d = static_cast<std::uint32_t>(c - 'A' + 10);
        } else {
          ok = false;
        }
        cp = cp * (hex ? 16 : 10) + d;
        if (cp > 0x10FFFF) ok = false;
      }
      if (!ok) {
        out += text[i];
        continue;
      }
      append_utf8(out, cp);
    } else {
      out += text[i];
      continue;
    }
    i = semi;
  }
  return out;
}

std::string xml_escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace moonquota::source
