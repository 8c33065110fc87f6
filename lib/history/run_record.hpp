// One reconcile run as the history keeps it (plain data), and its conversion from a report.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "reconcile/reconcile_run.hpp"

namespace moonquota::history {

struct TenantPoint {
  std::string tenant_id;
  std::uint64_t expected_charged_bytes = 0;
  std::uint64_t live_charged_bytes = 0;
  std::int64_t delta_bytes = 0;
  std::string verdict;  // reconcile::verdict_name
  bool within_tolerance = true;
  std::int64_t unexplained_bytes = 0;  // delta left after the causes the metadata shows
  bool unexplained_within_tolerance = true;
  bool operator==(const TenantPoint&) const = default;
};

struct RunRecord {
  std::uint64_t run_at_ms = 0;    // the live sample time (or the run time for saved responses)
  std::string run_id;             // unique within the store; assigned by append() when empty
  std::string model = "restore";  // quota::model_name; runs recorded before models existed: restore
  std::string live_source;
  std::string snapshot_id;  // "" when the master would start empty
  std::optional<std::int64_t> metadata_point_ms;
  std::uint64_t last_included_seq = 0;
  std::uint64_t oplog_applied_seq = 0;  // promote path: the OpLog sequence replayed to; 0 otherwise
  std::uint64_t tolerance_bytes = 0;
  std::vector<TenantPoint> tenants;  // bytewise
  bool operator==(const RunRecord&) const = default;
};

// `run_at_ms`: the live sample time when known, else `fallback_now_ms`.
[[nodiscard]] RunRecord make_run_record(const reconcile::ReconcileReport& report, std::uint64_t fallback_now_ms);

}  // namespace moonquota::history
