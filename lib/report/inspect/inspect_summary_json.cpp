// The `snapshot-inspect-summary/1` document (JSON, or one NDJSON line).
#include <utility>

#include "report/inspect/inspect_summary_parts.hpp"

namespace moonquota::report {

Json inspect_summary_json(const InspectContext& ctx, const inspect::StatsScan& scan,
                          const inspect::SnapshotSummary& summary) {
  const auto& snap = scan.snapshot;
  const auto& st = scan.stats;
  const auto& tasks = summary.tasks_by_type_status;
  Json j = header_json(ctx, snap, "snapshot-inspect-summary/1");
  j["files"] = files_json(snap);
  j["metadata"] = {{"shard_blobs", snap.metadata.shard_entries},
                   {"duplicate_shard_blobs", snap.duplicate_shard_blobs},
                   {"compressed_shard_bytes", snap.metadata.compressed_shard_bytes},
                   {"decompressed_shard_bytes", snap.metadata.decompressed_shard_bytes},
                   {"replica_next_id", snap.metadata.replica_next_id},
                   {"shard_fill_histogram", summary.shard_fill_histogram}};
  j["objects"] = {{"entries", st.entries},
                  {"decoded", st.decoded},
                  {"skipped", st.skipped},
                  {"all_replicas_complete", st.all_replicas_complete},
                  {"grouped", st.grouped},
                  {"hard_pinned", st.hard_pinned},
                  {"with_checksum", st.with_checksum}};
  Json by_type = Json::array();
  for (const auto& [k, v] : st.replicas) {
    by_type.push_back({{"type", k.first},
                       {"type_name", inspect_replica_type_name(k.first)},
                       {"status", k.second},
                       {"status_name", inspect_replica_status_name(k.second)},
                       {"replicas", v.replicas},
                       {"bytes", v.bytes},
                       {"objects", st.objects.count(k) ? st.objects.at(k) : 0}});
  }
  j["replicas_by_type_status"] = std::move(by_type);
  Json data_types = Json::array();
  for (const auto& [t, n] : st.objects_by_data_type) data_types.push_back({{"data_type", t}, {"objects", n}});
  j["objects_by_data_type"] = std::move(data_types);
  Json tenants = Json::array();
  for (const auto& row : inspect_tenant_rows(scan)) {
    Json t = inspect_tenant_json(row);
    t.erase("biggest_objects");
    tenants.push_back(std::move(t));
  }
  j["tenants"] = std::move(tenants);
  Json seg_status = Json::array();
  for (const auto& [s, v] : summary.segments_by_status) {
    seg_status.push_back(
        {{"status", s}, {"status_name", model::segment_status::name(s)}, {"segments", v.segments}, {"bytes", v.bytes}});
  }
  j["segments"] = {{"count", snap.segments.mounted.size()},
                   {"ok_capacity_bytes", summary.ok_capacity_bytes},
                   {"by_status", std::move(seg_status)}};
  Json task_rows = Json::array();
  for (const auto& [k, n] : tasks) {
    task_rows.push_back({{"type", k.first},
                         {"type_name", inspect_task_type_name(k.first)},
                         {"status", k.second},
                         {"status_name", inspect_task_status_name(k.second)},
                         {"tasks", n}});
  }
  j["tasks"] = {
      {"count", snap.tasks.size()}, {"skipped", snap.tasks_skipped}, {"by_type_status", std::move(task_rows)}};
  j["discarded_replicas"] = {{"items", snap.metadata.discarded.size()},
                             {"replicas", summary.discarded_replicas},
                             {"mem_size_bytes", summary.discarded_bytes}};
  j["restore"] = {{"restored_objects", snap.restored_objects}, {"dropped", drops_json(snap.dropped)}};
  j["findings"] = finding_counts_json(snap.findings);
  return j;
}

}  // namespace moonquota::report
