#include "inspect/snapshot_scan.hpp"

#include <algorithm>
#include <filesystem>
#include <mutex>

#include "format/descriptor.hpp"
#include "format/manifest.hpp"
#include "format/segments_decoder.hpp"
#include "format/task_manager_decoder.hpp"
#include "restore/shard_tally.hpp"
#include "util/byte_buffer.hpp"
#include "util/checked_math.hpp"
#include "util/file_reader.hpp"
#include "util/hashing.hpp"
#include "util/uuid.hpp"
#include "util/zstd_codec.hpp"
#include "util/zstd_file.hpp"

namespace moonquota::inspect {

namespace fs = std::filesystem;
using util::Status;

namespace {

constexpr std::size_t k_findings_per_worker = 10000;
constexpr std::uint64_t k_small_file_bytes = 1 << 20;

// Forwards each entry to the restore model and to the caller's analyzer.
class TeeVisitor final : public format::ShardVisitor {
 public:
  TeeVisitor(restore::ShardTallyBuilder& tally, ShardAnalyzer* analyzer) : m_tally(tally), m_analyzer(analyzer) {}
  [[nodiscard]] std::uint64_t entries() const { return m_entries; }
  void on_entry(const format::ShardEntry& entry) override {
    m_tally.on_entry(entry);
    ++m_entries;
    if (m_analyzer != nullptr) m_analyzer->on_entry(entry);
  }

