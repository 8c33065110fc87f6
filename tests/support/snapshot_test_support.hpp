// Helpers shared by the decoder, restore and corruption tests: hermetic temp directories, file
// I/O, the genuine stores, and builders that turn in-memory records into snapshot bytes with
// the project's own writer (msgpack_writer + encoders), so that tests state their input as data.
#pragma once

#include <gtest/gtest.h>

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "forge/offset_allocator.hpp"
#include "format/metadata_encoder.hpp"
#include "format/msgpack_writer.hpp"
#include "format/object_decoder.hpp"
#include "format/segments_encoder.hpp"
#include "format/shard_decoder.hpp"
#include "format/task_manager_encoder.hpp"
#include "model/snapshot_types.hpp"
#include "support/tree_paths.hpp"
#include "util/zstd_codec.hpp"

namespace moonquota::test {

namespace fs = std::filesystem;

// A directory under the system temp dir with a unique name, removed with everything in it.
class TempDir {
 public:
  TempDir() {
    static std::atomic<unsigned> counter{0};
    std::random_device rd;
    m_path = fs::temp_directory_path() / ("moonquota-test-" + std::to_string(::getpid()) + "-" +
                                          std::to_string(counter++) + "-" + std::to_string(rd()));
    fs::create_directories(m_path);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(m_path, ec);
  }
  [[nodiscard]] const fs::path& path() const { return m_path; }
  [[nodiscard]] std::string str() const { return m_path.string(); }

 private:
  fs::path m_path;
};

inline std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline void write_file(const fs::path& path, std::string_view bytes) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  ASSERT_TRUE(out.good()) << "cannot write " << path;
}

inline std::string unhex(std::string_view hex) {
  std::string out;
  auto nibble = [](char c) { return c <= '9' ? c - '0' : c - 'a' + 10; };
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(nibble(hex[i]) * 16 + nibble(hex[i + 1])));
  }
  return out;
}

inline std::string unzstd(const std::string& frame) {
  std::string out;
  auto status = util::zstd_decompress(frame, std::size_t{1} << 30, out);
  EXPECT_TRUE(status.ok()) << status.to_string();
  return out;
}

// --- genuine stores (written by a real master; copied before any mutation) -------------------

struct GenuineSnapshot {
  const char* name;         // folder under snapshots/genuine[-live]/
  const char* store;        // the store dir relative to the source root
  const char* snapshot_id;  // the latest snapshot
};

inline constexpr GenuineSnapshot k_s1{"s1", "snapshots/genuine/s1_single_segment_basic/store", "20261129_115140_543"};
inline constexpr GenuineSnapshot k_s7{"s7", "snapshots/genuine/s7_spec_worked_example/store", "20261129_115155_173"};
inline constexpr GenuineSnapshot k_r1{"r1", "snapshots/genuine-live/r1_quiescent_orphan/store", "20261129_124455_488"};
inline constexpr const char* k_r1_older_id = "20261129_124452_790";
inline constexpr std::uint64_t k_s1_restore_time_ms = 1795953102553ULL;
inline constexpr std::uint64_t k_s7_restore_time_ms = 1795953117185ULL;

inline std::string cluster_root(const fs::path& store) {
  return (store / "mooncake_master_snapshot" / "mooncake_cluster").string();
}

