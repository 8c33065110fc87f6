// Shell completion scripts generated from a tool's own CLI11 definitions (its subcommands, options,
// positionals and IsMember choices), so a flag added to a tool completes without anyone editing a
// list. Every tool prints them with the `--completion bash|zsh` flag that setup_app adds;
// the build writes them into build/completions (tools/CMakeLists.txt) and installs them.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace moonquota::tools {

// One option or positional as a completer sees it.
struct CompletionOption {
  std::vector<std::string> names;    // "-v", "--verbose"; empty for a positional
  std::string description;           // the first line of its help
  bool takes_value = false;          // false: a flag
  bool repeatable = false;           // may be given more than once
  bool number = false;               // an INT, UINT or FLOAT value: nothing to offer
  std::vector<std::string> choices;  // the IsMember set; empty: any value (a file name is offered)
};

// An app or subcommand: its options (a subcommand that falls through also takes its parent's),
// its positionals in order and its subcommands.
struct CompletionCommand {
  std::string name;
  std::string description;
  std::vector<CompletionOption> options;
  std::vector<CompletionOption> positionals;
  std::vector<CompletionCommand> subcommands;
};

// The model of `app`: hidden options (group "") are left out.
[[nodiscard]] CompletionCommand completion_model(const CLI::App& app);

// The completion script for `shell` ("bash" or "zsh") of the tool named `tool`.
[[nodiscard]] std::string bash_completion(const std::string& tool, const CompletionCommand& model);
[[nodiscard]] std::string zsh_completion(const std::string& tool, const CompletionCommand& model);

// Adds the `--completion bash|zsh` option to `app`: it prints the script for the app as defined
// when the command line is parsed (so every option added after this call is in it) and ends
// parsing with success (exit 0; a failed write to stdout is an error).
void add_completion_option(CLI::App& app);

}  // namespace moonquota::tools
