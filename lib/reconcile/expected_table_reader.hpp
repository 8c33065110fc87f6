// Reads an expected table (quota/expected_table.hpp: its three forms) from a file's bytes. Only
// the rows' own members are kept while parsing, so memory follows the rows, not whatever else the
// file holds.
#pragma once

#include <string>

#include "quota/expected_table.hpp"
#include "util/status.hpp"

namespace moonquota::reconcile {

// Parses `text` (the file's bytes). Errors (bad input): corruption naming `name` and, for a bad
// row, its index and member ("expected.json: tenants[3]: charged_bytes is not an unsigned
// integer"), a master response with "success": false, a tenant twice; limit_exceeded beyond
// quota::k_max_expected_rows rows.
[[nodiscard]] util::Result<quota::ExpectedTable> parse_expected_table(const std::string& text, const std::string& name);

}  // namespace moonquota::reconcile
