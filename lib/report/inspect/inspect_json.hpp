// JSON building blocks shared by the snapshot-inspect renderers. Every byte string that is not
// valid UTF-8 keeps its exact bytes in a sibling "<field>_hex"; the JSON text replaces invalid
// bytes by U+FFFD (dump_inspect_json). Integers are exact; ids are numbers.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <string_view>

#include "inspect/snapshot_select.hpp"
#include "model/snapshot_types.hpp"
#include "report/output_format.hpp"
#include "restore/restored_state.hpp"
#include "restore/snapshot_reader.hpp"
#include "util/checked_math.hpp"

namespace moonquota::report {

using Json = nlohmann::ordered_json;

// What every snapshot-inspect report names: the snapshot read and the master's verdict.
struct InspectContext {
  inspect::SelectedSnapshot selected;
  inspect::MasterVerdict verdict;
  // false where the master's restore verdict is not what the report models (survival --path
  // promote: the standby's bootstrap decides there): no `master:` line, JSON "master": null.
  bool verdict_applies = true;
  std::uint64_t restore_time_ms = 0;
};

// j[field] = bytes, plus j[field + "_hex"] when the bytes are not UTF-8.
void put_bytes(Json& j, const std::string& field, std::string_view bytes);

[[nodiscard]] Json replica_json(const model::Replica& replica);
[[nodiscard]] Json object_record_json(const model::ObjectRecord& object);  // lossless
[[nodiscard]] Json descriptor_json(const std::optional<model::SnapshotDescriptor>& descriptor);
[[nodiscard]] Json files_json(const restore::ScannedSnapshot& snapshot);
// `full`: allocator state with node tables as hex (lossless dump); otherwise a summary.
[[nodiscard]] Json segment_json(const model::MountedSegment& segment, bool full);
[[nodiscard]] Json task_json(const model::TaskRecord& task);
[[nodiscard]] Json discarded_json(const model::DiscardedItem& item);
[[nodiscard]] Json drops_json(const restore::DropCounts& dropped);
[[nodiscard]] Json source_json(const inspect::SelectedSnapshot& selected, const restore::ScannedSnapshot& snapshot);
// A --restore-time as a signed instant (clamped at 2^63-1 ms), for the snapshot's age.
[[nodiscard]] std::int64_t restore_time_as_i64(std::uint64_t restore_time_ms);
// {"id", "created_at_ms", "created_at" (UTC ISO-8601), "age_at_restore_ms"}, or null without a
// descriptor.txt.
[[nodiscard]] Json snapshot_age_json(const InspectContext& context, const restore::ScannedSnapshot& snapshot);
// The header block every single-snapshot document starts with: schema, source, restore_time_ms,
// snapshot (its age), master.
[[nodiscard]] Json header_json(const InspectContext& context, const restore::ScannedSnapshot& snapshot,
                               const char* schema);
[[nodiscard]] Json master_json(const inspect::MasterVerdict& verdict);
[[nodiscard]] Json finding_counts_json(const model::Findings& findings);

[[nodiscard]] std::uint64_t saturate(util::u128 value);

// Text of one JSON value: `indent` < 0 gives one line (NDJSON).
[[nodiscard]] std::string dump_inspect_json(const Json& j, int indent);

// dump_inspect_json(j, 2) and a newline: a report's JSON as written to its output.
void write_inspect_json(const Json& j, std::ostream& out);

}  // namespace moonquota::report
