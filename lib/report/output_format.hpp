// The format a caller chooses for a report. Every renderer takes its model, an OutputFormat and
// an std::ostream&; a renderer that has no form of its own for a format writes its nearest one
// (json for ndjson; text for a format a tool does not offer). Tools offer a subset in --format.
#pragma once

#include <optional>
#include <string_view>

namespace moonquota::report {

enum class OutputFormat { text, json, ndjson, markdown, prom, html };

// "text", "json", "ndjson", "markdown", "prom", "html".
[[nodiscard]] inline std::optional<OutputFormat> parse_output_format(std::string_view name) {
  if (name == "text") return OutputFormat::text;
  if (name == "json") return OutputFormat::json;
  if (name == "ndjson") return OutputFormat::ndjson;
  if (name == "markdown") return OutputFormat::markdown;
  if (name == "prom") return OutputFormat::prom;
  if (name == "html") return OutputFormat::html;
  return std::nullopt;
}

}  // namespace moonquota::report
