#include "report/inspect/inspect_summary_report.hpp"

#include <algorithm>
#include <map>

#include "util/plural.hpp"
#include "util/text_encoding.hpp"
#include "util/text_table.hpp"
#include "util/time_text.hpp"

namespace moonquota::report {

namespace {

using util::TextTable;
constexpr auto L = TextTable::Align::left;
constexpr auto R = TextTable::Align::right;

std::string num(std::uint64_t v) { return std::to_string(v); }
std::string text_of(const std::string& raw) { return util::printable(raw); }

std::string type_name(std::int8_t t) { return t == -1 ? "(no replica)" : model::replica_type::name(t); }
std::string status_name(std::int16_t s) { return s == -1 ? "-" : model::replica_status::name(s); }

// Task enums out of range are shown as their number.
std::string task_type_name(std::int32_t t) { return model::task_type::k_table.name_or_number(t); }
std::string task_status_name(std::int32_t s) { return model::task_status::k_table.name_or_number(s); }

struct TenantRow {
  std::string tenant_id;
  const inspect::TenantUsage* usage = nullptr;
  const restore::TenantTally* restored = nullptr;
};

std::vector<TenantRow> tenant_rows(const inspect::StatsScan& scan) {
  std::map<std::string, TenantRow> rows;
  for (const auto& [t, u] : scan.stats.tenants) rows[t].usage = &u;
  for (const auto& [t, r] : scan.snapshot.restored_tenants) rows[t].restored = &r;
  std::vector<TenantRow> out;
  for (auto& [t, row] : rows) {
    row.tenant_id = t;
    out.push_back(row);
  }
  return out;
}

Json ranked_json(const inspect::RankedObject& o) {
  Json j;
  put_bytes(j, "tenant_id", o.tenant_id);
  put_bytes(j, "key", o.key);
  j["shard"] = o.shard;
  j["size"] = o.size;
  j["charge_bytes"] = o.charge_bytes;
  j["replicas"] = o.replicas;
  return j;
}

Json tenant_json(const TenantRow& row) {
  static const inspect::TenantUsage k_empty_usage;
  static const restore::TenantTally k_empty_tally;
  const auto& u = row.usage ? *row.usage : k_empty_usage;
  const auto& r = row.restored ? *row.restored : k_empty_tally;
  Json j;
  put_bytes(j, "tenant_id", row.tenant_id);
  j["objects"] = u.objects;
  j["skipped"] = u.skipped;
  j["replicas"] = u.replicas;
  j["logical_bytes"] = u.logical_bytes;
  j["memory_bytes"] = u.memory_bytes;
  j["disk_bytes"] = u.disk_bytes;
  j["local_disk_bytes"] = u.local_disk_bytes;
  j["charge_if_all_restored_bytes"] = u.charge_if_all_restored_bytes;
  j["restored_objects"] = r.objects;
  j["charged_bytes"] = saturate(r.charged_bytes);
  j["dropped"] = drops_json(r.dropped);
  Json biggest = Json::array();
  for (const auto& o : u.biggest.sorted()) biggest.push_back(ranked_json(o));
  j["biggest_objects"] = std::move(biggest);
  return j;
}

}  // namespace

void render_header_text(const InspectContext& ctx, const restore::ScannedSnapshot& snap, std::ostream& out) {
  const auto& sel = ctx.selected;
  out << "snapshot:    " << sel.snapshot_id << " (" << sel.snapshot_dir << ")"
      << (sel.from_catalog_latest ? ", the master's first candidate" : "") << "\n";
  if (snap.descriptor) {
    out << "descriptor:  last_included_seq " << snap.descriptor->last_included_seq << ", producer_view_version "
        << snap.descriptor->producer_view_version << ", created_at_ms " << snap.descriptor->created_at_ms << "\n";
    const std::int64_t created = snap.descriptor->created_at_ms;
    out << "created:     " << util::utc_iso8601(created) << ", age at restore "
        << util::hms_text(util::span_ms(restore_time_as_i64(ctx.restore_time_ms), created)) << " (restore time "
        << ctx.restore_time_ms << " ms)\n";
  } else {
    out << "descriptor:  none (" << snap.descriptor_error << ")\n";
  }
  out << "manifest:    " << text_of(snap.manifest) << "\n";
  if (ctx.verdict_applies) render_master_text(ctx.verdict, out);
}

void render_master_text(const inspect::MasterVerdict& v, std::ostream& out) {
  if (v.restores_inspected && !v.metadata_checked) {
    out << "master:      not checked yet: no rejection in manifest, segments or task_manager; the metadata shards "
           "are checked while they are listed (one the master rejects stops the listing, exit 3)\n";
  } else if (v.restores_inspected) {
    out << "master:      restores this snapshot\n";
  } else {
    out << "master:      REJECTS this snapshot: " << v.rejection << "\n";
    for (const auto& a : v.fallback) {
      out << "             then " << a.snapshot_id << ": " << (a.restored ? "restored" : "rejected: " + a.reason)
          << "\n";
    }
    out << "             "
        << (v.restored_id ? "=> the master restores " + *v.restored_id : std::string("=> the master starts EMPTY"))
        << "\n";
  }
}

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
    Json j = header_json(ctx, snap, "snapshot-inspect-summary/1");
    j["files"] = files_json(snap);
    j["metadata"] = {{"shard_blobs", snap.metadata.shard_entries},
                     {"duplicate_shard_blobs", snap.duplicate_shard_blobs},
                     {"compressed_shard_bytes", snap.metadata.compressed_shard_bytes},
                     {"decompressed_shard_bytes", snap.metadata.decompressed_shard_bytes},
                     {"replica_next_id", snap.metadata.replica_next_id},
                     {"shard_fill_histogram", histogram}};
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
                         {"type_name", type_name(k.first)},
                         {"status", k.second},
                         {"status_name", status_name(k.second)},
                         {"replicas", v.replicas},
                         {"bytes", v.bytes},
                         {"objects", st.objects.count(k) ? st.objects.at(k) : 0}});
    }
    j["replicas_by_type_status"] = std::move(by_type);
    Json data_types = Json::array();
    for (const auto& [t, n] : st.objects_by_data_type) data_types.push_back({{"data_type", t}, {"objects", n}});
    j["objects_by_data_type"] = std::move(data_types);
    Json tenants = Json::array();
    for (const auto& row : tenant_rows(scan)) {
      Json t = tenant_json(row);
      t.erase("biggest_objects");
      tenants.push_back(std::move(t));
    }
    j["tenants"] = std::move(tenants);
    Json seg_status = Json::array();
    for (const auto& [s, v] : segs) {
      seg_status.push_back({{"status", s},
                            {"status_name", model::segment_status::name(s)},
                            {"segments", v.segments},
                            {"bytes", v.bytes}});
    }
    j["segments"] = {{"count", snap.segments.mounted.size()},
                     {"ok_capacity_bytes", summary.ok_capacity_bytes},
                     {"by_status", std::move(seg_status)}};
    Json task_rows = Json::array();
    for (const auto& [k, n] : tasks) {
      task_rows.push_back({{"type", k.first},
                           {"type_name", task_type_name(k.first)},
                           {"status", k.second},
                           {"status_name", task_status_name(k.second)},
                           {"tasks", n}});
    }
    j["tasks"] = {
        {"count", snap.tasks.size()}, {"skipped", snap.tasks_skipped}, {"by_type_status", std::move(task_rows)}};
    j["discarded_replicas"] = {{"items", snap.metadata.discarded.size()},
                               {"replicas", discarded_replicas},
                               {"mem_size_bytes", discarded_bytes}};
    j["restore"] = {{"restored_objects", snap.restored_objects}, {"dropped", drops_json(snap.dropped)}};
    j["findings"] = finding_counts_json(snap.findings);
    if (format == OutputFormat::ndjson) {
      out << dump_inspect_json(j, -1) << "\n";  // one document, one line
    } else {
      write_inspect_json(j, out);
    }
    return;
  }
  render_header_text(ctx, snap, out);
  out << "\nfiles:\n";
  TextTable files;
  files.add_column("file", L);
  files.add_column("bytes", R);
  files.add_column("decompressed", R);
  // An object store's ETags, last, so a local report keeps its bytes.
  const bool etags =
      std::any_of(snap.files.begin(), snap.files.end(), [](const auto& f) { return f.etag.has_value(); });
  if (etags) files.add_column("etag", L);
  for (const auto& f : snap.files) {
    std::string raw = f.name == "metadata"       ? num(snap.metadata.decompressed_shard_bytes)
                      : f.name == "segments"     ? num(snap.segments_raw_bytes)
                      : f.name == "task_manager" ? num(snap.task_manager_raw_bytes)
                                                 : "";
    std::vector<std::string> row{f.name, f.present ? num(f.bytes) : "missing", raw};
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
                                       : num(1ULL << (b - 1)) + "-" + num((1ULL << b) - 1) + " entries";
    out << separator << "[" << range << ": " << util::counted(histogram[b], "shard", "shards") << "]";
    separator = " ";
  }
  out << "\nobjects:     " << st.entries << " entries, " << st.decoded << " decoded, " << st.skipped
      << " skipped by the master, " << st.all_replicas_complete << " with every replica COMPLETE, " << st.grouped
      << " grouped, " << st.hard_pinned << " hard-pinned, " << st.with_checksum << " with checksum\n";
  out << "\nreplicas by type x status:\n";
  TextTable rep;
  for (const char* h : {"type", "status"}) rep.add_column(h, L);
  for (const char* h : {"objects", "replicas", "bytes"}) rep.add_column(h, R);
  for (const auto& [k, v] : st.replicas) {
    rep.add_row({type_name(k.first), status_name(k.second), num(st.objects.count(k) ? st.objects.at(k) : 0),
                 num(v.replicas), num(v.bytes)});
  }
  rep.render(out);
  out << "\ntenants:\n";
  TextTable ten;
  ten.add_column("tenant", L);
  for (const char* h : {"objects", "skipped", "memory_bytes", "disk_bytes", "local_disk_bytes", "restored",
                        "charged_bytes", "non_complete", "lease_expired", "undecodable"}) {
    ten.add_column(h, R);
  }
  for (const auto& row : tenant_rows(scan)) {
    Json t = tenant_json(row);
    ten.add_row({text_of(row.tenant_id), num(t["objects"]), num(t["skipped"]), num(t["memory_bytes"]),
                 num(t["disk_bytes"]), num(t["local_disk_bytes"]), num(t["restored_objects"]), num(t["charged_bytes"]),
                 num(t["dropped"]["non_complete"]), num(t["dropped"]["lease_expired"]),
                 num(t["dropped"]["undecodable"])});
  }
  ten.render(out);
  out << "\nsegments:    " << snap.segments.mounted.size() << " mounted, OK capacity " << summary.ok_capacity_bytes
      << " bytes";
  for (const auto& [s, v] : segs) out << "; " << model::segment_status::name(s) << " " << v.segments;
  out << "\ntasks:       " << snap.tasks.size();
  for (const auto& [k, n] : tasks)
    out << "; " << task_type_name(k.first) << "/" << task_status_name(k.second) << " " << n;
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