 private:
  restore::ShardTallyBuilder& m_tally;
  ShardAnalyzer* m_analyzer;
  std::uint64_t m_entries = 0;
};

util::Result<std::string> read_payload(const std::string& dir, const char* name, std::uint64_t max_bytes) {
  auto bytes = util::read_small_file((fs::path(dir) / name).string(), max_bytes);
  if (!bytes.ok()) {
    if (bytes.status().code() == util::StatusCode::not_found) return Status::corruption(std::string(name) + " is missing");
    return Status(bytes.status().code(), std::string(name) + ": " + bytes.status().message());
  }
  return bytes;
}

Status decompress_payload(std::string_view compressed, const char* name, std::size_t limit, util::ByteBuffer& raw) {
  Status s = util::zstd_decompress(compressed, limit, raw);
  if (s.ok()) return s;
  return Status(s.code() == util::StatusCode::limit_exceeded ? s.code() : util::StatusCode::corruption,
                std::string(name) + ": " + s.message());
}

void stat_files(ScannedSnapshot& snap) {
  const char* names[] = {"metadata", "segments", "task_manager", "manifest.txt", "descriptor.txt"};
  for (std::size_t i = 0; i < snap.files.size(); ++i) {
    std::error_code ec;
    const fs::path path = fs::path(snap.snapshot_dir) / names[i];
    snap.files[i].name = names[i];
    snap.files[i].present = fs::is_regular_file(path, ec);
    snap.files[i].bytes = snap.files[i].present ? fs::file_size(path, ec) : 0;
  }
}

Status load_manifest_and_descriptor(ScannedSnapshot& snap) {
  MQ_ASSIGN_OR_RETURN(snap.manifest, read_payload(snap.snapshot_dir, "manifest.txt", k_small_file_bytes));
  auto check = format::check_manifest(snap.manifest, format::ManifestRule::master, snap.snapshot_id);
  if (!check.ok()) return check.status().with_context("manifest.txt");
  for (const auto& w : check->warnings) snap.findings.push_back({model::Severity::warning, "manifest.txt", w});
  for (std::size_t i = 0; i < 3; ++i) {
    if (!snap.files[i].present) return Status::corruption(snap.files[i].name + " is missing");
  }
  auto text = util::read_small_file((fs::path(snap.snapshot_dir) / "descriptor.txt").string(), k_small_file_bytes);
  if (!text.ok()) {
    snap.descriptor_error = text.status().message();
  } else if (auto d = format::parse_descriptor(*text); d.ok()) {
    snap.descriptor = *d;
  } else {
    snap.descriptor_error = d.status().message();
  }
  if (!snap.descriptor_error.empty()) {
    snap.findings.push_back({model::Severity::warning, "descriptor.txt",
                             "unusable (" + snap.descriptor_error + "): never listed by the catalog"});
  }
  return {};
}

Status load_segments(ScannedSnapshot& snap, const ScanOptions& options) {
  // Streamed from the file: the compressed bytes are never held whole next to the raw ones.
  util::ByteBuffer raw;
  if (Status s = util::zstd_decompress_file((fs::path(snap.snapshot_dir) / "segments").string(),
                                            options.max_payload_bytes, raw);
      !s.ok()) {
    return Status(s.code(), "segments: " + s.message());
  }
  snap.segments_raw_bytes = raw.size();
  format::SegmentsDecodeOptions seg_options;
  seg_options.keep_allocator_blobs = options.keep_allocator_blobs;
  seg_options.on_node_tables = options.on_node_tables;
  auto segments = format::decode_segments(raw.view(), seg_options, snap.findings);
  if (!segments.ok()) return segments.status().with_context("segments");
  snap.segments = std::move(segments).value();
  for (const auto& seg : snap.segments.mounted) {
    if (auto uuid = util::parse_uuid_lenient(seg.map_key)) snap.segment_table.add(seg.map_key, *uuid, {seg.status, seg.has_allocator});
  }
  return {};
}

Status load_tasks(ScannedSnapshot& snap, const ScanOptions& options) {
  MQ_ASSIGN_OR_RETURN(std::string compressed, read_payload(snap.snapshot_dir, "task_manager", options.max_payload_bytes));
  util::ByteBuffer raw;
  Status s = decompress_payload(compressed, "task_manager", format::k_task_manager_max_bytes, raw);
  if (!s.ok()) return Status::corruption(s.message());  // the 1 GiB cap is the master's own rule
  snap.task_manager_raw_bytes = raw.size();
  auto tasks = format::decode_task_manager(raw.view(), snap.findings);
  if (!tasks.ok()) return tasks.status().with_context("task_manager");
  snap.tasks = std::move(tasks->tasks);
  snap.tasks_skipped = tasks->skipped;
  return {};
}

// The master's ApplySnapshotState at upstream 3b5a5941 throws on the first non-OK segment (§16).
void apply_segment_rule(ScannedSnapshot& snap) {
  for (const auto& seg : snap.segments.mounted) {
    if (seg.status == model::segment_status::ok) continue;
    snap.master_rejection = "segment " + seg.id + " ('" + seg.name + "') has status " +
                            model::segment_status::name(seg.status) +
                            ": unmounting it during restore throws std::system_error (\"Resource deadlock avoided\") "
                            "in the master at upstream 3b5a5941, so the master rejects this snapshot";
    return;
  }
}

struct ShardSlot {
  std::uint64_t sequence = 0;
  restore::ShardTally tally;
};

}  // namespace

Status read_shard_blob(const std::string& metadata_path, const format::ShardBlobLocation& blob,
                       std::size_t max_shard_bytes, util::ByteBuffer& compressed, util::ByteBuffer& decompressed) {
  util::FileReader file;
  MQ_RETURN_IF_ERROR(file.open(metadata_path));
  MQ_RETURN_IF_ERROR(file.read_exact(blob.file_offset, nullptr));
  MQ_RETURN_IF_ERROR(file.read_exact(blob.bytes, compressed));
  Status s = util::zstd_decompress(compressed.view(), max_shard_bytes, decompressed);
  if (s.ok()) return s;
  return Status(s.code() == util::StatusCode::limit_exceeded ? s.code() : util::StatusCode::corruption,
                "metadata: shard " + std::to_string(blob.shard_index) + " (BIN at byte offset " +
                    std::to_string(blob.file_offset) + "): " + s.message());
}

util::Result<ScannedSnapshot> scan_snapshot(const std::string& snapshot_dir, const std::string& snapshot_id,
                                            const ScanOptions& options, const std::vector<ShardAnalyzer*>& analyzers) {
  ScannedSnapshot snap;
  snap.snapshot_id = snapshot_id;
  snap.snapshot_dir = snapshot_dir;
  stat_files(snap);
  MQ_RETURN_IF_ERROR(load_manifest_and_descriptor(snap));
  MQ_RETURN_IF_ERROR(load_segments(snap, options));

  const unsigned threads = std::max<unsigned>(1, static_cast<unsigned>(analyzers.size()));
  std::vector<format::ObjectView> views(threads);
  std::vector<restore::ShardTallyBuilder> builders(threads);
  std::vector<model::Findings> worker_findings(threads);
  std::vector<std::optional<ShardSlot>> slots(util::k_metadata_shards);
  std::mutex mutex;
  std::atomic<bool> stop{false};
  std::atomic<std::uint64_t> shards_done{0};
  std::atomic<std::uint64_t> entries{0};
  format::ShardHandler handler = [&](unsigned worker, std::uint32_t shard, std::uint64_t sequence,
                                     std::string_view bytes) -> Status {
    if (stop.load()) return Status::internal("scan stopped");
    ShardAnalyzer* analyzer = worker < analyzers.size() ? analyzers[worker] : nullptr;
    const ShardContext context{shard, sequence, bytes};
    if (analyzer != nullptr) analyzer->begin_shard(context);
    builders[worker].reset();
    TeeVisitor tee(builders[worker], analyzer);
    model::Findings& findings = worker_findings[worker];
    const std::size_t before = findings.size();
    MQ_RETURN_IF_ERROR(format::decode_shard(bytes, shard, snap.segment_table, views[worker], tee, findings));
    ShardSlot slot;
    slot.sequence = sequence;
    builders[worker].finish(shard, options.restore_time_ms, slot.tally, findings);
    if (findings.size() > k_findings_per_worker) findings.resize(std::max(before, k_findings_per_worker));
    const std::uint64_t seen = tee.entries();
    const std::uint64_t total = entries.fetch_add(seen) + seen;
    {
      std::lock_guard lock(mutex);
      auto& target = slots[shard];
      if (!target || target->sequence < sequence) target = std::move(slot);
    }
    if (options.progress) options.progress(shards_done.fetch_add(1) + 1, total);
    if (analyzer != nullptr && !analyzer->end_shard(context)) {
      stop.store(true);
      return Status::internal("scan stopped");
    }
    return {};
  };
  format::MetadataScanOptions scan_options;
  scan_options.threads = threads;
  scan_options.max_shard_bytes = options.max_payload_bytes;
  scan_options.max_value_bytes = options.max_payload_bytes;
  scan_options.decode_shards = options.decode_shards;
  auto info = format::scan_metadata_file((fs::path(snapshot_dir) / "metadata").string(), snap.segment_table,
                                         scan_options, handler, snap.findings);
  if (!info.ok() && !stop.load()) return info.status();
  snap.stopped_early = stop.load();
  if (info.ok()) snap.metadata = std::move(info).value();
  snap.entries = entries.load();
  for (auto& f : worker_findings) {
    for (auto& x : f) snap.findings.push_back(std::move(x));
  }
  std::uint64_t distinct = 0;
  for (auto& slot : slots) {
    if (!slot) continue;
    ++distinct;
    snap.dropped += slot->tally.dropped;
    snap.restored_objects += slot->tally.objects;
    for (auto& [tenant, tally] : slot->tally.tenants) {
      auto it = snap.restored_tenants.find(tenant);
      if (it == snap.restored_tenants.end()) it = snap.restored_tenants.emplace(tenant, restore::TenantTally{}).first;
      it->second.merge(tally);
    }
  }
  if (options.decode_shards && !snap.stopped_early && snap.metadata.shard_entries > distinct) {
    snap.duplicate_shard_blobs = snap.metadata.shard_entries - distinct;
    snap.findings.push_back({model::Severity::error, "metadata",
                             std::to_string(snap.duplicate_shard_blobs) +
                                 " duplicate shard keys (the last one of each wins)"});
  }
  if (options.decode_tasks && !snap.stopped_early) MQ_RETURN_IF_ERROR(load_tasks(snap, options));
  apply_segment_rule(snap);
  std::stable_sort(snap.findings.begin(), snap.findings.end(), [](const model::Finding& a, const model::Finding& b) {
    return std::tie(a.location, a.message) < std::tie(b.location, b.message);
  });
  return snap;
}

}  // namespace moonquota::inspect
