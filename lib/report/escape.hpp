// The escapes for text placed in our Markdown and HTML output (table cells, headings, list items,
// attributes), so a renderer shows any legal tenant id byte for byte.
#pragma once

#include <string>
#include <string_view>

namespace moonquota::report {

// Text for inline Markdown: control bytes first become \xNN (util::printable); then each of
// \ ` * _ [ ] < > & | ~ $ (and ':' before a non-space) gets a backslash, which CommonMark (§2.4)
// reads as that literal character and GFM tables read "\|" as a literal '|', so nothing can open
// a code span, emphasis, a link, HTML, an entity, a cell border, strikethrough, math or an emoji
// shortcode; a leading or trailing space becomes "&#32;" (table cells and headings strip them).
// Other bytes, UTF-8 included, are unchanged. Never inside a code span: a backslash is literal
// there.
[[nodiscard]] std::string markdown_escape(std::string_view raw);

// Escapes & < > " ' for HTML text and attributes. Control bytes, and bytes >= 0x80 of a string
// that is not valid UTF-8, become the text \xNN.
[[nodiscard]] std::string html_escape(const std::string& raw);

}  // namespace moonquota::report
