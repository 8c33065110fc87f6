// The exit codes every tool returns (the CLI contract), and the one mapping from a library error
// to its code. The commands of this folder decide an exit code; the tools return it.
#pragma once

#include "util/status.hpp"

namespace moonquota::app {

inline constexpr int k_exit_ok = 0;
inline constexpr int k_exit_found = 1;  // what the command looks for was found (drift, a finding, a difference)
inline constexpr int k_exit_usage = 2;
inline constexpr int k_exit_bad_input = 3;
inline constexpr int k_exit_service = 4;
inline constexpr int k_exit_internal = 5;

// invalid_argument: usage (2); corruption, not_found, io_error, unsupported, refused,
// limit_exceeded: bad input (3); unavailable: a service (4); internal: 5.
[[nodiscard]] int exit_code_for(const util::Status& status);

}  // namespace moonquota::app
