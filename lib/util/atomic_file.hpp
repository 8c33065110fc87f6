// Atomic file output: write a temporary file next to the target, fsync, rename over the target.
// A reader never sees a partial file; a failed write leaves the target untouched.
#pragma once

#include <string>
#include <string_view>

#include "util/status.hpp"

namespace moonquota::util {

[[nodiscard]] Status write_file_atomically(const std::string& path, std::string_view content);

}  // namespace moonquota::util
