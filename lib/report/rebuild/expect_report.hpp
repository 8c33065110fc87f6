// `quota-rebuild --expect FILE` (quota::TableComparison) as the JSON member `expect` and as a
// text section.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "quota/expected_table.hpp"

namespace moonquota::report {

// {"file", "form", "compared", "matches", "differences": [{"tenant_id", "field", "expected",
// "rebuilt"}] (numbers and booleans as in the tables), "missing_in_rebuilt", "missing_in_expected"}.
[[nodiscard]] nlohmann::ordered_json expect_json(const quota::TableComparison& c, const std::string& file);

// "expect:    FILE (form): N tenants compared: matches" or the differences, one per line.
// Starts with an empty line.
void render_expect_text(const quota::TableComparison& c, const std::string& file, std::ostream& out);

}  // namespace moonquota::report
