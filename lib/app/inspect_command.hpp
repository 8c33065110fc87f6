// snapshot-inspect's command: the flags as given -> the inspection request (the store rules, the
// format each command offers, s3:// stores resolved), then the command run into the caller's
// stream (report/inspect/inspect_run) and its exit decision.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "app/store_args.hpp"
#include "inspect/survival_points.hpp"
#include "report/inspect/inspect_run.hpp"
#include "util/net_config.hpp"
#include "util/status.hpp"

namespace moonquota::app {

// `objects`' filter as given (--replica-type and --status: a name or a number).
struct ObjectFilterArgs {
  std::optional<std::string> tenant, key_prefix, replica_type, status, group;
  std::uint64_t min_size = 0;
};

struct InspectArgs {
  StoreArgs store;
  std::string
      command;  // summary | tenants | objects | top | segments | tasks | verify | diff | dump | survival | fingerprint
  report::OutputFormat format = report::OutputFormat::text;
  unsigned threads = 0;  // 0: all cores
  util::NetLog net_log;  // the caller's logging of network attempts (may be empty)
  // objects
  ObjectFilterArgs filter;
  std::uint64_t limit = 0;  // objects, diff: 0 = all
  // tenants, top
  std::size_t biggest = 3;
  std::string top_what = "objects";  // objects | tenants
  std::string top_by = "size";       // size | charge
  std::size_t top_n = 10;
  // verify
  std::size_t max_findings = 1000;
  std::string temp_dir;
  // diff
  std::string other_store;
  std::vector<std::string> ids;
  // survival
  std::string at = inspect::k_default_survival_points;
  std::string at_file;                   // the points from a file instead (empty: --at)
  std::string lease_model = "upstream";  // upstream | keep
  std::string path = "restore";          // restore | promote
  std::string oplog_etcd, oplog_file;    // promote: the OpLog tail the standby replays
  std::optional<std::uint64_t> until_seq;
};

struct InspectPlan {
  report::InspectRequest request;
  ResolvedStore store;  // the selection's store; request.other_store resolved with store.s3
};

// The rules: the store rules (survival --path promote names an OpLog's cluster with --cluster-id);
// --format html is survival's only; the filter's names; top's ranking; diff's ids against
// --other-store; survival's points, lease model, and --path against the OpLog flags. Errors:
// invalid_argument (usage), naming the flag.
[[nodiscard]] util::Result<InspectPlan> plan_inspect(const InspectArgs& args);

struct InspectCommandOutcome {
  int exit_code = 0;                           // 1: verify failed, or diff found differences
  std::optional<std::uint64_t> spilled_bytes;  // verify: replica-id bytes spilled to the temp file
};

// Opens the stores and runs the command, writing its report to `out`. Errors: those of
// report::run_inspect (a streamed report may then be incomplete).
[[nodiscard]] util::Result<InspectCommandOutcome> run_inspect_command(const InspectPlan& plan, std::ostream& out);

}  // namespace moonquota::app
