// snapshot-inspect's flags, declared once: the store flags, the report flags, and each command
// (a subcommand) with its own. Their rules are app/inspect_command.
#pragma once

#include <CLI/CLI.hpp>

#include "app/inspect_command.hpp"
#include "tool_common.hpp"

namespace moonquota::tools {

// Every flag and command (args.command is set from the parsed subcommand by the caller).
void add_inspect_flags(CLI::App& app, app::InspectArgs& args, CommonFlags& common);

}  // namespace moonquota::tools
