// Helpers shared by every tool: the contract's exit codes, the shared input flags, logging
// setup, and report output (stdout or an atomic file).
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "app/exit_codes.hpp"
#include "build_info.hpp"
#include "report/output_format.hpp"
#include "util/atomic_stream.hpp"
#include "util/net_config.hpp"
#include "util/status.hpp"

namespace moonquota::tools {

// The contract's exit codes (app/exit_codes.hpp).
using app::exit_code_for;
using app::k_exit_bad_input;
using app::k_exit_found;
using app::k_exit_internal;
using app::k_exit_ok;
using app::k_exit_service;
using app::k_exit_usage;

// Prints "<tool>: <message>" to stderr and returns the status's exit code.
int fail(const std::string& tool, const util::Status& status);

// Prints "<tool>: <message>" to stderr and returns `exit_code` (an outcome's decided code).
int fail(const std::string& tool, int exit_code, const std::string& message);

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
// backoffs at info (-v), request details at debug (-vv); with `attempts_at_debug` (a service, whose
// info level is one line per audit) every line is debug.
[[nodiscard]] util::NetLog net_log(bool attempts_at_debug = false);

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

// The report a tool writes in place of its report when it fails, with --format prom: a textfile
// that says the check failed (exit code, message), so an alert fires instead of the last good file
// staying in place.
using FailureReport = std::function<std::string(int exit_code, const std::string& message)>;

// fail(), then, with --format prom, the failure report to the report's output.
int fail_with_report(const std::string& tool, const CommonFlags& flags, const util::Status& status,
                     const FailureReport& failure);
int fail_with_report(const std::string& tool, const CommonFlags& flags, int exit_code, const std::string& message,
                     const FailureReport& failure);

// After a command-line parse error (exit 2, already printed): the failure report when --format prom
// was parsed, to the --output path when that was parsed (stdout without --output; nothing when
// --output is there but its path was not taken).
void report_parse_failure(const CLI::App& app, int argc, char** argv, const std::string& message,
                          const FailureReport& failure);

// Runs `run` and turns an exception reaching it (a bug: the library returns errors as values) into
// exit 5 with its message, instead of an abort.
int run_guarded(const std::string& tool, int argc, char** argv, int (*run)(int, char**));

// "<tool> <version> (git <describe>, reads Mooncake formats of 3b5a5941)".
[[nodiscard]] std::string version_line(const std::string& tool);

// What a tool's (or subcommand's) --help says of its exit codes: what exit 1 means ("never ..."
// as it is, otherwise after "the tool ran and found something: "), what inputs exit 3 names and
// what services exit 4 names.
struct ExitHelp {
  std::string found;
  std::string inputs;    // "a store, snapshot or policy"
  std::string services;  // "etcd, Redis or S3"
};

// Call first, before any option is added: names the app, adds --version and
// --completion bash|zsh (completion.hpp), shows every option's default in --help, and ends --help
// with the exit codes and `example` (one command line).
void setup_app(CLI::App& app, const std::string& tool, const ExitHelp& exits, const std::string& example);

// The subcommand `name`'s own exit codes and example at the end of its --help, instead of the
// app's. Call after the subcommand is added.
void set_subcommand_help(CLI::App& app, const std::string& name, const ExitHelp& exits, const std::string& example);

// Ends the --help of each of the app's subcommands with the app's own (shared) options, which
// are given before or after the subcommand (the exit codes and example follow, as in the app's
// help: a subcommand inherits its footer). Call after every option and subcommand is added.
void show_shared_flags_in_subcommand_help(CLI::App& app);

// A repeatable option: exactly one value per occurrence (`--master A extra` is a usage error, not
// two values), never empty and never flag-like (starting with '-', other than "-" itself).
// An instant given as milliseconds since the epoch: decimal digits only (CLI11 would wrap "-5"
// into an unsigned value, and read "010" as octal 8), at most 9999-12-31.
[[nodiscard]] CLI::Validator epoch_ms_check();

CLI::Option* add_repeatable_option(CLI::App& app, const std::string& name, std::vector<std::string>& values,
                                   const std::string& description);

// True when colour is allowed by the environment: NO_COLOR (https://no-color.org) unset or empty.
[[nodiscard]] bool colour_allowed_by_environment();

// Runs CLI11 parsing; returns -1 to continue or the exit code to return (help, --version: 0,
// errors: 2). A parse error is one line on stderr, "<tool>: <message>", also stored in *error.
[[nodiscard]] int parse_command_line(CLI::App& app, int argc, char** argv, std::string* error = nullptr);

// The value an option was given on the command line so far, also after a parse error (CLI11
// keeps the values it consumed): the last one, or nullopt when it took none.
[[nodiscard]] std::optional<std::string> parsed_value(const CLI::App& app, const std::string& name);

// The cluster label of the Prometheus series (quota-rebuild and quota-reconcile, so that the two
// tools' series of one cell join): --cluster, else an explicitly given --cluster-id, else
// "default". Read from what was parsed, so it also serves the failure report of a parse error.
[[nodiscard]] std::string cluster_label(const CLI::App& app);

// True when `name` (or `name=...`) appears among the arguments, with or without a value.
[[nodiscard]] bool appears(int argc, char** argv, const std::string& name);

// The first of `options` given on the command line (its name), or "" when none is.
[[nodiscard]] std::string first_given(const std::vector<const CLI::Option*>& options);

}  // namespace moonquota::tools
