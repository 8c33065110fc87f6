// Renderers of `summary`, `tenants`, `top`, `segments` and `tasks` (schemas
// snapshot-inspect-<command>/1, docs/cli/snapshot-inspect.md). Rows are sorted: tenants and
// segments bytewise by id, rankings best first with (tenant, key) tie-breaks.
#pragma once

#include <ostream>

#include "inspect/snapshot_stats.hpp"
#include "inspect/snapshot_summary.hpp"
#include "report/inspect/inspect_json.hpp"

namespace moonquota::report {

// `summary` is summarize_snapshot(scan).
void render_summary(const InspectContext& context, const inspect::StatsScan& scan,
                    const inspect::SnapshotSummary& summary, OutputFormat format, std::ostream& out);
void render_tenants(const InspectContext& context, const inspect::StatsScan& scan, OutputFormat format,
                    std::ostream& out);
// The N largest objects (scan.stats.top_objects) ranked by `by`.
void render_top_objects(const InspectContext& context, const inspect::StatsScan& scan, inspect::RankBy by,
                        OutputFormat format, std::ostream& out);
// The N largest tenants by logical size or by restored charge.
void render_top_tenants(const InspectContext& context, const inspect::StatsScan& scan, inspect::RankBy by,
                        std::size_t n, OutputFormat format, std::ostream& out);
void render_segments(const InspectContext& context, const restore::ScannedSnapshot& snapshot, OutputFormat format,
                     std::ostream& out);
void render_tasks(const InspectContext& context, const restore::ScannedSnapshot& snapshot, OutputFormat format,
                  std::ostream& out);

// The text block naming the snapshot and the master's verdict (first lines of every text report).
void render_header_text(const InspectContext& context, const restore::ScannedSnapshot& snapshot, std::ostream& out);
// The "master:" lines of that header: restores, not checked yet, or REJECTS with the fallback.
void render_master_text(const inspect::MasterVerdict& verdict, std::ostream& out);

}  // namespace moonquota::report