void render_tenants(const InspectContext& ctx, const inspect::StatsScan& scan, OutputFormat format, std::ostream& out) {
  const auto rows = tenant_rows(scan);
  if (format == OutputFormat::ndjson) {
    for (const auto& row : rows) out << dump_inspect_json(tenant_json(row), -1) << "\n";
    return;
  }
  if (format == OutputFormat::json) {
    Json j = header_json(ctx, scan.snapshot, "snapshot-inspect-tenants/1");
    Json tenants = Json::array();
    for (const auto& row : rows) tenants.push_back(tenant_json(row));
    j["tenants"] = std::move(tenants);
    write_inspect_json(j, out);
    return;
  }
  render_header_text(ctx, scan.snapshot, out);
  out << "\n";
  for (const auto& row : rows) {
    Json t = tenant_json(row);
    out << "tenant " << text_of(row.tenant_id) << ": " << t["objects"] << " objects (" << t["skipped"] << " skipped), "
        << t["replicas"] << " replicas, " << t["logical_bytes"] << " logical bytes\n";
    out << "  MEMORY " << t["memory_bytes"] << " B, DISK " << t["disk_bytes"] << " B, LOCAL_DISK "
        << t["local_disk_bytes"] << " B\n";
    out << "  restore: " << t["restored_objects"] << " objects kept, charged " << t["charged_bytes"] << " B; dropped "
        << t["dropped"]["non_complete"] << " non-complete, " << t["dropped"]["lease_expired"] << " lease-expired, "
        << t["dropped"]["undecodable"] << " undecodable\n";
    for (const auto& o : row.usage ? row.usage->biggest.sorted() : std::vector<inspect::RankedObject>{}) {
      out << "  biggest: " << o.size << " B  " << text_of(o.key) << " (shard " << o.shard << ")\n";
    }
  }
}