// Copies a genuine store into `dst` (which becomes the store dir) and returns dst.
inline fs::path copy_genuine_store(const GenuineSnapshot& g, const fs::path& dst) {
  fs::create_directories(dst);
  fs::copy(source_path(g.store), dst, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
  return dst;
}

// --- building blocks for snapshot content -----------------------------------------------------

inline constexpr std::uint64_t k_future_lease_ms = 4102444800000ULL;  // 2100-01-01
inline constexpr std::uint64_t k_put_time_ms = 1700000000000ULL;
inline constexpr std::uint64_t k_segment_base = 0x300000000ULL;

struct SegmentSpec {
  std::string id;  // UUID string
  std::string name;
  std::uint64_t size = 16ULL << 20;
  std::int16_t status = model::segment_status::ok;
  std::uint64_t base = k_segment_base;
};

// A mounted segment with a fresh allocator state of the master's shape.
inline model::MountedSegment make_segment(const SegmentSpec& spec) {
  model::MountedSegment seg;
  seg.map_key = spec.id;
  seg.id = spec.id;
  seg.name = spec.name;
  seg.base = spec.base;
  seg.size = spec.size;
  seg.te_endpoint = "127.0.0.1:17812";
  seg.status = spec.status;
  seg.has_allocator = true;
  auto sim = forge::OffsetAllocatorSimulation::create(spec.base, spec.size);
  EXPECT_TRUE(sim.ok());
  model::BufferAllocatorState a;
  a.segment_name = spec.name;
  a.base = spec.base;
  a.total_size = spec.size;
  a.transport_endpoint = seg.te_endpoint;
  a.offset = sim->export_state();
  seg.allocator = std::move(a);
  seg.host_id = "";
  return seg;
}

// A segments payload with the given segments, all owned by client "1-2".
inline model::SegmentsPayload make_segments_payload(const std::vector<SegmentSpec>& specs) {
  model::SegmentsPayload p;
  p.allocator_type = model::k_allocator_type_offset;
  p.has_allocator_names = true;
  p.has_client_segments = true;
  p.has_local_disk = true;
  std::vector<std::string> ids;
  for (const auto& s : specs) {
    p.mounted.push_back(make_segment(s));
    if (s.status == model::segment_status::ok) p.allocator_names.push_back(s.name);
    ids.push_back(s.id);
  }
  if (!ids.empty()) p.client_segments.emplace_back("1-2", ids);
  return p;
}

inline model::Replica memory_replica(std::uint64_t id, const std::string& segment_id, std::uint64_t size,
                                     std::int16_t status = model::replica_status::complete) {
  model::Replica r;
  r.id = id;
  r.status = status;
  r.type = model::replica_type::memory;
  r.memory.size = size;
  r.memory.buffer_address = k_segment_base;
  r.memory.segment_id = segment_id;
  r.memory.has_offset_handle = true;
  r.memory.handle = {k_segment_base, size, 0, 0};
  return r;
}

inline model::Replica disk_replica(std::uint64_t id, std::uint64_t size,
                                   std::int16_t status = model::replica_status::complete) {
  model::Replica r;
  r.id = id;
  r.status = status;
  r.type = model::replica_type::disk;
  r.file_path = "/mnt/fs/k";
  r.object_size = size;
  return r;
}

inline model::ObjectRecord make_object(const std::string& tenant, const std::string& key, std::uint64_t size,
                                       std::vector<model::Replica> replicas,
                                       std::uint64_t lease_ms = k_future_lease_ms) {
  model::ObjectRecord o;
  o.tenant_id = tenant;
  o.key = key;
  o.client_id = "1-2";
  o.put_start_time_ms = k_put_time_ms;
  o.size = size;
  o.lease_timeout_ms = lease_ms;
  o.replicas = std::move(replicas);
  return o;
}

// The raw (decompressed) shard {"metadata": [entries...]} with entries in the given order,
// duplicates allowed (the encoder refuses them, tests need them).
inline std::string shard_raw_in_order(const std::vector<model::ObjectRecord>& objects) {
  std::string out;
  format::MsgpackWriter w(out);
  w.pack_map_header(1);
  w.pack_str("metadata");
  w.pack_array_header(objects.size());
  for (const auto& o : objects) EXPECT_TRUE(format::encode_object_entry(w, o).ok());
  return out;
}

// A metadata file from (shard index, raw shard) pairs in file order; shards are compressed here.
inline std::string metadata_file_bytes(const std::vector<std::pair<std::uint32_t, std::string>>& shards,
                                       std::uint64_t replica_next_id = 100) {
  std::string out;
  format::MsgpackWriter w(out);
  w.pack_map_header(3);
  w.pack_str("shards");
  w.pack_map_header(shards.size());
  for (const auto& [index, raw] : shards) {
    w.pack_uint(index);
    w.pack_bin(util::zstd_compress(raw));
  }
  w.pack_str("discarded_replicas");
  w.pack_array_header(0);
  w.pack_str("replica_next_id");
  w.pack_uint(replica_next_id);
  return out;
}

// The five files of one snapshot directory.
struct SnapshotFiles {
  std::optional<std::string> metadata;
  std::optional<std::string> segments;      // file bytes (compressed)
  std::optional<std::string> task_manager;  // file bytes (compressed)
  std::optional<std::string> manifest;
  std::optional<std::string> descriptor;
};

inline SnapshotFiles snapshot_files(const std::string& id, const std::string& metadata,
                                    const model::SegmentsPayload& segments) {
  SnapshotFiles f;
  f.metadata = metadata;
  auto seg = format::encode_segments(segments);
  EXPECT_TRUE(seg.ok()) << seg.status().to_string();
  f.segments = seg.ok() ? *seg : std::string();
  f.task_manager = unhex("28b52ffd200109000090");  // §14.7: no tasks
  f.manifest = "messagepack|1.0.0|" + id;
  f.descriptor = "0|0|1787375520123";
  return f;
}

inline SnapshotFiles snapshot_files(const std::string& id, const format::MetadataContent& content,
                                    const model::SegmentsPayload& segments) {
  auto metadata = format::encode_metadata(content);
  EXPECT_TRUE(metadata.ok()) << metadata.status().to_string();
  return snapshot_files(id, metadata.ok() ? *metadata : std::string(), segments);
}

inline void write_snapshot(const fs::path& cluster_dir, const std::string& id, const SnapshotFiles& f) {
  const fs::path dir = cluster_dir / id;
  fs::create_directories(dir);
  if (f.metadata) write_file(dir / "metadata", *f.metadata);
  if (f.segments) write_file(dir / "segments", *f.segments);
  if (f.task_manager) write_file(dir / "task_manager", *f.task_manager);
  if (f.manifest) write_file(dir / "manifest.txt", *f.manifest);
  if (f.descriptor) write_file(dir / "descriptor.txt", *f.descriptor);
}

// --- a visitor that keeps owning copies of what decode_shard delivers --------------------------

struct SeenEntry {
  std::uint64_t entry_index = 0;
  std::size_t offset = 0;
  std::size_t end_offset = 0;
  format::DecodeOutcome outcome = format::DecodeOutcome::decoded;
  std::string reason;
  bool ambiguous = false;
  model::ObjectRecord record;  // tenant and key always; the rest only when decoded
};

class RecordingVisitor final : public format::ShardVisitor {
 public:
  void on_entry(const format::ShardEntry& entry) override {
    SeenEntry e;
    e.entry_index = entry.entry_index;
    e.offset = entry.offset;
    e.end_offset = entry.end_offset;
    e.outcome = entry.result->outcome;
    e.reason = entry.result->reason;
    e.ambiguous = entry.result->ambiguous;
    if (e.outcome == format::DecodeOutcome::decoded) {
      e.record = format::to_record(*entry.object);
    } else {
      e.record.tenant_id = entry.object->tenant_id;
      e.record.key = entry.object->key;
    }
    entries.push_back(std::move(e));
  }
  std::vector<SeenEntry> entries;
};

// Builds msgpack with a lambda over a writer.
inline std::string msgpack(const std::function<void(format::MsgpackWriter&)>& build) {
  std::string out;
  format::MsgpackWriter w(out);
  build(w);
  return out;
}

inline bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

inline bool has_finding(const model::Findings& findings, const std::string& needle) {
  for (const auto& f : findings)
    if (contains(f.message, needle) || contains(f.location, needle)) return true;
  return false;
}

}  // namespace moonquota::test
