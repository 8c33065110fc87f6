// snapshot-inspect's commands as one call each (docs/cli/snapshot-inspect.md): select the
// snapshot, scan it with lib/inspect, decide the master's verdict, and render the report into
// the caller's stream in the caller's format. The tool keeps only flag wiring, progress on
// stderr, the output file and exit codes.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "inspect/object_listing.hpp"
#include "inspect/snapshot_stats.hpp"
#include "inspect/survival_points.hpp"
#include "report/inspect/inspect_json.hpp"
#include "restore/restore_path.hpp"
#include "restore/restored_state.hpp"
#include "source/oplog_source.hpp"
#include "util/status.hpp"

namespace moonquota::report {

enum class InspectCommand {
  summary,
  tenants,
  objects,
  top,
  segments,
  tasks,
  verify,
  diff,
  dump,
  survival,
  fingerprint
};

// The command name as typed ("summary", ...), or nothing.
[[nodiscard]] std::optional<InspectCommand> parse_inspect_command(const std::string& name);

enum class TopWhat { objects, tenants };

// One inspection, typed: the flags as given and their rules are app/inspect_command's.
struct InspectRequest {
  InspectCommand command = InspectCommand::summary;
  restore::StoreSelection selection;
  std::uint64_t restore_time_ms = 0;  // --restore-time, parsed
  std::size_t max_payload_bytes = std::size_t{1} << 30;
  unsigned threads = 1;
  OutputFormat format = OutputFormat::text;
  std::function<void(std::uint64_t, std::uint64_t)> progress;  // shards, objects; may be empty
  // objects
  inspect::ObjectFilter filter;
  std::uint64_t limit = 0;  // objects / diff: 0 = all
  // tenants, top
  std::size_t biggest = 3;
  TopWhat top_what = TopWhat::objects;
  inspect::RankBy top_by = inspect::RankBy::size;
  std::size_t top_n = 10;
  // verify
  std::size_t max_findings = 1000;
  std::string temp_dir;
  // diff: snapshot A of `selection`'s store, snapshot B of other_store (or the same store)
  std::string other_store;
  std::string snapshot_a = "latest";
  std::string snapshot_b = "latest";
  // survival (restore_time_ms is its `now`)
  std::vector<inspect::PointSpec> points;
  restore::LeaseModel lease_model = restore::LeaseModel::upstream;
  bool promote = false;                    // --path promote: a standby's bootstrap, replay and promotion
  source::OpLogSelection oplog;            // promote: the OpLog tail the standby replays
  std::optional<std::uint64_t> until_seq;  // promote: replay up to this sequence
};

struct InspectOutcome {
  bool found = false;                          // verify failed, or diff found differences (exit 1)
  std::optional<std::uint64_t> spilled_bytes;  // verify: replica-id bytes spilled to the temp file
};

// The stores an inspection reads, resolved by the caller: `store` holds the selection (--store or
// --snapshot-dir), `other` diff's --other-store (null: snapshot B is in `store` too).
struct InspectStores {
  source::ObjectStore& store;
  source::ObjectStore* other = nullptr;
};

// Runs `request.command` and writes its report to `out`. Errors are those of the selection and
// the scan (the report may then be incomplete: a streamed listing stops where it failed).
[[nodiscard]] util::Result<InspectOutcome> run_inspect(const InspectStores& stores, const InspectRequest& request,
                                                       std::ostream& out);

}  // namespace moonquota::report
