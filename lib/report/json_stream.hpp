// A large JSON report written piece by piece: the document's head as one tree with a placeholder
// where its big array goes, and that array's elements built and written one at a time. The bytes
// are those of one dump with indent 2 (invalid UTF-8 replaced by U+FFFD), at a memory cost of one
// element instead of the whole tree (audit item 22: 16,000 survival points took 190 MB as a tree;
// a 100,000-tenant reconcile report 695 MB).
#pragma once

#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string_view>

namespace moonquota::report {

// Writes `document` (with a string member equal to `placeholder` at nesting depth `depth`: 1 for a
// member of the top-level object) with that member replaced by the array of element(0) ..
// element(count - 1), then a newline.
void write_json_with_streamed_array(std::ostream& out, const nlohmann::ordered_json& document,
                                    std::string_view placeholder, std::size_t count,
                                    const std::function<nlohmann::ordered_json(std::size_t)>& element, int depth = 1);

}  // namespace moonquota::report
