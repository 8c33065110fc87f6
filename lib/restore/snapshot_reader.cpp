#include "restore/snapshot_reader.hpp"

#include <algorithm>
#include <optional>

#include "format/manifest.hpp"
#include "format/segments_decoder.hpp"
#include "format/task_manager_decoder.hpp"
#include "restore/scan_hooks.hpp"
#include "restore/segments_load.hpp"
#include "restore/shard_scan.hpp"
#include "source/embedded_catalog.hpp"
#include "source/object_store.hpp"
#include "util/byte_buffer.hpp"
#include "util/checked_math.hpp"
#include "util/uuid.hpp"
#include "util/zstd_codec.hpp"
#include "util/zstd_file.hpp"

namespace moonquota::restore {

using util::Status;

namespace {

constexpr std::uint64_t k_small_file_bytes = 1 << 20;

util::Result<std::string> read_payload(source::ObjectStore& store, const std::string& dir, const char* name,
                                       std::uint64_t max_bytes) {
  auto bytes = store.get(source::join_key(dir, name), max_bytes);
  if (!bytes.ok()) {
    if (bytes.status().code() == util::StatusCode::not_found)
      return Status::corruption(std::string(name) + " is missing");
    return Status(bytes.status().code(), std::string(name) + ": " + bytes.status().message());
  }
  return bytes;
}

// Phase "stat": the size (and ETag) of each of the five objects. Errors: a store that could not
// be used (unavailable); a missing file is recorded, not an error.
Status stat_files(source::ObjectStore& store, ScannedSnapshot& snap) {
  const char* names[] = {"metadata", "segments", "task_manager", "manifest.txt", "descriptor.txt"};
  for (std::size_t i = 0; i < snap.files.size(); ++i) {
    auto size = store.size(source::join_key(snap.snapshot_dir, names[i]));
    if (!size.ok() && size.status().code() == util::StatusCode::unavailable) return size.status();
    snap.files[i].name = names[i];
    snap.files[i].present = size.ok();
    if (!size.ok() && size.status().code() != util::StatusCode::not_found) {
      snap.files[i].absent_reason = size.status().message();
    }
    snap.files[i].bytes = size.ok() ? *size : 0;
    if (size.ok()) {
      if (auto details = store.details(source::join_key(snap.snapshot_dir, names[i])); details) {
        snap.files[i].etag = details->etag;
      }
    }
  }
  return {};
}

// Phase "manifest": manifest.txt checked by the rules' reader, the three payloads present,
// descriptor.txt parsed (the standby needs it).
Status load_manifest_and_descriptor(source::ObjectStore& store, ScannedSnapshot& snap, const ScanOptions& options) {
  const bool standby = options.rules == ReadRules::standby;
  MQ_ASSIGN_OR_RETURN(snap.manifest, read_payload(store, snap.snapshot_dir, "manifest.txt", k_small_file_bytes));
  auto check = format::check_manifest(
      snap.manifest, standby ? format::ManifestRule::standby : format::ManifestRule::master, snap.snapshot_id);
  if (!check.ok()) return check.status();  // its messages name manifest.txt
  for (const auto& w : check->warnings) snap.findings.push_back({model::Severity::warning, "manifest.txt", w});
  // The master needs all three payloads before it decodes any; the standby never reads task_manager.
  for (std::size_t i = 0; i < (standby ? 2 : 3); ++i) {
    const PayloadFile& file = snap.files[i];
    if (!file.present) {
      return Status::corruption(file.name + (file.absent_reason.empty() ? " is missing" : ": " + file.absent_reason));
    }
  }
  auto descriptor = source::read_descriptor(store, snap.snapshot_dir);
  if (!descriptor.ok() && descriptor.status().code() == util::StatusCode::unavailable) return descriptor.status();
  if (descriptor.ok()) {
    snap.descriptor = *descriptor;
    if (options.on_descriptor) options.on_descriptor(*snap.descriptor);
  } else {
    snap.descriptor_error = descriptor.status().message();
    // The standby needs last_included_seq: an unusable descriptor fails its load.
    if (standby) return Status(descriptor.status().code(), "descriptor.txt: " + snap.descriptor_error);
  }
  if (!snap.descriptor_error.empty() && options.descriptor_finding) {
    snap.findings.push_back({model::Severity::warning, "descriptor.txt",
                             "unusable (" + snap.descriptor_error + "): never listed by the catalog"});
  }
  return {};
}

Status load_segments(source::ObjectStore& store, ScannedSnapshot& snap, const ScanOptions& options) {
  // Streamed from the file and decoded as it is decompressed: neither the compressed nor the
  // decompressed payload is ever held whole (only the "ms" entry being decoded).
  MQ_ASSIGN_OR_RETURN(auto file, store.open(source::join_key(snap.snapshot_dir, "segments")));
  util::ZstdStreamReader stream(*file);
  if (Status s = stream.open(options.max_payload_bytes); !s.ok()) return util::payload_error(s, "segments");
  format::SegmentsDecodeOptions seg_options;
  seg_options.keep_allocator_blobs = options.keep_allocator_blobs;
  seg_options.on_node_records = options.on_node_records;
  auto segments = format::decode_segments(stream, seg_options, snap.findings);
  // The whole frame is checked before the decoder's verdict counts: a damaged frame is reported
  // as such, as when the payload was decompressed before decoding. zstd names some errors
  // differently when it decompresses piece by piece, so the message of a damaged frame comes from
  // the whole-payload decompression (this error path only).
  if (Status s = stream.finish(); !s.ok()) {
    util::ByteBuffer raw;
    auto again = store.open(source::join_key(snap.snapshot_dir, "segments"));
    if (again.ok()) {
      if (Status whole = util::zstd_decompress_stream(**again, options.max_payload_bytes, raw); !whole.ok()) s = whole;
    }
    return util::payload_error(s, "segments");
  }
  if (!segments.ok()) return segments.status().with_context("segments");
  snap.segments_raw_bytes = stream.content_bytes();
  snap.segments = std::move(segments).value();
  for (const auto& seg : snap.segments.mounted) {
    if (auto uuid = util::parse_uuid_lenient(seg.map_key))
      snap.segment_table.add(seg.map_key, *uuid, {seg.status, seg.has_allocator});
  }
  if (options.on_segments) options.on_segments(snap.segments);
  return {};
}

// Phase "tasks": the task_manager payload (the master's rules only).
Status load_tasks(source::ObjectStore& store, ScannedSnapshot& snap, const ScanOptions& options) {
  MQ_ASSIGN_OR_RETURN(std::string compressed,
                      read_payload(store, snap.snapshot_dir, "task_manager", options.max_payload_bytes));
  util::ByteBuffer raw;
  Status s = util::zstd_decompress(compressed, format::k_task_manager_max_bytes, raw);
  // The 1 GiB cap on task_manager is the master's own rule: above it the candidate is rejected.
  if (!s.ok()) return Status::corruption(util::payload_error(s, "task_manager").message());
  snap.task_manager_raw_bytes = raw.size();
  auto tasks = format::decode_task_manager(raw.view(), snap.findings);
  if (!tasks.ok()) return tasks.status();  // its messages name task_manager
  snap.tasks = std::move(tasks->tasks);
  snap.tasks_skipped = tasks->skipped;
  return {};
}

// The master's ApplySnapshotState at upstream 3b5a5941 throws on the first non-OK segment (§16).
void apply_segment_rule(ScannedSnapshot& snap) {
  for (const auto& seg : snap.segments.mounted) {
    if (seg.status == model::segment_status::ok) continue;
    snap.non_ok_segment = SegmentSummary{seg.id, seg.name, seg.size, seg.status, seg.has_allocator};
    snap.master_rejection = non_ok_segment_reason(*snap.non_ok_segment) + ", so the master rejects this snapshot";
    return;
  }
}

// Whether the segments payload may be read while the shards are (ScanOptions::overlap_segments):
// nothing may need the payload before the first shard, and one thread means one thread.
bool overlap_possible(const ScanOptions& options, const std::vector<ShardAnalyzer*>& analyzers) {
  if (!options.overlap_segments || !options.decode_shards || analyzers.size() < 2) return false;
  if (options.keep_allocator_blobs || options.on_node_records || options.on_segments) return false;
  return std::all_of(analyzers.begin(), analyzers.end(), [](const ShardAnalyzer* a) { return a == nullptr; });
}

// Phase "segments": the segments payload read now or, with the overlap, on a thread of its own
// while the shards are read (its fields of `snap` are written by that thread only until wait()).
Status start_segments(source::ObjectStore& store, ScannedSnapshot& snap, const ScanOptions& options, bool overlap,
                      std::optional<SegmentsLoad>& segments_load) {
  if (!overlap) return load_segments(store, snap, options);
  segments_load.emplace([&store, &snap, &options](model::Findings& findings) {
    ScannedSnapshot side;
    side.snapshot_dir = snap.snapshot_dir;
    Status s = load_segments(store, side, options);
    findings = std::move(side.findings);
    if (s.ok()) {
      snap.segments = std::move(side.segments);
      snap.segments_raw_bytes = side.segments_raw_bytes;
      snap.segment_table = std::move(side.segment_table);
    }
    return s;
  });
  return {};
}

// Phase "metadata": every shard blob through `shards`, on the workers. The overlapped segments
// load's error comes first, as when the payload was read before the shards; an analyzer that
// stopped the scan is no error.
util::Result<format::MetadataFileInfo> read_metadata(source::ObjectStore& store, ScannedSnapshot& snap,
                                                     const ScanOptions& options, unsigned threads, ShardScan& shards,
                                                     std::optional<SegmentsLoad>& segments_load,
                                                     model::Findings& metadata_findings) {
  format::MetadataScanOptions scan_options;
  scan_options.threads = threads;
  scan_options.max_shard_bytes = options.max_payload_bytes;
  scan_options.max_value_bytes = options.max_payload_bytes;
  scan_options.decode_shards = options.decode_shards;
  scan_options.before_segment_table_use = [&shards] { return shards.await_segments(); };
  const format::ShardHandler handler = [&shards](unsigned worker, std::uint32_t shard, std::uint64_t sequence,
                                                 std::string_view bytes) {
    return shards.decode(worker, shard, sequence, bytes);
  };
  util::Result<format::MetadataFileInfo> info = Status::internal("metadata not read");
  auto metadata_file = store.open(source::join_key(snap.snapshot_dir, "metadata"));
  if (metadata_file.ok()) {
    info = format::scan_metadata(**metadata_file, snap.segment_table, scan_options, handler, metadata_findings);
  }
  if (segments_load) {
    MQ_RETURN_IF_ERROR(segments_load->wait());
    for (auto& f : segments_load->take_findings()) snap.findings.push_back(std::move(f));
  }
  if (!metadata_file.ok()) return metadata_file.status();
  if (!info.ok() && !shards.stopped()) return info.status();
  return info.ok() ? std::move(info).value() : format::MetadataFileInfo{};
}

// Phase "verdict": the master's decision on a snapshot it could decode, and the findings in order.
void decide_verdict(ScannedSnapshot& snap) {
  apply_segment_rule(snap);
  std::stable_sort(snap.findings.begin(), snap.findings.end(), [](const model::Finding& a, const model::Finding& b) {
    return std::tie(a.location, a.message) < std::tie(b.location, b.message);
  });
}

}  // namespace

std::string non_ok_segment_reason(const SegmentSummary& seg) {
  return "segment " + seg.id + " ('" + seg.name + "') has status " + model::segment_status::name(seg.status) +
         ": unmounting it during restore throws std::system_error (\"Resource deadlock avoided\") in the master at "
         "upstream 3b5a5941";
}

bool ScannedSnapshot::metadata_checked() const { return metadata.file_bytes > 0 && !stopped_early && shards_decoded; }

Status read_shard_blob(source::ObjectStore& store, const std::string& metadata_key,
                       const format::ShardBlobLocation& blob, std::size_t max_shard_bytes, util::ByteBuffer& compressed,
                       util::ByteBuffer& decompressed) {
  MQ_RETURN_IF_ERROR(store.get_range(metadata_key, blob.file_offset, blob.bytes, compressed));
  return decompress_shard_blob(compressed.view(), blob, max_shard_bytes, decompressed);
}

Status decompress_shard_blob(std::string_view compressed, const format::ShardBlobLocation& blob,
                             std::size_t max_shard_bytes, util::ByteBuffer& decompressed) {
  Status s = util::zstd_decompress(compressed, max_shard_bytes, decompressed);
  if (s.ok()) return s;
  return util::payload_error(s, format::shard_blob_context(blob.shard_index, blob.file_offset));
}

util::Result<ScannedSnapshot> scan_snapshot(source::ObjectStore& store, const std::string& snapshot_dir,
                                            const std::string& snapshot_id, const ScanOptions& options,
                                            const std::vector<ShardAnalyzer*>& analyzers) {
  return scan_snapshot_with_hooks(store, snapshot_dir, snapshot_id, options, analyzers, ScanHooks{});
}

util::Result<ScannedSnapshot> scan_snapshot_with_hooks(source::ObjectStore& store, const std::string& snapshot_dir,
                                                       const std::string& snapshot_id, const ScanOptions& options,
                                                       const std::vector<ShardAnalyzer*>& analyzers,
                                                       const ScanHooks& hooks) {
  ScannedSnapshot snap;
  snap.snapshot_id = snapshot_id;
  snap.snapshot_dir = snapshot_dir;
  MQ_RETURN_IF_ERROR(stat_files(store, snap));
  MQ_RETURN_IF_ERROR(load_manifest_and_descriptor(store, snap, options));
  // Segments, metadata (the shards), then tasks and the verdict under the master's rules.
  const bool overlap = overlap_possible(options, analyzers);
  std::optional<SegmentsLoad> segments_load;
  MQ_RETURN_IF_ERROR(start_segments(store, snap, options, overlap, segments_load));

  const unsigned threads = std::max<unsigned>(1, static_cast<unsigned>(analyzers.size()));
  ShardScan shards(options, analyzers, snap.segment_table, segments_load ? &*segments_load : nullptr,
                   hooks.speculate_every_shard);
  model::Findings metadata_findings;
  MQ_ASSIGN_OR_RETURN(format::MetadataFileInfo metadata,
                      read_metadata(store, snap, options, threads, shards, segments_load, metadata_findings));
  if (overlap && !shards.speculation_holds(snap.segment_table)) {
    // An object names a segment the table does not make usable: read again, table first.
    ScanOptions again = options;
    again.overlap_segments = false;
    auto second = scan_snapshot_with_hooks(store, snapshot_dir, snapshot_id, again, analyzers, hooks);
    if (second.ok()) second->overlap = shards.overlap(true);
    return second;
  }
  for (auto& f : metadata_findings) snap.findings.push_back(std::move(f));
  snap.stopped_early = shards.stopped();
  snap.shards_decoded = options.decode_shards;
  snap.overlap = shards.overlap(false);
  snap.metadata = std::move(metadata);
  shards.merge_into(snap);
  if (options.rules == ReadRules::standby) return snap;  // no task_manager, no unmount step, findings in file order
  if (options.decode_tasks && !snap.stopped_early) MQ_RETURN_IF_ERROR(load_tasks(store, snap, options));
  decide_verdict(snap);
  return snap;
}

}  // namespace moonquota::restore
