// quota-rebuild's report model rendered as `quota-rebuild/1` JSON (cli-contract.md) and as a
// text table for people. Both are deterministic: rows sorted bytewise, integers exact.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

#include "quota/rebuild.hpp"
#include "report/output_format.hpp"

namespace moonquota::report {

[[nodiscard]] nlohmann::ordered_json rebuild_report_json(const quota::RebuildResult& result);

// {"id", "created_at_ms", "created_at" (UTC ISO-8601), "age_at_restore_ms"} of result.snapshot, or
// null; `with_age` false: age_at_restore_ms is null (quota-reconcile's live model has no restore time).
[[nodiscard]] nlohmann::ordered_json snapshot_point_json(const quota::RebuildResult& result, bool with_age = true);

// "2026-08-22T05:12:00.123Z (created_at_ms 1787375520123)", then ", age at restore 0h 00m 00s" with `with_age`.
[[nodiscard]] std::string snapshot_point_text(const quota::SnapshotPoint& point, bool with_age);

// Which model made an --explain section's numbers: "restore at <ISO> (restore_time_ms N), lease
// model upstream, snapshot <id>" or "live model: what a running master holds".
[[nodiscard]] std::string explain_model_text(const quota::RebuildResult& result);

void render_rebuild_text(const quota::RebuildResult& result, std::ostream& out);

// The JSON text as written by --format json (2-space indent, trailing newline).
[[nodiscard]] std::string rebuild_report_json_text(const quota::RebuildResult& result);

// The report in `format`: json (and ndjson) as above, text otherwise.
void render_rebuild(const quota::RebuildResult& result, OutputFormat format, std::ostream& out);

}  // namespace moonquota::report