void render_top_objects(const InspectContext& ctx, const inspect::StatsScan& scan, inspect::RankBy by,
                        OutputFormat format, std::ostream& out) {
  const auto ranked = scan.stats.top_objects.sorted();
  const char* by_name = by == inspect::RankBy::size ? "size" : "charge";
  if (format == OutputFormat::ndjson) {
    for (const auto& o : ranked) out << dump_inspect_json(ranked_json(o), -1) << "\n";
    return;
  }
  if (format == OutputFormat::json) {
    Json j = header_json(ctx, scan.snapshot, "snapshot-inspect-top/1");
    j["what"] = "objects";
    j["by"] = by_name;
    Json rows = Json::array();
    for (const auto& o : ranked) rows.push_back(ranked_json(o));
    j["objects"] = std::move(rows);
    write_inspect_json(j, out);
    return;
  }
  render_header_text(ctx, scan.snapshot, out);
  out << "\nlargest objects by " << by_name << ":\n";
  TextTable t;
  for (const char* h : {"rank", "size", "charge_bytes", "replicas", "shard"}) t.add_column(h, R);
  t.add_column("tenant", L);
  t.add_column("key", L);
  std::size_t rank = 0;
  for (const auto& o : ranked) {
    t.add_row({num(++rank), num(o.size), num(o.charge_bytes), num(o.replicas), num(o.shard), text_of(o.tenant_id),
               text_of(o.key)});
  }
  t.render(out);
}

