// `--large N` orchestration: bucket objects by shard into a temporary index file, then generate,
// place, encode and compress shards a batch at a time (see large_store.hpp).
#include "forge/large_store.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>

#include "forge/large_segments.hpp"
#include "forge/large_store_mix.hpp"
#include "forge/large_twin.hpp"
#include "forge/scenario.hpp"
#include "forge/store_writer.hpp"
#include "forge/streaming_file.hpp"
#include "format/metadata_encoder.hpp"
#include "format/task_manager_encoder.hpp"
#include "util/hashing.hpp"
#include "util/thread_pool.hpp"
#include "util/zstd_codec.hpp"

namespace moonquota::forge {

namespace {

namespace fs = std::filesystem;
using large::ObjectMix;
using large::PlannedObject;
using large::ReplicaPlan;

constexpr std::uint32_t k_shards = util::k_metadata_shards;
constexpr std::size_t k_bucket_buffer = 512;  // indices buffered per shard before a write
using ShardCounts = std::array<std::uint64_t, k_shards>;

util::Status pwrite_all(int fd, const void* data, std::size_t bytes, std::uint64_t offset) {
  const char* p = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t n = ::pwrite(fd, p, bytes, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return util::Status::io_error(std::string("cannot write the shard index: ") + std::strerror(errno));
    p += n;
    bytes -= static_cast<std::size_t>(n);
    offset += static_cast<std::uint64_t>(n);
  }
  return util::Status::ok_status();
}

util::Status pread_all(int fd, void* data, std::size_t bytes, std::uint64_t offset) {
  char* p = static_cast<char*>(data);
  while (bytes > 0) {
    const ssize_t n = ::pread(fd, p, bytes, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      return util::Status::io_error("cannot read the shard index at byte offset " + std::to_string(offset) + ": " +
                                    (n < 0 ? std::strerror(errno) : "the file is shorter than what was written"));
    }
    p += n;
    bytes -= static_cast<std::size_t>(n);
    offset += static_cast<std::uint64_t>(n);
  }
  return util::Status::ok_status();
}

// A temporary file of N u32 object indices grouped by shard: shard s occupies
// [start[s], start[s] + count[s]). Two passes over the key space, both parallel by chunks.
class ShardIndexFile {
 public:
  explicit ShardIndexFile(std::string path) : m_path(std::move(path)) {}
  ~ShardIndexFile() {
    if (m_fd >= 0) {
      ::close(m_fd);
      ::unlink(m_path.c_str());
    }
  }

  util::Status build(const ObjectMix& mix, std::uint64_t objects, unsigned threads) {
    m_fd = ::open(m_path.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0600);
    if (m_fd < 0) return util::Status::io_error("cannot create '" + m_path + "': " + std::strerror(errno));
    const std::size_t chunks = std::max<std::size_t>(1, std::min<std::uint64_t>(objects / 65536 + 1, threads * 4ULL));
    std::vector<ShardCounts> per_chunk(chunks, ShardCounts{});
    auto range = [&](std::size_t c) {
      return std::pair<std::uint64_t, std::uint64_t>{objects * c / chunks, objects * (c + 1) / chunks};
    };
    util::run_indexed(chunks, threads, [&](std::size_t c, unsigned) {
      std::string scratch;
      for (auto [i, end] = range(c); i < end; ++i) ++per_chunk[c][mix.shard_of(i, scratch)];
    });
    std::uint64_t next = 0;
    std::vector<ShardCounts> cursor(chunks);
    for (std::uint32_t s = 0; s < k_shards; ++s) {
      m_start[s] = next;
      for (std::size_t c = 0; c < chunks; ++c) {
        cursor[c][s] = next;
        next += per_chunk[c][s];
      }
      m_count[s] = next - m_start[s];
    }
    std::vector<util::Status> errors(chunks);
    util::run_indexed(chunks, threads, [&](std::size_t c, unsigned) {
      std::vector<std::vector<std::uint32_t>> buffers(k_shards);
      std::string scratch;
      auto flush = [&](std::uint32_t s) {
        auto& b = buffers[s];
        if (b.empty() || !errors[c].ok()) return;
        errors[c] = pwrite_all(m_fd, b.data(), b.size() * 4, cursor[c][s] * 4);
        cursor[c][s] += b.size();
        b.clear();
      };
      for (auto [i, end] = range(c); i < end; ++i) {
        const std::uint32_t s = mix.shard_of(i, scratch);
        buffers[s].push_back(static_cast<std::uint32_t>(i));
        if (buffers[s].size() == k_bucket_buffer) flush(s);
      }
      for (std::uint32_t s = 0; s < k_shards; ++s) flush(s);
    });
    for (const auto& e : errors) MQ_RETURN_IF_ERROR(e);
    return util::Status::ok_status();
  }

