// quota-rebuild's report model rendered as `quota-rebuild/1` JSON (cli-contract.md) and as a
// text table for people. Both are deterministic: rows sorted bytewise, integers exact.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

#include "quota/rebuild.hpp"
#include "report/output_format.hpp"

namespace moonquota::report {

[[nodiscard]] nlohmann::ordered_json rebuild_report_json(const quota::RebuildResult& result);

void render_rebuild_text(const quota::RebuildResult& result, std::ostream& out);

// The JSON text as written by --format json (2-space indent, trailing newline).
[[nodiscard]] std::string rebuild_report_json_text(const quota::RebuildResult& result);

// The report in `format`: json (and ndjson) as above, text otherwise.
void render_rebuild(const quota::RebuildResult& result, OutputFormat format, std::ostream& out);

}  // namespace moonquota::report
