// The numbers of `snapshot-inspect summary` that are not counted during the scan: derived once
// from a StatsScan here, so the renderer only renders (report/inspect_summary_report).
#pragma once

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "inspect/snapshot_stats.hpp"
#include "model/snapshot_types.hpp"

namespace moonquota::inspect {

struct SegmentStatusCount {
  std::uint64_t segments = 0;
  std::uint64_t bytes = 0;  // sum of segment sizes, saturating
};

struct SnapshotSummary {
  std::vector<std::uint64_t> shard_fill_histogram;  // shard_fill_histogram(stats.shard_entries)
  std::uint64_t discarded_replicas = 0;
  std::uint64_t discarded_bytes = 0;  // sum of mem_size, saturating
  std::map<std::pair<std::int32_t, std::int32_t>, std::uint64_t> tasks_by_type_status;
  std::map<std::int16_t, SegmentStatusCount> segments_by_status;
  std::uint64_t ok_capacity_bytes = 0;
};

[[nodiscard]] SnapshotSummary summarize_snapshot(const StatsScan& scan);

// Total size of the mounted segments whose status is OK (saturating).
[[nodiscard]] std::uint64_t ok_capacity_bytes(const model::SegmentsPayload& segments);

}  // namespace moonquota::inspect
