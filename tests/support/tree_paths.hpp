// Absolute paths into the source tree and the build tree, for tests that read bundled stores or
// run the built tools. Built by appending, never as `std::string(DIR) + "/" + x`: GCC 12 at -O2
// reports a false -Warray-bounds on that temporary for some lengths of the checkout's path.
#pragma once

#include <string>
#include <string_view>

namespace moonquota::test {

inline std::string tree_path(std::string_view root, std::string_view relative) {
  std::string path;
  path.reserve(root.size() + 1 + relative.size());
  path.append(root);
  path.push_back('/');
  path.append(relative);
  return path;
}

inline std::string source_path(std::string_view relative) { return tree_path(MOONQUOTA_SOURCE_DIR, relative); }

inline std::string binary_path(std::string_view relative) { return tree_path(MOONQUOTA_BINARY_DIR, relative); }

}  // namespace moonquota::test
