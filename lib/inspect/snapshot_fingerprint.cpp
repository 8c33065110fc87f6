#include "inspect/snapshot_fingerprint.hpp"

#include <xxhash.h>

#include <array>
#include <cstdio>
#include <set>

#include "inspect/msgpack_shape.hpp"
#include "model/enums.hpp"
#include "util/byte_buffer.hpp"
#include "util/zstd_codec.hpp"
#include "util/zstd_file.hpp"

namespace moonquota::inspect {

namespace {

using util::Status;

constexpr std::array<const char*, 5> k_snapshot_files = {"metadata", "segments", "task_manager", "manifest.txt",
                                                         "descriptor.txt"};
constexpr std::uint64_t k_small_file_bytes = 1 << 20;

// Per worker: the shape of every shard it decodes.
class ShardShapeAnalyzer : public restore::ShardAnalyzer {
 public:
  void begin_shard(const restore::ShardContext& shard) override {
    add_shard_shape(shard.decompressed, shard.shard_index, m_shape, shard.sequence);
  }
  void on_entry(const format::ShardEntry& /*entry*/) override {}
  [[nodiscard]] const SnapshotShape& shape() const { return m_shape; }

 private:
  SnapshotShape m_shape;
};

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t at = text.find(separator); at != std::string::npos; at = text.find(separator, start)) {
    parts.push_back(text.substr(start, at - start));
    start = at + 1;
  }
  parts.push_back(text.substr(start));
  return parts;
}

void add_manifest(const std::string& manifest, SnapshotShape& shape) {
  const auto parts = split(manifest, '|');
  shape.add("manifest", "serializer: " + parts[0], "manifest.txt");
  shape.add("manifest", parts.size() > 1 ? "version: " + parts[1] : "version: none", "manifest.txt");
  shape.add("manifest", "parts: " + std::to_string(parts.size()), "manifest.txt");
}

Status add_descriptor(source::ObjectStore& store, const restore::ScannedSnapshot& snap, SnapshotShape& shape) {
  if (!snap.files[4].present) {
    shape.add("descriptor", "absent", "descriptor.txt");
    return {};
  }
  auto text = store.get(source::join_key(snap.snapshot_dir, "descriptor.txt"), k_small_file_bytes);
  if (!text.ok()) return text.status().with_context("descriptor.txt");
  shape.add("descriptor", "fields: " + std::to_string(split(*text, '|').size()), "descriptor.txt");
  shape.add("descriptor", snap.descriptor ? "parses" : "does not parse", "descriptor.txt");
  return {};
}

void add_metadata_top(const restore::ScannedSnapshot& snap, SnapshotShape& shape) {
  static const std::set<std::string> known = {"shards", "discarded_replicas", "replica_next_id"};
  std::string keys;
  for (const auto& key : snap.metadata.top_level_keys) {
    const bool str_key = key.empty() || key[0] != '<';
    const std::string shown = str_key ? quoted_name(key) : key;
    keys += (keys.empty() ? "" : ",") + shown;
    if (known.count(key) == 0) shape.add("metadata", "top-level key " + shown, "metadata top level", 1, true);
  }
  shape.add("metadata", "top level: {" + keys + "}", "metadata top level");
  for (const auto& [form, count] : snap.metadata.shard_frame_forms) {
    shape.add("metadata", "shard blob: " + form, "metadata \"shards\"", count, form != "zstd");
  }
  for (std::size_t i = 0; i < snap.metadata.discarded.size(); ++i) {
    const auto& item = snap.metadata.discarded[i];
    const std::string where = "discarded_replicas[" + std::to_string(i) + "]";
    shape.add("metadata", "discarded item: [ttl,mem_size,R,R replicas]", where);
    for (const auto& r : item.replicas) {
      shape.add("metadata", std::string("discarded replica ") + model::replica_type::k_table.name(r.type), where);
    }
  }
}

