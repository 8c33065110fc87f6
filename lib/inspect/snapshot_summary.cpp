#include "inspect/snapshot_summary.hpp"

#include "model/enums.hpp"
#include "util/checked_math.hpp"

namespace moonquota::inspect {

std::uint64_t ok_capacity_bytes(const model::SegmentsPayload& segments) {
  std::uint64_t total = 0;
  for (const auto& s : segments.mounted) {
    if (s.status == model::segment_status::ok) total = util::saturating_add(total, s.size);
  }
  return total;
}

SnapshotSummary summarize_snapshot(const StatsScan& scan) {
  const auto& snap = scan.snapshot;
  SnapshotSummary out;
  out.shard_fill_histogram = shard_fill_histogram(scan.stats.shard_entries);
  for (const auto& d : snap.metadata.discarded) {
    out.discarded_replicas += d.replicas.size();
    out.discarded_bytes = util::saturating_add(out.discarded_bytes, d.mem_size);
  }
  for (const auto& t : snap.tasks) ++out.tasks_by_type_status[{t.type, t.status}];
  for (const auto& s : snap.segments.mounted) {
    auto& count = out.segments_by_status[s.status];
    ++count.segments;
    count.bytes = util::saturating_add(count.bytes, s.size);
  }
  out.ok_capacity_bytes = ok_capacity_bytes(snap.segments);
  return out;
}

}  // namespace moonquota::inspect
