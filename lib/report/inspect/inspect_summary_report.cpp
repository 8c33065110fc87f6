// `summary`: the snapshot's files, metadata, objects, replicas, tenants, segments, tasks and what a
// restore keeps, as text; the document itself is built in inspect_summary_json.cpp.
#include "report/inspect/inspect_summary_report.hpp"

#include <algorithm>

#include "report/inspect/inspect_summary_parts.hpp"
#include "util/plural.hpp"
#include "util/text_encoding.hpp"

namespace moonquota::report {

void render_summary(const InspectContext& ctx, const inspect::StatsScan& scan, const inspect::SnapshotSummary& summary,
                    OutputFormat format, std::ostream& out) {
  const auto& snap = scan.snapshot;
  const auto& st = scan.stats;
  const auto& histogram = summary.shard_fill_histogram;
  const std::uint64_t discarded_replicas = summary.discarded_replicas;
  const std::uint64_t discarded_bytes = summary.discarded_bytes;
  const auto& tasks = summary.tasks_by_type_status;
  const auto& segs = summary.segments_by_status;
  if (format != OutputFormat::text) {
    const Json j = inspect_summary_json(ctx, scan, summary);
    if (format == OutputFormat::ndjson) {
      out << dump_inspect_json(j, -1) << "\n";  // one document, one line
    } else {
      write_inspect_json(j, out);
    }
    return;
  }
  render_header_text(ctx, snap, out);
  out << "\nfiles:\n";
  util::TextTable files;
  files.add_column("file", k_inspect_left);
  files.add_column("bytes", k_inspect_right);
  files.add_column("decompressed", k_inspect_right);
  // An object store's ETags, last, so a local report keeps its bytes.
  const bool etags =
      std::any_of(snap.files.begin(), snap.files.end(), [](const auto& f) { return f.etag.has_value(); });
  if (etags) files.add_column("etag", k_inspect_left);
  for (const auto& f : snap.files) {
    std::string raw = f.name == "metadata"       ? inspect_num(snap.metadata.decompressed_shard_bytes)
                      : f.name == "segments"     ? inspect_num(snap.segments_raw_bytes)
                      : f.name == "task_manager" ? inspect_num(snap.task_manager_raw_bytes)
                                                 : "";
    std::vector<std::string> row{f.name, f.present ? inspect_num(f.bytes) : "missing", raw};
    if (etags) row.push_back(f.etag.value_or(""));
    files.add_row(std::move(row));
  }
  files.render(out);
  out << "\nmetadata:    " << snap.metadata.shard_entries << " shard blobs";
  if (snap.duplicate_shard_blobs > 0) out << " (" << snap.duplicate_shard_blobs << " duplicate)";
  out << ", replica_next_id " << snap.metadata.replica_next_id << "\n";
  out << "shard fill:  ";
  const char* separator = "";
  for (std::size_t b = 0; b < histogram.size(); ++b) {
    if (histogram[b] == 0) continue;
    const std::string range = b == 0   ? "0 entries"
                              : b == 1 ? "1 entry"
                                       : inspect_num(1ULL << (b - 1)) + "-" + inspect_num((1ULL << b) - 1) + " entries";
    out << separator << "[" << range << ": " << util::counted(histogram[b], "shard", "shards") << "]";
    separator = " ";
  }
  out << "\nobjects:     " << st.entries << " entries, " << st.decoded << " decoded, " << st.skipped
      << " skipped by the master, " << st.all_replicas_complete << " with every replica COMPLETE, " << st.grouped
      << " grouped, " << st.hard_pinned << " hard-pinned, " << st.with_checksum << " with checksum\n";
  out << "\nreplicas by type x status:\n";
  util::TextTable rep;
  for (const char* h : {"type", "status"}) rep.add_column(h, k_inspect_left);
  for (const char* h : {"objects", "replicas", "bytes"}) rep.add_column(h, k_inspect_right);
  for (const auto& [k, v] : st.replicas) {
    rep.add_row({inspect_replica_type_name(k.first), inspect_replica_status_name(k.second),
                 inspect_num(st.objects.count(k) ? st.objects.at(k) : 0), inspect_num(v.replicas),
                 inspect_num(v.bytes)});
  }
  rep.render(out);
  out << "\ntenants:\n";
  util::TextTable ten;
  ten.add_column("tenant", k_inspect_left);
  for (const char* h : {"objects", "skipped", "memory_bytes", "disk_bytes", "local_disk_bytes", "restored",
                        "charged_bytes", "non_complete", "lease_expired", "undecodable"}) {
    ten.add_column(h, k_inspect_right);
  }
  for (const auto& row : inspect_tenant_rows(scan)) {
    Json t = inspect_tenant_json(row);
    ten.add_row({util::printable(row.tenant_id), inspect_num(t["objects"]), inspect_num(t["skipped"]),
                 inspect_num(t["memory_bytes"]), inspect_num(t["disk_bytes"]), inspect_num(t["local_disk_bytes"]),
                 inspect_num(t["restored_objects"]), inspect_num(t["charged_bytes"]),
                 inspect_num(t["dropped"]["non_complete"]), inspect_num(t["dropped"]["lease_expired"]),
                 inspect_num(t["dropped"]["undecodable"])});
  }
  ten.render(out);
  out << "\nsegments:    " << snap.segments.mounted.size() << " mounted, OK capacity " << summary.ok_capacity_bytes
      << " bytes";
  for (const auto& [s, v] : segs) out << "; " << model::segment_status::name(s) << " " << v.segments;
  out << "\ntasks:       " << snap.tasks.size();
  for (const auto& [k, n] : tasks)
    out << "; " << inspect_task_type_name(k.first) << "/" << inspect_task_status_name(k.second) << " " << n;
  out << "\ndiscarded:   " << snap.metadata.discarded.size() << " items, " << discarded_replicas << " replicas, "
      << discarded_bytes << " bytes (never charged)\n";
  out << "restore:     at " << ctx.restore_time_ms << " ms the master keeps " << snap.restored_objects
      << " objects and drops " << snap.dropped.non_complete << " (a replica not COMPLETE), "
      << snap.dropped.lease_expired << " (lease expired), " << snap.dropped.undecodable
      << " (skipped by the decoder)\n";
  const Json counts = finding_counts_json(snap.findings);
  out << "findings:    " << counts["errors"] << " errors, " << counts["warnings"] << " warnings, " << counts["info"]
      << " info from the decoders (run `verify` for the full check)\n";
}

}  // namespace moonquota::report
