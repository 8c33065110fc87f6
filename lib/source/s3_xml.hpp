// The few S3 XML answers the client reads (ListObjectsV2 pages, error bodies, multipart upload
// ids): S3's XML is flat and machine-written, so a tag scan with entity decoding is enough, and
// never a general XML parser.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace moonquota::source {

// The decoded text of the first <tag>...</tag> at or after `from` (nullopt when absent).
[[nodiscard]] std::optional<std::string> xml_first(std::string_view xml, std::string_view tag);

// The raw inner XML of every <tag>...</tag> (in order, not decoded).
[[nodiscard]] std::vector<std::string_view> xml_elements(std::string_view xml, std::string_view tag);

// &lt; &gt; &amp; &quot; &apos; and numeric references decoded; anything else kept as is.
[[nodiscard]] std::string xml_unescape(std::string_view text);

// Text escaped for an XML element.
[[nodiscard]] std::string xml_escape(std::string_view text);

}  // namespace moonquota::source
