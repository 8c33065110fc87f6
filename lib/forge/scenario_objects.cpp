// Objects, replicas and discarded replicas of a scenario snapshot (docs/formats/forge-scenario.md).
#include <algorithm>

#include "forge/scenario.hpp"
#include "forge/scenario_build.hpp"
#include "util/uuid.hpp"

namespace moonquota::forge::detail {

namespace {

constexpr std::uint64_t k_future_lease_ms = 4102444800000ULL;  // 2100-01-01T00:00:00Z

util::Result<std::size_t> find_segment(const JsonAt& at, const SnapshotBuild& build, const std::string& id) {
  for (std::size_t i = 0; i < build.segments.size(); ++i) {
    if (build.segments[i].segment.id == id) return i;
  }
  return at.error("MEMORY replica names unknown segment '" + id + "'");
}

util::Status fill_memory(const JsonAt& at, SnapshotBuild& build, std::uint64_t buffer_size, model::Replica& r,
                         std::optional<PendingFree>& placed) {
  MQ_ASSIGN_OR_RETURN(std::string segment_id, at.get_string("segment"));
  MQ_ASSIGN_OR_RETURN(std::size_t slot, find_segment(at, build, segment_id));
  SegmentSlot& seg = build.segments[slot];
  if (!seg.allocator) return at.error("segment '" + segment_id + "' has no allocator (\"allocator\": false)");
  auto allocation = seg.allocator->allocate(buffer_size);
  if (!allocation.ok()) return at.error(allocation.status().message());
  r.memory.size = buffer_size;
  r.memory.buffer_address = allocation->address;
  r.memory.segment_id = segment_id;
  r.memory.has_offset_handle = true;
  r.memory.handle = {allocation->address, buffer_size, allocation->offset, allocation->node_index};
  placed = PendingFree{slot, *allocation};
  return util::Status::ok_status();
}

// One replica of an object (or of a discarded item, where `object_size` is the replica's own).
util::Result<model::Replica> parse_replica(const JsonAt& at, SnapshotBuild& build, std::uint64_t object_size,
                                           const std::string& key, std::optional<PendingFree>& placed) {
  MQ_RETURN_IF_ERROR(at.expect_object({"type", "status", "id", "segment", "size", "path", "client", "endpoint"}));
  model::Replica r;
  MQ_ASSIGN_OR_RETURN(std::int64_t type, at.get_enum("type", model::replica_type::k_table, 0, 2));
  MQ_ASSIGN_OR_RETURN(std::int64_t status,
                      at.get_enum("status", model::replica_status::k_table, INT16_MIN, INT16_MAX, 3));
  MQ_ASSIGN_OR_RETURN(r.id, at.get_u64("id", build.max_replica_id + 1));
  if (r.id == 0) return at.error("replica id 0 is never assigned by the master");
  build.max_replica_id = std::max(build.max_replica_id, r.id);
  r.type = static_cast<std::int8_t>(type);
  r.status = static_cast<std::int16_t>(status);
  MQ_ASSIGN_OR_RETURN(std::uint64_t size, at.get_u64("size", object_size));
  switch (r.type) {
    case model::replica_type::memory:
      if (size == 0) return at.error("a MEMORY replica needs a size > 0");
      MQ_RETURN_IF_ERROR(fill_memory(at, build, size, r, placed));
      break;
    case model::replica_type::disk: {
      MQ_ASSIGN_OR_RETURN(r.file_path,
                          at.get_string("path", master_disk_path(build.root_fs_dir, build.cluster_id, key)));
      r.object_size = size;
      break;
    }
    default: {
      MQ_ASSIGN_OR_RETURN(r.client_id, at.get_string("client"));
      MQ_RETURN_IF_ERROR(check_uuid(at, "client", r.client_id));
      MQ_ASSIGN_OR_RETURN(r.transport_endpoint, at.get_string("endpoint", ""));
      r.object_size = size;
      break;
    }
  }
  return r;
}

util::Result<model::ObjectRecord> parse_object(const JsonAt& at, SnapshotBuild& build, bool& removed,
                                               std::optional<std::uint32_t>& forced_shard) {
  MQ_RETURN_IF_ERROR(
      at.expect_object({"tenant", "key", "size", "client_id", "put_start_time_ms", "lease_timeout_ms", "data_type",
                        "hard_pinned", "group_id", "checksum", "replicas", "removed", "shard"}));
  model::ObjectRecord o;
  MQ_ASSIGN_OR_RETURN(o.tenant_id, at.get_string("tenant", "default"));
  if (o.tenant_id.empty()) return at.error("tenant \"\" is written as \"default\" by the master; use \"default\"");
  MQ_ASSIGN_OR_RETURN(o.key, at.get_string("key"));
  MQ_ASSIGN_OR_RETURN(o.size, at.get_u64("size"));
  MQ_ASSIGN_OR_RETURN(o.client_id, at.get_string("client_id"));
  MQ_ASSIGN_OR_RETURN(o.put_start_time_ms, at.get_u64("put_start_time_ms", build.default_put_start_time_ms));
  MQ_ASSIGN_OR_RETURN(o.lease_timeout_ms, at.get_u64("lease_timeout_ms", k_future_lease_ms));
  MQ_ASSIGN_OR_RETURN(std::int64_t data_type, at.get_enum("data_type", model::data_type::k_table, 0, 255, 0));
  o.data_type = static_cast<std::uint8_t>(data_type);
  MQ_ASSIGN_OR_RETURN(o.hard_pinned, at.get_bool("hard_pinned", false));
  MQ_ASSIGN_OR_RETURN(o.group_id, at.get_string("group_id", ""));
  if (at.member("checksum")) {
    MQ_ASSIGN_OR_RETURN(std::uint64_t checksum, at.get_u64("checksum"));
    o.checksum = checksum;
  }
  MQ_ASSIGN_OR_RETURN(removed, at.get_bool("removed", false));
  if (at.member("shard")) {
    MQ_ASSIGN_OR_RETURN(std::uint64_t shard, at.get_u64("shard"));
    if (shard >= 1024) return at.error("'shard' must be < 1024");
    forced_shard = static_cast<std::uint32_t>(shard);
  }
  MQ_ASSIGN_OR_RETURN(auto replicas, at.array_member("replicas"));
  for (const JsonAt& replica_at : replicas) {
    std::optional<PendingFree> placed;
    MQ_ASSIGN_OR_RETURN(model::Replica r, parse_replica(replica_at, build, o.size, o.key, placed));
    if (removed && placed) build.pending_frees.push_back(*placed);
    o.replicas.push_back(std::move(r));
  }
  return o;
}

}  // namespace

util::Status check_uuid(const JsonAt& at, const std::string& field, const std::string& text) {
  if (!util::is_canonical_uuid(text)) {
    return at.error("'" + field + "' must be a canonical UUID \"<u64>-<u64>\", got '" + text + "'");
  }
  return util::Status::ok_status();
}

util::Status parse_objects(const JsonAt& snapshot, SnapshotBuild& build, format::MetadataContent& content) {
  MQ_ASSIGN_OR_RETURN(auto objects, snapshot.array_member("objects"));
  std::vector<std::optional<std::uint32_t>> forced;
  for (const JsonAt& object_at : objects) {
    bool removed = false;
    std::optional<std::uint32_t> shard;
    MQ_ASSIGN_OR_RETURN(model::ObjectRecord o, parse_object(object_at, build, removed, shard));
    if (removed) continue;  // allocated (history), freed later, never written
    content.objects.push_back(std::move(o));
    forced.push_back(shard);
  }
  const bool any_forced = std::any_of(forced.begin(), forced.end(), [](const auto& s) { return s.has_value(); });
  if (any_forced) {
    for (std::size_t i = 0; i < forced.size(); ++i) {
      content.shards.push_back(forced[i].value_or(format::expected_shard_index(content.objects[i])));
    }
  }
  return util::Status::ok_status();
}

util::Status parse_discarded(const JsonAt& snapshot, SnapshotBuild& build, format::MetadataContent& content) {
  MQ_ASSIGN_OR_RETURN(auto items, snapshot.array_member("discarded_replicas"));
  for (const JsonAt& item_at : items) {
    MQ_RETURN_IF_ERROR(item_at.expect_object({"ttl_ms", "mem_size", "size", "key", "replicas"}));
    model::DiscardedItem item;
    MQ_ASSIGN_OR_RETURN(item.ttl_ms, item_at.get_i64("ttl_ms"));
    MQ_ASSIGN_OR_RETURN(std::uint64_t size, item_at.get_u64("size", 0));
    MQ_ASSIGN_OR_RETURN(std::string key, item_at.get_string("key", ""));
    MQ_ASSIGN_OR_RETURN(auto replicas, item_at.array_member("replicas"));
    std::uint64_t memory_bytes = 0;
    for (const JsonAt& replica_at : replicas) {
      std::optional<PendingFree> placed;
      MQ_ASSIGN_OR_RETURN(model::Replica r, parse_replica(replica_at, build, size, key, placed));
      if (r.type == model::replica_type::memory) memory_bytes += r.memory.size;
      item.replicas.push_back(std::move(r));
    }
    MQ_ASSIGN_OR_RETURN(item.mem_size, item_at.get_u64("mem_size", memory_bytes));
    content.discarded.push_back(std::move(item));
  }
  return util::Status::ok_status();
}

}  // namespace moonquota::forge::detail
