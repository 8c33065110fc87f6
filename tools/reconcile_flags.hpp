// quota-reconcile's flags, declared once: the audit's (the metadata side of quota-rebuild, the
// live side, the history, the report), serve's and history's. Their rules are app/audit_command
// and app/history_command.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

#include "app/apply_command.hpp"
#include "app/audit_command.hpp"
#include "app/history_command.hpp"
#include "tool_common.hpp"

namespace moonquota::tools {

struct ServeFlags {
  std::string listen = "127.0.0.1:9464";
  std::string every = "5m";
  std::string standby;  // --standby URL: the hot standby's applied sequence (with an OpLog)
  std::string primary;  // --primary URL: a perf build's committed sequence (with an OpLog)
};

struct ReconcileFlags {
  app::AuditArgs audit;
  CommonFlags common;
  std::string colour = "auto";  // --color: auto | always | never
  std::string cluster;          // --cluster: the label of the Prometheus series
  CLI::App* serve = nullptr;
  ServeFlags serve_flags;
  CLI::App* doctor = nullptr;
  CLI::App* plan = nullptr;  // the audit's flags, then the plan's
  std::vector<std::string> adopt, allow_purge;
  std::optional<std::string> adopt_policy;
  bool retire_empty = false;
  CLI::App* apply = nullptr;  // its own flags only
  app::ApplyArgs apply_args;
  CommonFlags apply_common;
  std::string apply_max_age = "1h";
  CLI::App* history = nullptr;
  app::HistoryArgs history_args;
  CommonFlags history_common;
  std::optional<std::string> history_tenant;
};

// Every flag and both subcommands of quota-reconcile.
void add_reconcile_flags(CLI::App& app, ReconcileFlags& flags);

// The post-parse checks of the flags no command sees: the audit's flags given with `history`, the
// one-shot's report flags given to `serve`, --color without --format text. Errors: invalid_argument.
[[nodiscard]] util::Status check_reconcile_subcommand_flags(const CLI::App& app, const ReconcileFlags& flags);

}  // namespace moonquota::tools
