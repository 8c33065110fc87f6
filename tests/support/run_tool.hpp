// Test support: run a real tool binary and capture its stdout, stderr and exit code.
#pragma once

#include <string>
#include <vector>

#include "support/tree_paths.hpp"

namespace moonquota::test {

struct ToolRun {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs MOONQUOTA_BINARY_DIR/tools/<tool> with `args` (no shell involved); its standard input is
// `input` (empty: end of input at once, as /dev/null).
ToolRun run_tool(const std::string& tool, const std::vector<std::string>& args, const std::string& input = "");

// The whole content of a file in the source tree (empty when it cannot be read).
std::string read_source_file(const std::string& relative);

}  // namespace moonquota::test
