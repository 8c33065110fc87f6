// The format a caller chooses for a report. Every renderer takes its model, an OutputFormat and
// an std::ostream&; a renderer that has no ndjson form writes json for it.
#pragma once

namespace moonquota::report {

enum class OutputFormat { text, json, ndjson };

}  // namespace moonquota::report
