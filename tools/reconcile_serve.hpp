// quota-reconcile serve as a process: bind, audit in the background (service::AuditService runs
// app::run_audit, the one-shot's command), log on stderr, and stop on SIGTERM or SIGINT.
#pragma once

#include <string>

#include "app/audit_command.hpp"
#include "reconcile_flags.hpp"

namespace moonquota::tools {

// Returns the exit code: 0 when stopped by a signal, 2 on a bad --every/--listen, 4 when --listen
// cannot be bound.
int run_serve(const ServeFlags& flags, const app::RebuildArgs& metadata, app::AuditPlan plan,
              const std::string& cluster);

}  // namespace moonquota::tools
