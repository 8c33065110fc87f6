#include "report/inspect/inspect_json.hpp"

#include <algorithm>
#include <limits>

#include "util/text_encoding.hpp"
#include "util/time_text.hpp"

namespace moonquota::report {

void put_bytes(Json& j, const std::string& field, std::string_view bytes) {
  j[field] = std::string(bytes);
  if (!util::is_valid_utf8(bytes)) j[field + "_hex"] = util::to_hex(bytes);
}

std::uint64_t saturate(util::u128 value) { return util::saturated_u64(value); }

Json replica_json(const model::Replica& r) {
  Json j;
  j["id"] = r.id;
  j["status"] = r.status;
  j["status_name"] = model::replica_status::name(r.status);
  j["type"] = r.type;
  j["type_name"] = model::replica_type::name(r.type);
  switch (r.type) {
    case model::replica_type::memory: {
      Json m;
      m["size"] = r.memory.size;
      m["buffer_address"] = r.memory.buffer_address;
      put_bytes(m, "segment_id", r.memory.segment_id);
      m["has_offset_handle"] = r.memory.has_offset_handle;
      if (r.memory.has_offset_handle) {
        m["offset_handle"] = {{"real_base", r.memory.handle.real_base},
                              {"requested_size", r.memory.handle.requested_size},
                              {"offset", r.memory.handle.offset},
                              {"node_index", r.memory.handle.node_index}};
      }
      j["memory"] = std::move(m);
      break;
    }
    case model::replica_type::local_disk:
      put_bytes(j, "client_id", r.client_id);
      j["object_size"] = r.object_size;
      put_bytes(j, "transport_endpoint", r.transport_endpoint);
      break;
    case model::replica_type::dfs:
      put_bytes(j, "file_path", r.file_path);
      j["offset"] = r.dfs_offset;
      j["object_size"] = r.object_size;
      j["aligned_size"] = r.dfs_aligned_size;
      j["shard_idx"] = r.dfs_shard_idx;
      break;
    default:
      put_bytes(j, "file_path", r.file_path);
      j["object_size"] = r.object_size;
      break;
  }
  return j;
}

Json object_record_json(const model::ObjectRecord& o) {
  Json j;
  put_bytes(j, "tenant_id", o.tenant_id);
  put_bytes(j, "key", o.key);
  put_bytes(j, "client_id", o.client_id);
  j["put_start_time_ms"] = o.put_start_time_ms;
  j["size"] = o.size;
  j["lease_timeout_ms"] = o.lease_timeout_ms;
  j["data_type"] = o.data_type;
  Json replicas = Json::array();
  for (const auto& r : o.replicas) replicas.push_back(replica_json(r));
  j["replicas"] = std::move(replicas);
  j["hard_pinned"] = o.hard_pinned;
  put_bytes(j, "group_id", o.group_id);
  j["checksum"] = o.checksum ? Json(*o.checksum) : Json(nullptr);
  j["layout_version"] = o.layout_version;
  j["legacy_entry"] = o.legacy_entry;
  return j;
}

Json descriptor_json(const std::optional<model::SnapshotDescriptor>& d) {
  if (!d) return nullptr;
  return {{"last_included_seq", d->last_included_seq},
          {"producer_view_version", d->producer_view_version},
          {"created_at_ms", d->created_at_ms}};
}

Json files_json(const restore::ScannedSnapshot& snap) {
  Json files = Json::array();
  for (const auto& f : snap.files) {
    Json j = {{"name", f.name}, {"present", f.present}};
    if (f.etag) j["etag"] = *f.etag;  // object stores only (never last, so a local report keeps its bytes)
    j["bytes"] = f.bytes;
    // Known only when the shards were decompressed (not by segments, tasks, objects and dump headers).
    if (f.name == "metadata" && (snap.metadata.decompressed_shard_bytes > 0 || snap.metadata.shard_entries == 0)) {
      j["decompressed_shard_bytes"] = snap.metadata.decompressed_shard_bytes;
    }
    if (f.name == "segments") j["raw_bytes"] = snap.segments_raw_bytes;
    if (f.name == "task_manager") j["raw_bytes"] = snap.task_manager_raw_bytes;
    files.push_back(std::move(j));
  }
  return files;
}

Json segment_json(const model::MountedSegment& s, bool full) {
  Json j;
  put_bytes(j, "id", s.map_key);
  if (s.id != s.map_key) put_bytes(j, "element0_id", s.id);
  put_bytes(j, "name", s.name);
  j["base"] = s.base;
  j["size"] = s.size;
  put_bytes(j, "te_endpoint", s.te_endpoint);
  j["status"] = s.status;
  j["status_name"] = model::segment_status::name(s.status);
  j["has_allocator"] = s.has_allocator;
  j["host_id"] = s.host_id ? Json(*s.host_id) : Json(nullptr);
  if (s.allocator) {
    const auto& a = *s.allocator;
    Json alloc = {{"segment_name", a.segment_name},
                  {"base", a.base},
                  {"total_size", a.total_size},
                  {"cur_size", a.cur_size},
                  {"transport_endpoint", a.transport_endpoint}};
    const auto& o = a.offset;
    Json offset = {{"base", o.base},
                   {"multiplier_bits", o.multiplier_bits},
                   {"capacity", o.capacity},
                   {"allocated_size", o.allocated_size},
                   {"allocated_num", o.allocated_num}};
    const auto& c = o.core;
    Json core = {{"size", c.size},
                 {"current_capacity", c.current_capacity},
                 {"max_capacity", c.max_capacity},
                 {"free_storage", c.free_storage},
                 {"used_bins_top", c.used_bins_top},
                 {"free_offset", c.free_offset}};
    if (full) {
      core["used_bins"] = c.used_bins;
      core["bin_indices"] = c.bin_indices;
      core["nodes_hex"] = util::to_hex(c.nodes);
      core["free_nodes_hex"] = util::to_hex(c.free_nodes);
    }
    offset["allocator"] = std::move(core);
    alloc["offset_allocator"] = std::move(offset);
    j["allocator"] = std::move(alloc);
  }
  return j;
}

Json task_json(const model::TaskRecord& t) {
  Json j;
  put_bytes(j, "id", t.id);
  j["type"] = t.type;
  j["status"] = t.status;
  put_bytes(j, "payload", t.payload);
  j["created_at_ms"] = t.created_at_ms;
  j["last_updated_at_ms"] = t.last_updated_at_ms;
  put_bytes(j, "message", t.message);
  put_bytes(j, "assigned_client", t.assigned_client);
  return j;
}

Json discarded_json(const model::DiscardedItem& item) {
  Json replicas = Json::array();
  for (const auto& r : item.replicas) replicas.push_back(replica_json(r));
  return {{"ttl_ms", item.ttl_ms}, {"mem_size", item.mem_size}, {"replicas", std::move(replicas)}};
}

Json drops_json(const restore::DropCounts& d) {
  return {{"non_complete", d.non_complete}, {"lease_expired", d.lease_expired}, {"undecodable", d.undecodable}};
}

Json source_json(const inspect::SelectedSnapshot& sel, const restore::ScannedSnapshot& snap) {
  Json j;
  j["snapshot_id"] = sel.snapshot_id;
  put_bytes(j, "snapshot_dir", sel.snapshot_dir);
  j["chosen_as"] = sel.from_catalog_latest ? "latest" : "explicit";
  j["candidates"] = sel.candidates;
  j["descriptor"] = descriptor_json(snap.descriptor);
  put_bytes(j, "manifest", snap.manifest);
  return j;
}

Json snapshot_age_json(const InspectContext& ctx, const restore::ScannedSnapshot& snap) {
  if (!snap.descriptor) return nullptr;
  const std::int64_t created = snap.descriptor->created_at_ms;
  return {{"id", ctx.selected.snapshot_id},
          {"created_at_ms", created},
          {"created_at", util::utc_iso8601(created)},
          {"age_at_restore_ms", util::span_ms(restore_time_as_i64(ctx.restore_time_ms), created)}};
}

std::int64_t restore_time_as_i64(std::uint64_t restore_time_ms) {
  constexpr auto k_max = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  return static_cast<std::int64_t>(std::min(restore_time_ms, k_max));
}

Json header_json(const InspectContext& ctx, const restore::ScannedSnapshot& snap, const char* schema) {
  Json j;
  j["schema"] = schema;
  j["source"] = source_json(ctx.selected, snap);
  j["restore_time_ms"] = ctx.restore_time_ms;
  j["snapshot"] = snapshot_age_json(ctx, snap);
  j["master"] = ctx.verdict_applies ? master_json(ctx.verdict) : Json(nullptr);
  return j;
}

Json master_json(const inspect::MasterVerdict& v) {
  Json j;
  // null: not checked (no rejection so far, but the metadata shards were not decoded yet)
  j["restores_inspected"] = v.restores_inspected && !v.metadata_checked ? Json(nullptr) : Json(v.restores_inspected);
  if (!v.metadata_checked) j["metadata_checked"] = false;
  j["rejection"] = v.rejection.empty() ? Json(nullptr) : Json(v.rejection);
  Json fallback = Json::array();
  for (const auto& a : v.fallback) {
    Json c = {{"snapshot_id", a.snapshot_id}, {"restored", a.restored}};
    if (!a.restored) c["reason"] = a.reason;
    fallback.push_back(std::move(c));
  }
  j["fallback"] = std::move(fallback);
  const bool unknown = v.restores_inspected && !v.metadata_checked;
  j["restored_snapshot_id"] = v.restored_id && !unknown ? Json(*v.restored_id) : Json(nullptr);
  j["starts_empty"] = unknown ? Json(nullptr) : Json(!v.restored_id.has_value());
  return j;
}

Json finding_counts_json(const model::Findings& findings) {
  std::uint64_t counts[3] = {0, 0, 0};
  for (const auto& f : findings) ++counts[static_cast<int>(f.severity)];
  return {{"errors", counts[2]}, {"warnings", counts[1]}, {"info", counts[0]}};
}

std::string dump_inspect_json(const Json& j, int indent) {
  return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}

void write_inspect_json(const Json& j, std::ostream& out) { out << dump_inspect_json(j, 2) << "\n"; }

}  // namespace moonquota::report
