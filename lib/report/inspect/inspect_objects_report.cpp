#include "report/inspect/inspect_objects_report.hpp"

#include "report/inspect/inspect_summary_report.hpp"
#include "util/text_encoding.hpp"

namespace moonquota::report {

Json listed_object_json(const inspect::ListedObject& o) {
  Json j;
  j["shard"] = o.shard;
  j["entry"] = o.entry_index;
  if (o.skipped) {
    put_bytes(j, "tenant_id", o.record.tenant_id);
    put_bytes(j, "key", o.record.key);
    j["skipped"] = true;
    j["skip_reason"] = o.skip_reason;
    return j;
  }
  const Json record = object_record_json(o.record);  // items() must not outlive the object it walks
  for (const auto& item : record.items()) j[item.key()] = item.value();
  return j;
}

void ObjectStreamWriter::begin(const InspectContext& ctx, const restore::ScannedSnapshot& header) {
  if (m_format == OutputFormat::json) {
    Json head = header_json(ctx, header, "snapshot-inspect-objects/1");
    head["snapshot_id"] = ctx.selected.snapshot_id;  // kept from the first version of the schema
    std::string text = dump_inspect_json(head, -1);
    text.pop_back();  // reopen the object to stream the array into it
    m_out << text << ",\"objects\":[\n";
  } else if (m_format == OutputFormat::text) {
    m_out << "snapshot " << ctx.selected.snapshot_id << "\n";
    render_master_text(ctx.verdict, m_out);
    m_out << "shard  entry  tenant  key  size  replicas (type/status/location)\n";
  }
}

void ObjectStreamWriter::write(const inspect::ListedObject& o) {
  if (m_format == OutputFormat::text) {
    m_out << o.shard << "  " << o.entry_index << "  " << util::printable(o.record.tenant_id) << "  "
          << util::printable(o.record.key);
    if (o.skipped) {
      m_out << "  SKIPPED: " << o.skip_reason << "\n";
    } else {
      m_out << "  " << o.record.size << " ";
      for (const auto& r : o.record.replicas) {
        const std::string& where = r.type == model::replica_type::memory       ? r.memory.segment_id
                                   : r.type == model::replica_type::local_disk ? r.client_id
                                                                               : r.file_path;
        m_out << " " << model::replica_type::name(r.type) << "/" << model::replica_status::name(r.status) << "/"
              << util::printable(where);
      }
      m_out << "\n";
    }
  } else {
    if (m_format == OutputFormat::json && m_written > 0) m_out << ",\n";
    m_out << dump_inspect_json(listed_object_json(o), -1);
    if (m_format == OutputFormat::ndjson) m_out << "\n";
  }
  ++m_written;
}

void ObjectStreamWriter::end(const InspectContext& ctx, const inspect::ListingResult& result) {
  // The listing decoded every shard unless --limit stopped it: the verdict left open is now known.
  const bool open = ctx.verdict.restores_inspected && !ctx.verdict.metadata_checked;
  const bool complete = !result.truncated && !result.snapshot.stopped_early;
  if (m_format == OutputFormat::json) {
    m_out << (m_written > 0 ? "\n" : "") << "],\"listed\":" << result.listed
          << ",\"truncated\":" << (result.truncated ? "true" : "false");
    if (open) m_out << ",\"metadata_checked\":" << (complete ? "true" : "false");
    m_out << "}\n";
  } else if (m_format == OutputFormat::text) {
    m_out << result.listed << " objects listed" << (result.truncated ? " (--limit reached)" : "") << "\n";
    if (open) {
      m_out << (complete ? "master:      restores this snapshot (every metadata shard decoded)\n"
                         : "master:      not checked: --limit stopped the listing before every metadata shard was "
                           "read\n");
    }
  }
}

void begin_dump(const InspectContext& ctx, const restore::ScannedSnapshot& snap, OutputFormat format,
                std::ostream& out) {
  Json head = header_json(ctx, snap, "snapshot-inspect-dump/1");
  head["files"] = files_json(snap);
  Json segments;
  if (snap.segments.allocator_type) segments["ma"] = *snap.segments.allocator_type;
  segments["an"] = snap.segments.has_allocator_names ? Json(snap.segments.allocator_names) : Json(nullptr);
  Json ms = Json::array();
  for (const auto& s : snap.segments.mounted) ms.push_back(segment_json(s, true));
  segments["ms"] = std::move(ms);
  Json cs = Json::array();
  for (const auto& [client, ids] : snap.segments.client_segments)
    cs.push_back({{"client_id", client}, {"segments", ids}});
  segments["cs"] = snap.segments.has_client_segments ? cs : Json(nullptr);
  Json ld = Json::array();
  for (const auto& c : snap.segments.local_disk) {
    Json tasks = Json::array();
    for (const auto& t : c.tasks) {
      Json tj;
      put_bytes(tj, "encoded_key", t.encoded_key);
      put_bytes(tj, "tenant_id", t.tenant_id);
      put_bytes(tj, "key", t.key);
      tj["size"] = t.size;
      tj["legacy_integer_form"] = t.legacy_integer_form;
      tasks.push_back(std::move(tj));
    }
    ld.push_back({{"client_id", c.client_id},
                  {"enable_offloading", c.enable_offloading},
                  {"tasks", std::move(tasks)},
                  {"total_capacity_bytes", c.total_capacity_bytes ? Json(*c.total_capacity_bytes) : Json(nullptr)}});
  }
  segments["ld"] = snap.segments.has_local_disk ? ld : Json(nullptr);
  Json discarded = Json::array();
  for (const auto& d : snap.metadata.discarded) discarded.push_back(discarded_json(d));
  Json tasks = Json::array();
  for (const auto& t : snap.tasks) tasks.push_back(task_json(t));
  if (format == OutputFormat::ndjson) {
    out << dump_inspect_json(Json{{"record", "snapshot"}, {"value", head}}, -1) << "\n";
    out << dump_inspect_json(Json{{"record", "segments"}, {"value", segments}}, -1) << "\n";
    out << dump_inspect_json(Json{{"record", "replica_next_id"}, {"value", snap.metadata.replica_next_id}}, -1) << "\n";
    for (const auto& d : discarded) out << dump_inspect_json(Json{{"record", "discarded"}, {"value", d}}, -1) << "\n";
    for (const auto& t : tasks) out << dump_inspect_json(Json{{"record", "task"}, {"value", t}}, -1) << "\n";
    return;
  }
  head["segments"] = std::move(segments);
  head["replica_next_id"] = snap.metadata.replica_next_id;
  head["discarded_replicas"] = std::move(discarded);
  head["tasks"] = std::move(tasks);
  std::string text = dump_inspect_json(head, -1);
  text.pop_back();
  out << text << ",\"objects\":[\n";
}

void write_dump_object(const inspect::ListedObject& o, OutputFormat format, bool first, std::ostream& out) {
  if (format == OutputFormat::ndjson) {
    out << dump_inspect_json(Json{{"record", "object"}, {"value", listed_object_json(o)}}, -1) << "\n";
    return;
  }
  if (!first) out << ",\n";
  out << dump_inspect_json(listed_object_json(o), -1);
}

void end_dump(const inspect::ListingResult& result, OutputFormat format, std::ostream& out) {
  if (format == OutputFormat::ndjson) {
    out << dump_inspect_json(
               Json{{"record", "end"}, {"value", {{"objects", result.listed}, {"metadata_checked", true}}}}, -1)
        << "\n";
    return;
  }
  // Reaching the end means every metadata shard decoded (a shard the master rejects is exit 3).
  out << (result.listed > 0 ? "\n" : "") << "],\"object_count\":" << result.listed << ",\"metadata_checked\":true}\n";
}

}  // namespace moonquota::report