// One zstd payload: its framing (from its first bytes), then the shape of its content,
// decompressed as it is read (only the content is held whole, never the compressed copy too).
Status add_payload(source::ObjectStore& store, const restore::ScannedSnapshot& snap, const char* name,
                   std::size_t max_bytes, Status (*walk)(std::string_view, SnapshotShape&), SnapshotShape& shape) {
  const std::string key = source::join_key(snap.snapshot_dir, name);
  auto size = store.size(key);
  if (!size.ok()) return size.status().with_context(name);
  util::ByteBuffer head;
  MQ_RETURN_IF_ERROR(store.get_range(key, 0, std::min<std::uint64_t>(*size, 18), head).with_context(name));
  const std::string form = util::zstd_frame_form(head.view());
  shape.add(name, "frame: " + form, name, 1, form != "zstd");
  auto file = store.open(key);
  if (!file.ok()) return file.status().with_context(name);
  util::ByteBuffer raw;
  if (Status s = util::zstd_decompress_stream(**file, max_bytes, raw); !s.ok()) return util::payload_error(s, name);
  return walk(raw.view(), shape);
}

Status add_extra_objects(source::ObjectStore& store, const restore::ScannedSnapshot& snap, SnapshotShape& shape) {
  std::string prefix = snap.snapshot_dir;
  if (prefix.empty() || prefix.back() != '/') prefix += '/';
  auto keys = store.list(prefix);
  if (!keys.ok()) return keys.status();
  const std::set<std::string> known(k_snapshot_files.begin(), k_snapshot_files.end());
  for (const auto& file : snap.files) {
    if (file.present) shape.add("files", file.name, file.name);
  }
  for (const auto& key : *keys) {
    const std::string name = key.rfind(prefix, 0) == 0 ? key.substr(prefix.size()) : key;
    if (known.count(name) == 0) shape.add("files", "other object " + quoted_name(name), name, 1, true);
  }
  return {};
}

}  // namespace

void SnapshotShape::add(const std::string& section, const std::string& feature, const std::string& where,
                        std::uint64_t count, bool unknown, std::uint64_t order) {
  auto& f = sections[section][feature];
  if ((f.count == 0 && f.first_seen.empty()) || order < f.first_order) {
    f.first_seen = where;
    f.first_order = order;
  }
  f.count += count;
  f.unknown = f.unknown || unknown;
}

void SnapshotShape::merge(const SnapshotShape& other) {
  for (const auto& [section, features] : other.sections) {
    for (const auto& [feature, f] : features) add(section, feature, f.first_seen, f.count, f.unknown, f.first_order);
  }
}

std::string canonical_shape_text(const SnapshotShape& shape) {
  std::string text;
  for (const auto& [section, features] : shape.sections) {
    for (const auto& [feature, f] : features) text += section + "\t" + feature + "\n";
  }
  return text;
}

std::string fingerprint_id_of(const SnapshotShape& shape) {
  const std::string text = canonical_shape_text(shape);
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(XXH3_64bits(text.data(), text.size())));
  return hex;
}

util::Result<SnapshotFingerprint> fingerprint_snapshot(source::ObjectStore& store, const SelectedSnapshot& selected,
                                                       const FingerprintOptions& options) {
  restore::ScanOptions scan;
  scan.max_payload_bytes = options.max_payload_bytes;
  scan.overlap_segments = false;  // a shard decoded twice would count twice
  scan.progress = options.progress;
  std::vector<ShardShapeAnalyzer> analyzers(std::max(1U, options.threads));
  std::vector<restore::ShardAnalyzer*> pointers;
  for (auto& a : analyzers) pointers.push_back(&a);
  MQ_ASSIGN_OR_RETURN(restore::ScannedSnapshot snap,
                      restore::scan_snapshot(store, selected.snapshot_dir, selected.snapshot_id, scan, pointers));
  SnapshotFingerprint out;
  out.snapshot_id = snap.snapshot_id;
  out.snapshot_dir = snap.snapshot_dir;
  out.master_rejection = snap.master_rejection;
  auto& shape = out.shape;
  MQ_RETURN_IF_ERROR(add_extra_objects(store, snap, shape));
  add_manifest(snap.manifest, shape);
  MQ_RETURN_IF_ERROR(add_descriptor(store, snap, shape));
  add_metadata_top(snap, shape);
  for (const auto& a : analyzers) shape.merge(a.shape());
  MQ_RETURN_IF_ERROR(add_payload(store, snap, "segments", options.max_payload_bytes, add_segments_shape, shape));
  MQ_RETURN_IF_ERROR(add_payload(store, snap, "task_manager", options.max_payload_bytes, add_tasks_shape, shape));
  out.fingerprint_id = fingerprint_id_of(shape);
  for (const auto& [section, features] : shape.sections) {
    for (const auto& [feature, f] : features) out.unknown_features += f.unknown ? 1 : 0;
  }
  return out;
}

}  // namespace moonquota::inspect
