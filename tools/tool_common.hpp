// Helpers shared by every tool: the contract's exit codes, the shared input flags, logging
// setup, and report output (stdout or an atomic file).
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>

#include "report/output_format.hpp"
#include "util/atomic_stream.hpp"
#include "util/net_config.hpp"
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

// The pieces of add_common_flags, for a tool without a report (snapshot-forge): -v/-q into
// flags.verbosity, and --threads with its one range (0 .. k_max_threads; 0 = all cores).
inline constexpr unsigned k_max_threads = 256;
void add_verbosity_flags(CLI::App& app, CommonFlags& flags);
void add_threads_option(CLI::App& app, unsigned& threads);

// The report format --format chose (the choices given to add_common_flags are all known).
[[nodiscard]] report::OutputFormat output_format(const CommonFlags& flags);

// Configures spdlog on stderr from the verbosity.
void setup_logging(const CommonFlags& flags);

// The library's network logging hook (util::NetConfig::log) on spdlog: attempts, retries and
// backoffs at info (-v), request details at debug (-vv).
[[nodiscard]] util::NetLog net_log();

// Streams the report that `write` renders to stdout, or atomically to flags.output ("-" is
// stdout too). When `write` returns an error, a file output is abandoned (no file, no temporary).
[[nodiscard]] util::Status emit_report(const CommonFlags& flags,
                                       const std::function<util::Status(std::ostream&)>& write);

// Writes `text` as the report (the same outputs as above).
[[nodiscard]] util::Status emit_report(const CommonFlags& flags, const std::string& text);

// Opens flags.output for a report streamed by the caller (stdout when none).
[[nodiscard]] util::Status open_report(const CommonFlags& flags, util::AtomicOutputStream& out);

// Commits `out`: on an error prints it and returns its exit code, else returns `code`.
[[nodiscard]] int finish_report(const std::string& tool, util::AtomicOutputStream& out, int code);

// "now" -> the current UTC ms; otherwise a decimal ms value.
[[nodiscard]] util::Result<std::uint64_t> parse_restore_time(const std::string& text);

// Runs CLI11 parsing; returns -1 to continue or the exit code to return (help: 0, errors: 2).
[[nodiscard]] int parse_command_line(CLI::App& app, int argc, char** argv);

}  // namespace moonquota::tools
