// Helpers shared by every tool: the contract's exit codes, the shared input flags, logging
// setup, and report output (stdout or an atomic file).
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

#include "util/status.hpp"

namespace moonquota::tools {

// cli-contract.md exit codes.
inline constexpr int k_exit_ok = 0;
inline constexpr int k_exit_found = 1;
inline constexpr int k_exit_usage = 2;
inline constexpr int k_exit_bad_input = 3;
inline constexpr int k_exit_service = 4;
inline constexpr int k_exit_internal = 5;

[[nodiscard]] int exit_code_for(const util::Status& status);

// Prints "<tool>: <message>" to stderr and returns the status's exit code.
int fail(const std::string& tool, const util::Status& status);

struct CommonFlags {
  int verbosity = 0;  // -v raises, -q lowers
  std::string format = "text";
  std::string output;
  unsigned threads = 0;  // 0: all cores
};

// Adds -v/-q, --format (choices), --output and --threads.
void add_common_flags(CLI::App& app, CommonFlags& flags, const std::vector<std::string>& formats);

// Configures spdlog on stderr from the verbosity.
void setup_logging(const CommonFlags& flags);

// Writes `text` to stdout, or atomically to flags.output.
[[nodiscard]] util::Status emit_report(const CommonFlags& flags, const std::string& text);

// "now" -> the current UTC ms; otherwise a decimal ms value.
[[nodiscard]] util::Result<std::uint64_t> parse_restore_time(const std::string& text);

// Runs CLI11 parsing; returns -1 to continue or the exit code to return (help: 0, errors: 2).
[[nodiscard]] int parse_command_line(CLI::App& app, int argc, char** argv);

}  // namespace moonquota::tools
