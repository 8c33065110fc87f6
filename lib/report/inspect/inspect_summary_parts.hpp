// Shared by the renderers of `summary`, `tenants`, `top` and `tasks` only (callers include
// inspect_summary_report.hpp): a tenant's row and its JSON, a ranked object's JSON, the names of
// the enums the reports show, the text tables' alignments and number cells.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "inspect/snapshot_stats.hpp"
#include "inspect/snapshot_summary.hpp"
#include "report/inspect/inspect_json.hpp"
#include "util/text_table.hpp"

namespace moonquota::report {

inline constexpr auto k_inspect_left = util::TextTable::Align::left;
inline constexpr auto k_inspect_right = util::TextTable::Align::right;
[[nodiscard]] inline std::string inspect_num(std::uint64_t v) { return std::to_string(v); }

// Replica type and status of a `replicas by type x status` row (-1: the object has none).
[[nodiscard]] std::string inspect_replica_type_name(std::int8_t t);
[[nodiscard]] std::string inspect_replica_status_name(std::int16_t s);
// Task enums out of range are shown as their number.
[[nodiscard]] std::string inspect_task_type_name(std::int32_t t);
[[nodiscard]] std::string inspect_task_status_name(std::int32_t s);

struct InspectTenantRow {
  std::string tenant_id;
  const inspect::TenantUsage* usage = nullptr;
  const restore::TenantTally* restored = nullptr;
};

// Every tenant of the metadata or of the restore, bytewise by id.
[[nodiscard]] std::vector<InspectTenantRow> inspect_tenant_rows(const inspect::StatsScan& scan);
[[nodiscard]] Json inspect_tenant_json(const InspectTenantRow& row);
[[nodiscard]] Json inspect_ranked_json(const inspect::RankedObject& o);

// The `snapshot-inspect-summary/1` document (inspect_summary_json.cpp).
[[nodiscard]] Json inspect_summary_json(const InspectContext& ctx, const inspect::StatsScan& scan,
                                        const inspect::SnapshotSummary& summary);

}  // namespace moonquota::report
