// What this build is, for --version. Kept apart from tool_common.hpp (and CLI11) so that the one
// file a new commit recompiles, build_info.cpp, compiles in a moment.
#pragma once

namespace moonquota::tools {

// The upstream Mooncake commit whose formats the tools read and model.
inline constexpr const char* k_upstream_commit = "3b5a5941";

// What this build is: the CMake project version, `git describe --tags --always` of the source tree
// at build time ("unknown" outside a git checkout, e.g. a source tarball; cmake/BuildInfo.cmake)
// and k_upstream_commit. Defined in tools/build_info.cpp, the one file that includes the
// generated header.
struct BuildInfo {
  const char* version;
  const char* git_describe;
  const char* upstream_commit;
};
[[nodiscard]] BuildInfo build_info();

}  // namespace moonquota::tools
