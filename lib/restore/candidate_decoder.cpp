#include "restore/candidate_decoder.hpp"

#include <filesystem>
#include <mutex>

#include "format/manifest.hpp"
#include "format/metadata_file.hpp"
#include "format/segments_decoder.hpp"
#include "format/task_manager_decoder.hpp"
#include "restore/shard_tally.hpp"
#include "source/embedded_catalog.hpp"
#include "util/byte_buffer.hpp"
#include "util/checked_math.hpp"
#include "util/file_reader.hpp"
#include "util/zstd_codec.hpp"
#include "util/zstd_file.hpp"

namespace moonquota::restore {

namespace fs = std::filesystem;
using util::Status;

namespace {

constexpr std::size_t k_findings_cap = 10000;

util::Result<std::string> read_payload(const std::string& dir, const char* name, std::uint64_t max_bytes) {
  auto bytes = util::read_small_file((fs::path(dir) / name).string(), max_bytes);
  if (!bytes.ok()) {
    if (bytes.status().code() == util::StatusCode::not_found) {
      return Status::corruption(std::string(name) + " is missing");
    }
    return Status(bytes.status().code(), std::string(name) + ": " + bytes.status().message());
  }
  return bytes;
}

// Our memory guard keeps its code (a tool limit, not a master decision); the rest rejects.
Status decompress_payload(const std::string& compressed, const char* name, std::size_t limit, util::ByteBuffer& raw) {
  Status s = util::zstd_decompress(compressed, limit, raw);
  if (s.ok()) return s;
  return Status(s.code() == util::StatusCode::limit_exceeded ? s.code() : util::StatusCode::corruption,
                std::string(name) + ": " + s.message());
}

format::SegmentTable build_segment_table(const model::SegmentsPayload& segments, RestoredState& state) {
  format::SegmentTable table;
  for (const auto& seg : segments.mounted) {
    auto uuid = util::parse_uuid_lenient(seg.map_key);
    if (uuid) table.add(seg.map_key, *uuid, {seg.status, seg.has_allocator});
    state.segments.push_back({seg.id, seg.name, seg.size, seg.status, seg.has_allocator});
  }
  return table;
}

}  // namespace

util::Result<RestoredState> decode_candidate(const std::string& dir, const std::string& snapshot_id,
                                             const RestoreOptions& options) {
  RestoredState state;
  state.snapshot_id = snapshot_id;
  state.snapshot_dir = dir;
  auto manifest = read_payload(dir, "manifest.txt", 1 << 20);
  if (!manifest.ok()) return manifest.status();
  auto manifest_check = format::check_manifest(*manifest, format::ManifestRule::master, snapshot_id);
  if (!manifest_check.ok()) return manifest_check.status();
  for (const auto& w : manifest_check->warnings) state.findings.push_back({model::Severity::warning, "manifest.txt", w});

  // All three payloads must exist before anything is decoded.
  for (const char* name : {"metadata", "segments", "task_manager"}) {
    std::error_code ec;
    if (!fs::is_regular_file(fs::path(dir) / name, ec)) return Status::corruption(std::string(name) + " is missing");
  }
  auto descriptor = source::read_descriptor(dir);
  if (descriptor.ok()) state.descriptor = *descriptor;

  // segments: streamed from the file (the compressed bytes are never held whole)
  util::ByteBuffer raw;
  if (Status s = util::zstd_decompress_file((fs::path(dir) / "segments").string(), options.max_payload_bytes, raw);
      !s.ok()) {
    return Status(s.code() == util::StatusCode::corruption || s.code() == util::StatusCode::limit_exceeded
                      ? s.code()
                      : util::StatusCode::corruption,
                  "segments: " + s.message());
  }
  format::SegmentsDecodeOptions seg_options;
  auto segments = format::decode_segments(raw.view(), seg_options, state.findings);
  if (!segments.ok()) return segments.status().with_context("segments");
  format::SegmentTable table = build_segment_table(*segments, state);
  // Release the segments bytes before the metadata scan: peak memory is the larger phase, not the sum.
  raw = util::ByteBuffer();

  // metadata, shard by shard on worker threads
  const unsigned threads = options.threads == 0 ? 1 : options.threads;
  std::vector<format::ObjectView> views(threads);
  std::vector<ShardTallyBuilder> builders(threads);
  std::vector<model::Findings> worker_findings(threads);
  std::vector<std::optional<ShardTally>> shards(1024);
  std::mutex shards_mutex;
  format::ShardHandler handler = [&](unsigned worker, std::uint32_t shard, std::uint64_t sequence,
                                     std::string_view bytes) -> Status {
    builders[worker].reset();
    model::Findings& findings = worker_findings[worker];
    MQ_RETURN_IF_ERROR(format::decode_shard(bytes, shard, table, views[worker], builders[worker], findings));
    ShardTally tally;
    tally.sequence = sequence;
    builders[worker].finish(shard, options.restore_time_ms, tally, findings);
    if (findings.size() > k_findings_cap) findings.resize(k_findings_cap);
    std::lock_guard lock(shards_mutex);
    auto& slot = shards[shard];
    if (!slot || slot->sequence < sequence) slot = std::move(tally);  // the last duplicate wins
    return {};
  };
  format::MetadataScanOptions scan_options;
  scan_options.threads = threads;
  scan_options.max_shard_bytes = options.max_payload_bytes;
  scan_options.max_value_bytes = options.max_payload_bytes;
  auto info = format::scan_metadata_file((fs::path(dir) / "metadata").string(), table, scan_options, handler,
                                         state.findings);
  if (!info.ok()) return info.status();
  state.metadata_bytes = info->file_bytes;
  state.metadata_shards = info->shard_entries;
  state.decompressed_metadata_bytes = info->decompressed_shard_bytes;
  state.discarded_items = info->discarded.size();
  state.replica_next_id = info->replica_next_id;
  if (info->shard_entries > 0) {
    std::uint64_t distinct = 0;
    for (const auto& s : shards) distinct += s ? 1 : 0;
    if (distinct != info->shard_entries) {
      state.findings.push_back({model::Severity::error, "metadata",
                                std::to_string(info->shard_entries - distinct) +
                                    " duplicate shard keys (the last one of each wins)"});
    }
  }
  for (auto& f : worker_findings) {
    for (auto& x : f) state.findings.push_back(std::move(x));
  }

  // task_manager: 1 GiB cap, an empty file is an error (the master's rule)
  auto tasks_zst = read_payload(dir, "task_manager", options.max_payload_bytes);
  if (!tasks_zst.ok()) return tasks_zst.status();
  // The 1 GiB cap on task_manager is the master's own rule: above it the candidate is rejected.
  Status tasks_status = decompress_payload(*tasks_zst, "task_manager", format::k_task_manager_max_bytes, raw);
  if (!tasks_status.ok()) return Status::corruption(tasks_status.message());
  auto tasks = format::decode_task_manager(raw.view(), state.findings);
  if (!tasks.ok()) return tasks.status();
  state.tasks = tasks->tasks.size();

  for (auto& slot : shards) {
    if (!slot) continue;
    state.dropped += slot->dropped;
    state.objects += slot->objects;
    for (auto& [tenant, tally] : slot->tenants) state.tenants[tenant].merge(tally);
  }

  // ApplySnapshotState: non-OK segments are unmounted. Upstream 3b5a5941 throws there.
  for (const auto& seg : state.segments) {
    if (seg.status == model::segment_status::ok) {
      state.mounted_capacity_bytes = util::saturating_add(state.mounted_capacity_bytes, seg.size);
      continue;
    }
    if (!options.fixed_master) {
      return Status::corruption(
          "segment " + seg.id + " ('" + seg.name + "') has status " + model::segment_status::name(seg.status) +
          ": unmounting it during restore throws std::system_error (\"Resource deadlock avoided\") in the master "
          "at upstream 3b5a5941, so this candidate is rejected (use --fixed-master to see what a fixed master "
          "would serve)");
    }
    state.findings.push_back({model::Severity::warning, "segments",
                              "segment " + seg.id + " ('" + seg.name + "') is not OK: unmounted after restore "
                              "(modelling a fixed master)"});
  }
  std::sort(state.findings.begin(), state.findings.end(), [](const model::Finding& a, const model::Finding& b) {
    return std::tie(a.location, a.message) < std::tie(b.location, b.message);
  });
  return state;
}

}  // namespace moonquota::restore
