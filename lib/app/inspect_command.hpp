// snapshot-inspect's command: the flags as given -> the inspection request (the store rules, the
// format each command offers, s3:// stores resolved), then the command run into the caller's
// stream (report/inspect/inspect_run) and its exit decision.
#pragma once

#include <memory>
#include <ostream>
#include <string>

#include "app/store_args.hpp"
#include "report/inspect/inspect_run.hpp"
#include "util/net_config.hpp"
#include "util/status.hpp"

namespace moonquota::app {

struct InspectArgs {
  StoreArgs store;
  std::string command;  // summary | tenants | objects | top | segments | tasks | verify | diff | dump | survival
  // The command's own flags (filter, limit, diff's ids and --other-store, survival's points, path and
  // OpLog); selection, restore time, payload guard, threads and format are filled in by plan_inspect.
  report::InspectRequest request;
  std::string format = "text";
  unsigned threads = 0;  // 0: all cores
  util::NetLog net_log;  // the caller's logging of network attempts (may be empty)
};

struct InspectPlan {
  report::InspectRequest request;
  ResolvedStore store;  // the selection's store; request.other_store resolved with store.s3
};

// The rules: the store rules (survival --path promote names an OpLog's cluster with --cluster-id);
// --format html is survival's only. Errors: invalid_argument (usage).
[[nodiscard]] util::Result<InspectPlan> plan_inspect(const InspectArgs& args);

struct InspectCommandOutcome {
  int exit_code = 0;                           // 1: verify failed, or diff found differences
  std::optional<std::uint64_t> spilled_bytes;  // verify: replica-id bytes spilled to the temp file
};

// Opens the stores and runs the command, writing its report to `out`. Errors: those of
// report::run_inspect (a streamed report may then be incomplete).
[[nodiscard]] util::Result<InspectCommandOutcome> run_inspect_command(const InspectPlan& plan, std::ostream& out);

}  // namespace moonquota::app