  [[nodiscard]] std::uint64_t count(std::uint32_t shard) const { return m_count[shard]; }

  util::Status read(std::uint32_t shard, std::vector<std::uint32_t>& out) const {
    out.resize(m_count[shard]);
    return pread_all(m_fd, out.data(), out.size() * 4, m_start[shard] * 4);
  }

 private:
  std::string m_path;
  int m_fd = -1;
  ShardCounts m_start{};
  ShardCounts m_count{};
};

// Encodes one planned object into its shard entry; `record` is reused between calls.
util::Status encode_planned(format::MsgpackWriter& w, const ObjectMix& mix, const large::SegmentChains& chains,
                            const PlannedObject& o, const std::string& cluster_id, model::ObjectRecord& record) {
  record.tenant_id = mix.tenant_name(o.tenant);
  record.key = o.key;
  record.client_id = mix.client_uuid(o.writer_client);
  record.put_start_time_ms = o.put_start_time_ms;
  record.size = o.size;
  record.lease_timeout_ms = o.lease_timeout_ms;
  record.data_type = o.data_type;
  record.replicas.resize(static_cast<std::size_t>(large::replica_count(o.plan)));
  const std::int16_t status = o.processing ? model::replica_status::processing : model::replica_status::complete;
  std::uint64_t id = o.first_replica_id;
  int memory_seen = 0;
  for (std::size_t r = 0; r < record.replicas.size(); ++r) {
    model::Replica& rep = record.replicas[r];
    rep.id = id++;
    rep.status = status;
    const int memory_replicas = large::memory_replica_count(o.plan);
    if (memory_seen < memory_replicas) {
      const PlannedObject::Placement& p = o.memory[memory_seen++];
      rep.type = model::replica_type::memory;
      rep.memory.size = o.size;
      rep.memory.buffer_address = p.address;
      rep.memory.segment_id = chains.segment_uuid(p.segment);
      rep.memory.has_offset_handle = true;
      rep.memory.handle = {p.address, o.size, p.offset, p.node_index};
    } else if (o.plan == ReplicaPlan::memory_and_disk || o.plan == ReplicaPlan::disk_only) {
      rep.type = model::replica_type::disk;
      rep.file_path = master_disk_path("/mnt/mooncake_fs", cluster_id, o.key);
      rep.object_size = o.size;
    } else {
      rep.type = model::replica_type::local_disk;
      rep.client_id = mix.client_uuid(o.other_client);
      rep.object_size = o.size;
      rep.transport_endpoint = "10.0." + std::to_string(o.other_client) + ".1:15000";
    }
  }
  return format::encode_object_entry(w, record);
}

struct ShardWork {
  std::vector<PlannedObject> objects;
  std::string compressed;
  util::Status status;
};

// The snapshot under a prepared `out_dir`; the caller removes what a failure leaves.
util::Result<LargeStoreSummary> write_large_snapshot(const LargeStoreOptions& options, const std::string& out_dir) {
  const unsigned threads = std::max(1U, options.threads);
  const fs::path root = fs::path(out_dir) / snapshot_root_relative(options.cluster_id);
  const fs::path dir = root / options.snapshot_id;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return util::Status::io_error("cannot create '" + dir.string() + "': " + ec.message());

  ForgedSnapshot header;  // for the text files only
  header.id = options.snapshot_id;
  model::SnapshotDescriptor descriptor;
  descriptor.created_at_ms = k_large_store_created_at_ms;
  const ObjectMix mix(options.seed, options.tenants, options.clients,
                      static_cast<std::uint64_t>(descriptor.created_at_ms));

  ShardIndexFile index((dir / ".forge-shard-index.tmp").string());
  const std::uint64_t total = options.objects + options.added_objects;
  MQ_RETURN_IF_ERROR(index.build(mix, total, threads));
  const large::SegmentShape shape = large::segment_shape(options.segment_bytes);
  large::SegmentChains chains(mix, options.seed, shape, (dir / ".forge-segments.tmp").string());

  LargeStoreSummary summary;
  std::uint32_t non_empty = 0;
  for (std::uint32_t s = 0; s < k_shards; ++s) non_empty += index.count(s) > 0 ? 1 : 0;
  summary.non_empty_shards = non_empty;
  const std::uint32_t batch = std::max(8U, threads * 2);
  // The objects of a batch of shards, each shard's sorted as written (planned on the workers).
  const large::ShardPlanner plan = [&](std::uint32_t first, std::uint32_t count,
                                       std::vector<std::vector<PlannedObject>>& out) {
    out.clear();
    out.resize(count);
    std::vector<util::Status> status(count);
    util::run_indexed(count, threads, [&](std::size_t k, unsigned) {
      std::vector<std::uint32_t> indices;
      status[k] = index.read(first + static_cast<std::uint32_t>(k), indices);
      auto& objects = out[k];
      objects.reserve(indices.size());
      for (std::uint32_t i : indices) objects.push_back(mix.plan(i));
      std::sort(objects.begin(), objects.end(), [&](const PlannedObject& a, const PlannedObject& b) {
        const int t = mix.tenant_name(a.tenant).compare(mix.tenant_name(b.tenant));
        return t != 0 ? t < 0 : a.key < b.key;
      });
    });
    for (const auto& s : status) MQ_RETURN_IF_ERROR(s);
    return util::Status::ok_status();
  };
  // With added objects, `chains` take every placement in the dry run (and write the segments);
  // the encoding run replays the N objects' placements on `replay` (large_twin.hpp).
  std::optional<large::AddedPlacements> added;
  std::optional<large::SegmentChains> replay;
  if (options.added_objects > 0) {
    MQ_ASSIGN_OR_RETURN(added, large::place_added_objects(options.objects, k_shards, batch, plan, chains));
    replay.emplace(mix, options.seed, shape, (dir / ".forge-replay.tmp").string());
  }
  large::SegmentChains& placer = replay ? *replay : chains;
  MQ_ASSIGN_OR_RETURN(auto metadata_file, StreamingFile::open((dir / "metadata").string()));
  std::string buffer;
  format::MetadataPayloadStream stream(non_empty, buffer);
  std::uint64_t next_replica_id = 1;

  std::vector<std::vector<PlannedObject>> planned;
  for (std::uint32_t first = 0; first < k_shards; first += batch) {
    const std::uint32_t count = std::min(batch, k_shards - first);
    std::vector<ShardWork> work(count);
    MQ_RETURN_IF_ERROR(plan(first, count, planned));
    for (std::uint32_t k = 0; k < count; ++k) work[k].objects = std::move(planned[k]);
    // Placement is sequential, in shard then entry order, so the output does not depend on threads.
    for (ShardWork& w : work) {
      for (PlannedObject& o : w.objects) {
        if (o.index >= options.objects) {
          o = added->objects.at(o.index);
          continue;
        }
        MQ_RETURN_IF_ERROR(large::place_object(o, placer, next_replica_id));
      }
    }
    util::run_indexed(count, threads, [&](std::size_t k, unsigned) {
      ShardWork& w = work[k];
      if (w.objects.empty()) return;
      std::string raw;
      format::MsgpackWriter mw(raw);
      mw.pack_map_header(1);
      mw.pack_str("metadata");
      mw.pack_array_header(w.objects.size());
      model::ObjectRecord record;
      for (const PlannedObject& o : w.objects) {
        w.status = encode_planned(mw, mix, chains, o, options.cluster_id, record);
        if (!w.status.ok()) return;
      }
      w.compressed = util::zstd_compress(raw);
      std::vector<PlannedObject>().swap(w.objects);
    });
    for (std::uint32_t k = 0; k < count; ++k) {
      MQ_RETURN_IF_ERROR(work[k].status);
      if (work[k].compressed.empty()) continue;
      MQ_RETURN_IF_ERROR(stream.add_shard(first + k, work[k].compressed));
      MQ_RETURN_IF_ERROR(metadata_file->write(buffer));
      buffer.clear();
    }
  }
  if (added) next_replica_id = added->next_replica_id;
  MQ_RETURN_IF_ERROR(stream.finish({}, next_replica_id));
  MQ_RETURN_IF_ERROR(metadata_file->write(buffer));
  MQ_RETURN_IF_ERROR(metadata_file->commit());
  summary.metadata_bytes = metadata_file->file_bytes();
  summary.objects = total;
  summary.replicas = next_replica_id - 1;

  MQ_ASSIGN_OR_RETURN(summary.segments_bytes, chains.write_segments_payload((dir / "segments").string()));
  summary.segments = chains.segment_count();
  MQ_ASSIGN_OR_RETURN(std::string tasks, format::encode_task_manager({}));
  MQ_RETURN_IF_ERROR(write_store_file((dir / "task_manager").string(), tasks));
  MQ_RETURN_IF_ERROR(write_store_file((dir / "manifest.txt").string(), manifest_text(header)));
  MQ_RETURN_IF_ERROR(write_store_file((dir / "descriptor.txt").string(), descriptor_text(descriptor)));
  MQ_RETURN_IF_ERROR(write_store_file((root / "latest.txt").string(), options.snapshot_id));
  return summary;
}

}  // namespace

util::Result<LargeStoreSummary> write_large_store(const LargeStoreOptions& options, const std::string& out_dir) {
  if (options.objects == 0 || options.objects > 0xffffffffULL) {
    return util::Status::invalid_argument("--large needs 1 .. 4294967295 objects");
  }
  if (options.added_objects > 0xffffffffULL - options.objects) {
    return util::Status::invalid_argument("--large plus --added-objects must be at most 4294967295 objects");
  }
  if (options.tenants == 0 || options.tenants > 256)
    return util::Status::invalid_argument("--tenants must be 1 .. 256");
  if (options.clients == 0 || options.clients > 64) return util::Status::invalid_argument("--clients must be 1 .. 64");
  if (options.segment_bytes != 0 &&
      (options.segment_bytes < k_min_large_segment_bytes || options.segment_bytes > k_max_large_segment_bytes)) {
    return util::Status::invalid_argument("--segment-bytes must be " + std::to_string(k_min_large_segment_bytes) +
                                          " .. " + std::to_string(k_max_large_segment_bytes));
  }
  if (options.threads > k_max_large_store_threads) {
    return util::Status::invalid_argument("--threads must be 0 .. " + std::to_string(k_max_large_store_threads));
  }
  if (!is_valid_snapshot_id(options.snapshot_id)) return util::Status::invalid_argument("invalid snapshot id");
  StoreWriteOptions store_options;
  store_options.force = options.force;
  PartialStoreGuard guard(out_dir);
  if (auto s = prepare_output_directory(out_dir, store_options); !s.ok()) {
    guard.dismiss();  // refused or not cleared: nothing of ours to remove
    return s;
  }
  auto summary = write_large_snapshot(options, out_dir);
  if (summary.ok()) guard.dismiss();
  return summary;
}

}  // namespace moonquota::forge
