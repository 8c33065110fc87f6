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
#include "report/inspect/inspect_json.hpp"
#include "restore/restore_path.hpp"
#include "source/oplog_source.hpp"
#include "util/status.hpp"

namespace moonquota::report {

enum class InspectCommand { summary, tenants, objects, top, segments, tasks, verify, diff, dump, survival };

// The command name as typed ("summary", ...), or nothing.
[[nodiscard]] std::optional<InspectCommand> parse_inspect_command(const std::string& name);

// --replica-type / --status etc. of `objects`, as typed (names or numbers).
struct ObjectFilterFlags {
  std::optional<std::string> tenant, key_prefix, replica_type, status, group;
  std::uint64_t min_size = 0;
};

// The filter of `objects`. Errors: invalid_argument naming the flag of an unknown name.
[[nodiscard]] util::Result<inspect::ObjectFilter> object_filter(const ObjectFilterFlags& flags);

struct InspectRequest {
  InspectCommand command = InspectCommand::summary;
  restore::StoreSelection selection;
  std::uint64_t restore_time_ms = 0;  // --restore-time, parsed
  std::size_t max_payload_bytes = std::size_t{1} << 30;
  unsigned threads = 1;
  OutputFormat format = OutputFormat::text;
  std::function<void(std::uint64_t, std::uint64_t)> progress;  // shards, objects; may be empty
  // objects
  ObjectFilterFlags filter;
  std::uint64_t limit = 0;  // objects / diff: 0 = all
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
  // survival (restore_time_ms is its `now`)
  std::string at = "0,1s,2s,5s,10s,30s,1m,5m,1h";  // inspect::k_default_survival_points
  std::string lease_model = "upstream";            // upstream | keep
  std::string path = "restore";                    // restore | promote
  source::OpLogSelection oplog;                    // promote: the OpLog tail the standby replays
  std::optional<std::uint64_t> until_seq;          // promote: replay up to this sequence
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
