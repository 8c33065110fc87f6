// Scenario documents: top level, snapshots, segments, tasks and local-disk clients. Objects and
// replicas are in scenario_objects.cpp.
#include "forge/scenario.hpp"

#include <algorithm>
#include <ctime>
#include <set>

#include "forge/scenario_build.hpp"
#include "util/file_reader.hpp"
#include "util/hashing.hpp"
#include "util/uuid.hpp"

namespace moonquota::forge {

namespace {

using detail::check_uuid;
using detail::SegmentSlot;
using detail::SnapshotBuild;

// created_at_ms when the scenario gives none: the id read as a UTC time.
std::int64_t id_as_utc_ms(const std::string& id) {
  std::tm tm{};
  auto num = [&](std::size_t at, std::size_t len) { return std::stoi(id.substr(at, len)); };
  tm.tm_year = num(0, 4) - 1900;
  tm.tm_mon = num(4, 2) - 1;
  tm.tm_mday = num(6, 2);
  tm.tm_hour = num(9, 2);
  tm.tm_min = num(11, 2);
  tm.tm_sec = num(13, 2);
  return static_cast<std::int64_t>(timegm(&tm)) * 1000 + num(16, 3);
}

util::Status parse_segment(const JsonAt& at, SnapshotBuild& build) {
  MQ_RETURN_IF_ERROR(at.expect_object(
      {"id", "name", "base", "size", "endpoint", "status", "client", "host_id", "allocator", "map_key"}));
  SegmentSlot slot;
  model::MountedSegment& s = slot.segment;
  MQ_ASSIGN_OR_RETURN(s.id, at.get_string("id"));
  MQ_RETURN_IF_ERROR(check_uuid(at, "id", s.id));
  for (const SegmentSlot& other : build.segments) {
    if (other.segment.id == s.id) return at.error("duplicate segment id '" + s.id + "'");
  }
  MQ_ASSIGN_OR_RETURN(s.map_key, at.get_string("map_key", s.id));
  MQ_ASSIGN_OR_RETURN(s.name, at.get_string("name"));
  MQ_ASSIGN_OR_RETURN(s.base, at.get_u64("base"));
  MQ_ASSIGN_OR_RETURN(s.size, at.get_u64("size"));
  MQ_ASSIGN_OR_RETURN(s.te_endpoint, at.get_string("endpoint", s.name));
  MQ_ASSIGN_OR_RETURN(std::int64_t status,
                      at.get_enum("status", model::segment_status::k_table, INT16_MIN, INT16_MAX, 1));
  s.status = static_cast<std::int16_t>(status);
  MQ_ASSIGN_OR_RETURN(std::string host_id, at.get_string("host_id", ""));
  s.host_id = host_id;
  MQ_ASSIGN_OR_RETURN(slot.client_id, at.get_string("client"));
  MQ_RETURN_IF_ERROR(check_uuid(at, "client", slot.client_id));
  MQ_ASSIGN_OR_RETURN(s.has_allocator, at.get_bool("allocator", true));
  if (s.has_allocator) {
    auto sim = forge::OffsetAllocatorSimulation::create(s.base, s.size);
    if (!sim.ok()) return at.error(sim.status().message());
    slot.allocator = std::move(sim).value();
  }
  build.segments.push_back(std::move(slot));
  return util::Status::ok_status();
}

// Allocator states, "an" and "cs" once every replica is placed and every removal freed.
util::Status finish_segments(const JsonAt& snapshot, SnapshotBuild& build, model::SegmentsPayload& out) {
  for (const detail::PendingFree& f : build.pending_frees) {
    MQ_RETURN_IF_ERROR(build.segments[f.segment_slot].allocator->free(f.allocation));
  }
  std::vector<std::string> client_order;
  for (SegmentSlot& slot : build.segments) {
    model::MountedSegment s = slot.segment;
    if (slot.allocator) {
      model::BufferAllocatorState a;
      a.segment_name = s.name;
      a.base = s.base;
      a.total_size = s.size;
      a.cur_size = slot.allocator->allocated_bytes();
      a.transport_endpoint = s.te_endpoint;
      a.offset = slot.allocator->export_state();
      s.allocator = std::move(a);
    }
    auto client = std::find_if(out.client_segments.begin(), out.client_segments.end(),
                               [&](const auto& c) { return c.first == slot.client_id; });
    if (client == out.client_segments.end()) {
      out.client_segments.push_back({slot.client_id, {}});
      client = std::prev(out.client_segments.end());
    }
    client->second.push_back(s.id);
    out.mounted.push_back(std::move(s));
  }
  if (auto names = snapshot.member("allocator_names")) {
    if (!names->value().is_array()) return names->error("expected an array of segment names");
    for (const auto& n : names->value()) {
      if (!n.is_string()) return names->error("expected an array of segment names");
      out.allocator_names.push_back(n.get<std::string>());
    }
  } else {
    std::set<std::string> seen;
    for (const model::MountedSegment& s : out.mounted) {
      if (s.status == model::segment_status::ok && s.has_allocator && seen.insert(s.name).second) {
        out.allocator_names.push_back(s.name);
      }
    }
  }
  return util::Status::ok_status();
}

util::Status parse_local_disk(const JsonAt& snapshot, model::SegmentsPayload& out) {
  MQ_ASSIGN_OR_RETURN(auto clients, snapshot.array_member("local_disk_clients"));
  for (const JsonAt& at : clients) {
    MQ_RETURN_IF_ERROR(at.expect_object({"client", "enable_offloading", "total_capacity_bytes", "tasks"}));
    model::LocalDiskClient c;
    MQ_ASSIGN_OR_RETURN(c.client_id, at.get_string("client"));
    MQ_RETURN_IF_ERROR(check_uuid(at, "client", c.client_id));
    MQ_ASSIGN_OR_RETURN(c.enable_offloading, at.get_bool("enable_offloading", true));
    MQ_ASSIGN_OR_RETURN(std::int64_t capacity, at.get_i64("total_capacity_bytes", 0));
    c.total_capacity_bytes = capacity;
    MQ_ASSIGN_OR_RETURN(auto tasks, at.array_member("tasks"));
    for (const JsonAt& t_at : tasks) {
      MQ_RETURN_IF_ERROR(t_at.expect_object({"tenant", "key", "size", "legacy_integer_form"}));
      model::LocalDiskTask t;
      MQ_ASSIGN_OR_RETURN(t.tenant_id, t_at.get_string("tenant", "default"));
      MQ_ASSIGN_OR_RETURN(t.key, t_at.get_string("key"));
      MQ_ASSIGN_OR_RETURN(t.size, t_at.get_i64("size"));
      MQ_ASSIGN_OR_RETURN(t.legacy_integer_form, t_at.get_bool("legacy_integer_form", false));
      t.encoded_key = t.tenant_id + std::string(1, '\0') + t.key;
      c.tasks.push_back(std::move(t));
    }
    out.local_disk.push_back(std::move(c));
  }
  return util::Status::ok_status();
}

util::Status parse_tasks(const JsonAt& snapshot, std::vector<model::TaskRecord>& out) {
  MQ_ASSIGN_OR_RETURN(auto tasks, snapshot.array_member("tasks"));
  for (const JsonAt& at : tasks) {
    MQ_RETURN_IF_ERROR(at.expect_object(
        {"id", "type", "status", "payload", "created_at_ms", "last_updated_at_ms", "message", "assigned_client"}));
    model::TaskRecord t;
    MQ_ASSIGN_OR_RETURN(t.id, at.get_string("id"));
    MQ_RETURN_IF_ERROR(check_uuid(at, "id", t.id));
    MQ_ASSIGN_OR_RETURN(std::int64_t type, at.get_enum("type", model::task_type::k_table, INT32_MIN, INT32_MAX));
    MQ_ASSIGN_OR_RETURN(std::int64_t status, at.get_enum("status", model::task_status::k_table, INT32_MIN, INT32_MAX));
    t.type = static_cast<std::int32_t>(type);
    t.status = static_cast<std::int32_t>(status);
    if (auto payload = at.member("payload")) {
      // A JSON object is stored compact (struct_json style); a string is stored verbatim.
      t.payload = payload->value().is_string() ? payload->value().get<std::string>() : payload->value().dump();
    }
    MQ_ASSIGN_OR_RETURN(t.created_at_ms, at.get_i64("created_at_ms", 0));
    MQ_ASSIGN_OR_RETURN(t.last_updated_at_ms, at.get_i64("last_updated_at_ms", t.created_at_ms));
    MQ_ASSIGN_OR_RETURN(t.message, at.get_string("message", ""));
    MQ_ASSIGN_OR_RETURN(t.assigned_client, at.get_string("assigned_client"));
    out.push_back(std::move(t));
  }
  return util::Status::ok_status();
}

util::Result<ForgedSnapshot> parse_snapshot(const JsonAt& at, const std::string& cluster_id,
                                            const std::string& root_fs_dir) {
  MQ_RETURN_IF_ERROR(
      at.expect_object({"id", "latest", "published", "descriptor", "manifest", "segments", "allocator_names", "objects",
                        "discarded_replicas", "replica_next_id", "tasks", "local_disk_clients", "root_fs_dir"}));
  ForgedSnapshot snap;
  MQ_ASSIGN_OR_RETURN(snap.id, at.get_string("id"));
  if (!is_valid_snapshot_id(snap.id)) return at.error("'id' must look like YYYYMMDD_HHMMSS_mmm, got '" + snap.id + "'");
  MQ_ASSIGN_OR_RETURN(snap.latest, at.get_bool("latest", false));
  MQ_ASSIGN_OR_RETURN(snap.published, at.get_bool("published", true));
  if (auto manifest = at.member("manifest")) {
    MQ_ASSIGN_OR_RETURN(std::string text, at.get_string("manifest"));
    if (text.empty()) return manifest->error("an empty manifest cannot be uploaded");
    snap.manifest_text = text;
  }
  const std::int64_t default_created = id_as_utc_ms(snap.id);
  if (auto d = at.member("descriptor")) {
    MQ_RETURN_IF_ERROR(d->expect_object({"last_included_seq", "producer_view_version", "created_at_ms"}));
    MQ_ASSIGN_OR_RETURN(snap.descriptor.last_included_seq, d->get_u64("last_included_seq", 0));
    MQ_ASSIGN_OR_RETURN(snap.descriptor.producer_view_version, d->get_i64("producer_view_version", 0));
    MQ_ASSIGN_OR_RETURN(snap.descriptor.created_at_ms, d->get_i64("created_at_ms", default_created));
  } else {
    snap.descriptor.created_at_ms = default_created;
  }
  SnapshotBuild build;
  build.cluster_id = cluster_id;
  MQ_ASSIGN_OR_RETURN(build.root_fs_dir, at.get_string("root_fs_dir", root_fs_dir));
  build.default_put_start_time_ms =
      static_cast<std::uint64_t>(std::max<std::int64_t>(0, snap.descriptor.created_at_ms));
  MQ_ASSIGN_OR_RETURN(auto segments, at.array_member("segments"));
  for (const JsonAt& s : segments) MQ_RETURN_IF_ERROR(parse_segment(s, build));
  MQ_RETURN_IF_ERROR(detail::parse_objects(at, build, snap.metadata));
  MQ_RETURN_IF_ERROR(detail::parse_discarded(at, build, snap.metadata));
  MQ_ASSIGN_OR_RETURN(snap.metadata.replica_next_id, at.get_u64("replica_next_id", build.max_replica_id + 1));
  MQ_RETURN_IF_ERROR(finish_segments(at, build, snap.segments));
  MQ_RETURN_IF_ERROR(parse_local_disk(at, snap.segments));
  MQ_RETURN_IF_ERROR(parse_tasks(at, snap.tasks));
  return snap;
}

}  // namespace

bool is_valid_snapshot_id(std::string_view id) {
  if (id.size() != 19) return false;
  for (std::size_t i = 0; i < id.size(); ++i) {
    const bool separator = (i == 8 || i == 15);
    if (separator ? id[i] != '_' : (id[i] < '0' || id[i] > '9')) return false;
  }
  return true;
}

std::string master_disk_path(std::string_view root_fs_dir, std::string_view cluster_id, std::string_view key) {
  const std::uint64_t h = util::libstdcxx_string_hash(key);
  std::string sanitised(key);
  for (char& c : sanitised) {
    if (c == '/' || c == '\\' || c == ':' || c == '*' || c == '?' || c == '"' || c == '<' || c == '>' || c == '|' ||
        c == '\0') {
      c = '_';
    }
  }
  std::string path(root_fs_dir);
  path += '/';
  path += cluster_id;
  path += '/';
  path += static_cast<char>('a' + (h & 15));
  path += '/';
  path += static_cast<char>('a' + ((h >> 4) & 15));
  path += '/';
  path += sanitised;
  return path;
}

util::Result<Scenario> parse_scenario(std::string_view json_text) {
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(json_text);
  } catch (const nlohmann::json::parse_error& e) {
    // e.byte: 1-based index of the byte where parsing failed (past the end for a truncated text).
    const std::size_t at = std::min<std::size_t>(e.byte == 0 ? 0 : e.byte - 1, json_text.size());
    std::size_t line = 1, column = 1;
    for (std::size_t i = 0; i < at; ++i) {
      if (json_text[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    std::string reason = e.what();  // "[json.exception.parse_error.101] parse error at line L, column C: why"
    const std::size_t colon = reason.find(": ", reason.find("parse error"));
    if (colon != std::string::npos) reason = reason.substr(colon + 2);
    return util::Status::corruption("line " + std::to_string(line) + " column " + std::to_string(column) +
                                    " (byte offset " + std::to_string(at) + "): not valid JSON: " + reason);
  }
  const JsonAt root(doc, "$");
  MQ_RETURN_IF_ERROR(root.expect_object({"cluster_id", "root_fs_dir", "snapshots", "comment", "oplog"}));
  Scenario scenario;
  MQ_ASSIGN_OR_RETURN(scenario.cluster_id, root.get_string("cluster_id", "mooncake_cluster"));
  MQ_ASSIGN_OR_RETURN(std::string root_fs_dir, root.get_string("root_fs_dir", "/mnt/mooncake_fs"));
  MQ_ASSIGN_OR_RETURN(auto snapshots, root.array_member("snapshots"));
  if (snapshots.empty()) return root.error("'snapshots' must list at least one snapshot");
  std::set<std::string> ids;
  int latest_count = 0;
  for (const JsonAt& s : snapshots) {
    MQ_ASSIGN_OR_RETURN(ForgedSnapshot snap, parse_snapshot(s, scenario.cluster_id, root_fs_dir));
    if (!ids.insert(snap.id).second) return s.error("duplicate snapshot id '" + snap.id + "'");
    if (snap.latest) ++latest_count;
    scenario.snapshots.push_back(std::move(snap));
  }
  if (latest_count > 1) return root.error("more than one snapshot has \"latest\": true");
  return scenario;
}

util::Result<std::string> read_scenario_text(const std::string& path) {
  util::FileReader file;
  if (util::Status opened = file.open(path); !opened.ok()) {
    return util::Status::io_error("scenario: " + opened.message());
  }
  if (file.size() > k_max_scenario_bytes) {
    return util::Status::limit_exceeded("scenario '" + path + "' is " + std::to_string(file.size()) +
                                        " bytes, more than our limit of " + std::to_string(k_max_scenario_bytes >> 20) +
                                        " MiB (forge a large store with --large N)");
  }
  std::string text;
  if (util::Status read = file.read_exact(file.size(), &text); !read.ok()) {
    return util::Status::io_error("scenario: " + read.message());
  }
  return text;
}

util::Result<Scenario> parse_scenario_file(std::string_view json_text, const std::string& path) {
  auto scenario = parse_scenario(json_text);
  if (!scenario.ok()) return scenario.status().with_context(path);
  return scenario;
}

util::Result<Scenario> load_scenario(const std::string& path) {
  MQ_ASSIGN_OR_RETURN(std::string text, read_scenario_text(path));
  return parse_scenario_file(text, path);
}

}  // namespace moonquota::forge
