// The one file that includes the generated build-info header (cmake/BuildInfo.cmake), so a new
// commit recompiles this file only.
#include "build_info.hpp"
#include "moonquota_build_info.hpp"

namespace moonquota::tools {

BuildInfo build_info() { return {MOONQUOTA_VERSION, MOONQUOTA_GIT_DESCRIBE, k_upstream_commit}; }

}  // namespace moonquota::tools