void render_top_tenants(const InspectContext& ctx, const inspect::StatsScan& scan, inspect::RankBy by, std::size_t n,
                        OutputFormat format, std::ostream& out) {
  std::vector<Json> rows;
  for (const auto& row : tenant_rows(scan)) {
    Json t = tenant_json(row);
    t.erase("biggest_objects");
    rows.push_back(std::move(t));
  }
  const char* field = by == inspect::RankBy::size ? "logical_bytes" : "charged_bytes";
  std::stable_sort(rows.begin(), rows.end(), [&](const Json& a, const Json& b) {
    return a[field].get<std::uint64_t>() > b[field].get<std::uint64_t>();
  });
  if (rows.size() > n) rows.resize(n);
  if (format == OutputFormat::ndjson) {
    for (const auto& r : rows) out << dump_inspect_json(r, -1) << "\n";
    return;
  }
  if (format == OutputFormat::json) {
    Json j = header_json(ctx, scan.snapshot, "snapshot-inspect-top/1");
    j["what"] = "tenants";
    j["by"] = by == inspect::RankBy::size ? "size" : "charge";
    j["tenants"] = rows;
    write_inspect_json(j, out);
    return;
  }
  render_header_text(ctx, scan.snapshot, out);
  out << "\nlargest tenants by " << (by == inspect::RankBy::size ? "logical size" : "restored charge") << ":\n";
  TextTable t;
  t.add_column("rank", R);
  t.add_column("tenant", L);
  for (const char* h : {"objects", "logical_bytes", "memory_bytes", "charged_bytes"}) t.add_column(h, R);
  std::size_t rank = 0;
  for (const auto& r : rows) {
    t.add_row({num(++rank), text_of(r["tenant_id"].get<std::string>()), num(r["objects"]), num(r["logical_bytes"]),
               num(r["memory_bytes"]), num(r["charged_bytes"])});
  }
  t.render(out);
}

