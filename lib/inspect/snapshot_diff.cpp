#include "inspect/snapshot_diff.hpp"

#include <algorithm>
#include <optional>

#include "inspect/shard_blob_chunks.hpp"
#include "source/object_store.hpp"
#include "util/byte_buffer.hpp"
#include "util/checked_math.hpp"
#include "util/hashing.hpp"
#include "util/thread_pool.hpp"

namespace moonquota::inspect {

namespace {

std::vector<std::optional<format::ShardBlobLocation>> last_blobs(const restore::ScannedSnapshot& snap) {
  std::vector<std::optional<format::ShardBlobLocation>> out(util::k_metadata_shards);
  for (const auto& blob : snap.metadata.shard_blobs) out[blob.shard_index] = blob;  // the last duplicate wins
  return out;
}

restore::SegmentSummary summarize(const model::MountedSegment& s) {
  return {s.id, s.name, s.size, s.status, s.has_allocator};
}

std::vector<SegmentChange> diff_segments(const model::SegmentsPayload& a, const model::SegmentsPayload& b) {
  std::map<std::string, const model::MountedSegment*> in_a;
  std::map<std::string, const model::MountedSegment*> in_b;
  for (const auto& s : a.mounted) in_a.emplace(s.map_key, &s);
  for (const auto& s : b.mounted) in_b.emplace(s.map_key, &s);
  std::vector<SegmentChange> out;
  for (const auto& [key, sa] : in_a) {
    auto it = in_b.find(key);
    if (it == in_b.end()) {
      out.push_back({key, ChangeKind::removed, summarize(*sa), std::nullopt, {}});
      continue;
    }
    const auto* sb = it->second;
    SegmentChange c{key, ChangeKind::changed, summarize(*sa), summarize(*sb), {}};
    if (sa->status != sb->status) c.fields.emplace_back("status");
    if (sa->size != sb->size) c.fields.emplace_back("size");
    if (sa->base != sb->base) c.fields.emplace_back("base");
    if (sa->name != sb->name) c.fields.emplace_back("name");
    if (!c.fields.empty()) out.push_back(std::move(c));
  }
  for (const auto& [key, sb] : in_b) {
    if (in_a.count(key) == 0) out.push_back({key, ChangeKind::added, std::nullopt, summarize(*sb), {}});
  }
  std::sort(out.begin(), out.end(), [](const SegmentChange& x, const SegmentChange& y) { return x.id < y.id; });
  return out;
}

struct Worker {
  util::ByteBuffer raw_a;
  util::ByteBuffer raw_b;
  ShardDiffScratch scratch;
};

}  // namespace

util::Result<DiffResult> diff_snapshots(const DiffSide& side_a, const DiffSide& side_b, const DiffOptions& options,
                                        const ChangeSink& sink) {
  restore::ScanOptions header_options = options.scan;
  header_options.decode_shards = false;
  header_options.progress = nullptr;
  DiffResult result;
  MQ_ASSIGN_OR_RETURN(
      result.a, restore::scan_snapshot(side_a.store, side_a.snapshot_dir, side_a.snapshot_id, header_options, {}));
  MQ_ASSIGN_OR_RETURN(
      result.b, restore::scan_snapshot(side_b.store, side_b.snapshot_dir, side_b.snapshot_id, header_options, {}));
  result.segments = diff_segments(result.a.segments, result.b.segments);

  ShardDiffOptions shard_options;
  shard_options.restore_time_ms = options.scan.restore_time_ms;
  shard_options.a_usable_segments_usable_in_b =
      result.a.segment_table.usable_segments_usable_in(result.b.segment_table);
  const auto blobs_a = last_blobs(result.a);
  const auto blobs_b = last_blobs(result.b);
  std::vector<std::uint32_t> shards;
  for (std::uint32_t s = 0; s < util::k_metadata_shards; ++s) {
    if (blobs_a[s] || blobs_b[s]) shards.push_back(s);
  }
  std::vector<std::optional<format::ShardBlobLocation>> order_a;
  std::vector<std::optional<format::ShardBlobLocation>> order_b;
  for (const std::uint32_t shard : shards) {
    order_a.push_back(blobs_a[shard]);
    order_b.push_back(blobs_b[shard]);
  }
  ShardBlobChunks chunks_a(side_a.store, source::join_key(side_a.snapshot_dir, "metadata"), std::move(order_a));
  ShardBlobChunks chunks_b(side_b.store, source::join_key(side_b.snapshot_dir, "metadata"), std::move(order_b));
  const unsigned threads = std::max(1u, options.threads);
  std::vector<Worker> workers(threads);
  const std::size_t window = threads;
  std::map<std::string, restore::TenantTally, std::less<>> tally_a;
  std::map<std::string, restore::TenantTally, std::less<>> tally_b;
  std::uint64_t objects_seen = 0;
  ObjectChange change;  // the sink's view of each change in turn (its capacity reused)
  for (std::size_t start = 0; start < shards.size(); start += window) {
    const std::size_t count = std::min(window, shards.size() - start);
    std::vector<std::optional<util::Result<ShardDiff>>> results(count);
    if (util::Status s = chunks_a.load(start, count); !s.ok()) return s.with_context("snapshot A");
    if (util::Status s = chunks_b.load(start, count); !s.ok()) return s.with_context("snapshot B");
    util::run_indexed(count, threads, [&](std::size_t i, unsigned w) {
      const std::uint32_t shard = shards[start + i];
      Worker& worker = workers[w];
      std::optional<std::string_view> a;
      std::optional<std::string_view> b;
      if (const auto compressed = chunks_a.blob(start + i)) {
        util::Status s =
            restore::decompress_shard_blob(*compressed, *blobs_a[shard], options.scan.max_payload_bytes, worker.raw_a);
        if (!s.ok()) return void(results[i] = s.with_context("snapshot A"));
        a = worker.raw_a.view();
      }
      if (const auto compressed = chunks_b.blob(start + i)) {
        util::Status s =
            restore::decompress_shard_blob(*compressed, *blobs_b[shard], options.scan.max_payload_bytes, worker.raw_b);
        if (!s.ok()) return void(results[i] = s.with_context("snapshot B"));
        b = worker.raw_b.view();
      }
      results[i] =
          diff_shard(shard, a, result.a.segment_table, b, result.b.segment_table, shard_options, worker.scratch);
    });
    for (auto& r : results) {
      if (!r->ok()) return r->status();
      ShardDiff& d = r->value();
      result.counts += d.counts;
      ++result.shards_compared;
      for (std::size_t c = 0; c < d.changes.size(); ++c) {
        d.changes.get(c, d.shard, change);
        sink(change);
      }
      for (auto& [t, v] : d.tally_a.tenants) tally_a[t].merge(v);
      for (auto& [t, v] : d.tally_b.tenants) tally_b[t].merge(v);
      objects_seen += d.counts.added + d.counts.removed + d.counts.changed + d.counts.unchanged;
      r.reset();  // its changes are delivered: release them before the next shard's
    }
    if (options.scan.progress) options.scan.progress(result.shards_compared, objects_seen);
  }
  for (const auto& [t, v] : tally_a) {
    TenantDelta& d = result.tenants[t];
    d.objects_a = v.objects;
    d.charged_bytes_a = util::saturated_u64(v.charged_bytes);
  }
  for (const auto& [t, v] : tally_b) {
    TenantDelta& d = result.tenants[t];
    d.objects_b = v.objects;
    d.charged_bytes_b = util::saturated_u64(v.charged_bytes);
  }
  return result;
}

}  // namespace moonquota::inspect