void render_segments(const InspectContext& ctx, const restore::ScannedSnapshot& snap, OutputFormat format,
                     std::ostream& out) {
  std::vector<const model::MountedSegment*> segs;
  for (const auto& s : snap.segments.mounted) segs.push_back(&s);
  std::sort(segs.begin(), segs.end(), [](auto* a, auto* b) { return a->map_key < b->map_key; });
  std::map<std::string, std::string> client_of;
  for (const auto& [client, ids] : snap.segments.client_segments) {
    for (const auto& id : ids) client_of.emplace(id, client);
  }
  auto seg_json = [&](const model::MountedSegment& s) {
    Json j = segment_json(s, false);
    j["client_id"] = client_of.count(s.map_key) ? Json(client_of[s.map_key]) : Json(nullptr);
    return j;
  };
  if (format == OutputFormat::ndjson) {
    for (const auto* s : segs) out << dump_inspect_json(seg_json(*s), -1) << "\n";
    return;
  }
  if (format == OutputFormat::json) {
    Json j = header_json(ctx, snap, "snapshot-inspect-segments/1");
    Json rows = Json::array();
    for (const auto* s : segs) rows.push_back(seg_json(*s));
    j["segments"] = std::move(rows);
    j["allocator_names"] = snap.segments.allocator_names;
    j["ok_capacity_bytes"] = inspect::ok_capacity_bytes(snap.segments);
    j["local_disk_clients"] = snap.segments.local_disk.size();
    write_inspect_json(j, out);
    return;
  }
  render_header_text(ctx, snap, out);
  out << "\nsegments (" << segs.size() << ", OK capacity " << inspect::ok_capacity_bytes(snap.segments) << " bytes):\n";
  TextTable t;
  for (const char* h : {"id", "name", "status", "client"}) t.add_column(h, L);
  for (const char* h : {"base", "size", "cur_size", "allocated_num"}) t.add_column(h, R);
  t.add_column("endpoint", L);
  for (const auto* s : segs) {
    const bool a = s->allocator.has_value();
    t.add_row({text_of(s->map_key), text_of(s->name), model::segment_status::name(s->status),
               client_of.count(s->map_key) ? text_of(client_of[s->map_key]) : "-", num(s->base), num(s->size),
               a ? num(s->allocator->cur_size) : "-", a ? num(s->allocator->offset.allocated_num) : "-",
               text_of(s->te_endpoint)});
  }
  t.render(out);
  out << "allocator names (\"an\"):";
  for (const auto& n : snap.segments.allocator_names) out << " " << text_of(n);
  out << "\nlocal-disk clients (\"ld\"): " << snap.segments.local_disk.size() << "\n";
}

void render_tasks(const InspectContext& ctx, const restore::ScannedSnapshot& snap, OutputFormat format,
                  std::ostream& out) {
  auto row_json = [](const model::TaskRecord& t) {
    Json j = task_json(t);
    j["type_name"] = task_type_name(t.type);
    j["status_name"] = task_status_name(t.status);
    return j;
  };
  if (format == OutputFormat::ndjson) {
    for (const auto& t : snap.tasks) out << dump_inspect_json(row_json(t), -1) << "\n";
    return;
  }
  if (format == OutputFormat::json) {
    Json j = header_json(ctx, snap, "snapshot-inspect-tasks/1");
    Json rows = Json::array();
    for (const auto& t : snap.tasks) rows.push_back(row_json(t));
    j["tasks"] = std::move(rows);
    j["skipped"] = snap.tasks_skipped;
    write_inspect_json(j, out);
    return;
  }
  render_header_text(ctx, snap, out);
  out << "\ntasks (" << snap.tasks.size() << ", " << snap.tasks_skipped << " skipped by the decoder):\n";
  TextTable t;
  for (const char* h : {"id", "type", "status", "assigned_client"}) t.add_column(h, L);
  for (const char* h : {"created_at_ms", "last_updated_at_ms"}) t.add_column(h, R);
  t.add_column("payload", L);
  for (const auto& task : snap.tasks) {
    t.add_row({text_of(task.id), task_type_name(task.type), task_status_name(task.status),
               text_of(task.assigned_client), std::to_string(task.created_at_ms),
               std::to_string(task.last_updated_at_ms), text_of(task.payload)});
  }
  t.render(out);
}

}  // namespace moonquota::report
