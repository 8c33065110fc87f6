#include "bench_phases.hpp"

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <msgpack.hpp>
#include <mutex>
#include <thread>
#include <vector>

#include "format/metadata_file.hpp"
#include "format/segments_decoder.hpp"
#include "quota/rebuild.hpp"
#include "source/local_object_store.hpp"
#include "util/checked_math.hpp"
#include "util/file_reader.hpp"
#include "util/zstd_file.hpp"

namespace moonquota::bench {

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

PhaseResult scan(const std::string& metadata_path, unsigned threads, const format::ShardHandler& handler,
                 PhaseResult result, Clock::time_point t0) {
  format::SegmentTable no_segments;
  model::Findings findings;
  format::MetadataScanOptions options;
  options.threads = threads;
  util::FileReader file;
  if (util::Status opened = file.open(metadata_path); !opened.ok()) {
    result.error = opened.message();
    return result;
  }
  auto info = format::scan_metadata(file, no_segments, options, handler, findings);
  result.seconds = since(t0);
  if (!info.ok()) {
    result.error = info.status().message();
    return result;
  }
  result.decompressed_bytes = info->decompressed_shard_bytes;
  return result;
}

// Sums size x COMPLETE MEMORY replicas of one ObjectMetadata msgpack object (array form).
std::uint64_t naive_charge(const msgpack::object& meta) {
  if (meta.type != msgpack::type::ARRAY || meta.via.array.size < 7) return 0;
  const auto* e = meta.via.array.ptr;
  std::uint64_t size = e[2].as<std::uint64_t>();
  std::uint32_t n = e[6].as<std::uint32_t>();
  std::uint32_t first = 7;
  if (meta.via.array.size > 7 && e[7].type == msgpack::type::POSITIVE_INTEGER) first = 8;
  std::uint64_t complete_memory = 0;
  for (std::uint32_t k = 0; k < n && first + k < meta.via.array.size; ++k) {
    const auto& r = e[first + k];
    if (r.type != msgpack::type::ARRAY || r.via.array.size != 4) continue;
    if (r.via.array.ptr[1].as<int>() == 3 && r.via.array.ptr[2].as<int>() == 0) ++complete_memory;
  }
  return util::clamped_mul(size, complete_memory);
}

// Decodes the segments payload and decompresses every allocator frame in it on a thread of its
// own, beside the shard scan (as ours does), then adds its error and bytes to `result`.
PhaseResult beside_segments(const std::string& segments_path, const std::function<PhaseResult()>& shards,
                            Clock::time_point t0) {
  std::string segments_error;
  std::uint64_t segments_bytes = 0;
  std::thread segments([&] {
    util::FileReader file;
    if (util::Status opened = file.open(segments_path); !opened.ok()) {
      segments_error = opened.message();
      return;
    }
    util::ZstdStreamReader stream(file);
    model::Findings findings;
    util::Status s = stream.open(std::size_t{1} << 40);
    if (s.ok()) {
      auto decoded = format::decode_segments(stream, format::SegmentsDecodeOptions{}, findings);
      s = decoded.ok() ? stream.finish() : decoded.status();
    }
    if (!s.ok()) segments_error = "segments: " + s.message();
    segments_bytes = stream.content_bytes();
  });
  PhaseResult result = shards();
  segments.join();
  result.seconds = since(t0);
  if (result.error.empty()) result.error = segments_error;
  result.decompressed_bytes += segments_bytes;
  return result;
}

}  // namespace

PhaseResult run_floor(const std::string& metadata_path, unsigned threads) {
  auto t0 = Clock::now();
  std::atomic<std::uint64_t> sink{0};
  format::ShardHandler handler = [&](unsigned, std::uint32_t, std::uint64_t, std::string_view raw) -> util::Status {
    sink += raw.size();
    return {};
  };
  return scan(metadata_path, threads, handler, PhaseResult{}, t0);
}

PhaseResult run_naive(const std::string& metadata_path, unsigned threads) {
  auto t0 = Clock::now();
  std::vector<std::map<std::string, util::u128>> per_worker(threads == 0 ? 1 : threads);
  std::vector<std::uint64_t> objects(per_worker.size(), 0);
  format::ShardHandler handler = [&](unsigned worker, std::uint32_t, std::uint64_t,
                                     std::string_view raw) -> util::Status {
    try {
      msgpack::object_handle oh = msgpack::unpack(raw.data(), raw.size());
      const msgpack::object& shard = oh.get();
      const msgpack::object& list = shard.via.map.ptr[0].val;
      for (std::uint32_t i = 0; i < list.via.array.size; ++i) {
        const auto& entry = list.via.array.ptr[i];
        std::string tenant = entry.via.array.size == 3 ? entry.via.array.ptr[0].as<std::string>() : "default";
        per_worker[worker][tenant] += naive_charge(entry.via.array.ptr[entry.via.array.size - 1]);
        ++objects[worker];
      }
    } catch (const std::exception& e) { return util::Status::corruption(e.what()); }
    return {};
  };
  PhaseResult result = scan(metadata_path, threads, handler, PhaseResult{}, t0);
  util::u128 total = 0;
  for (std::size_t w = 0; w < per_worker.size(); ++w) {
    result.objects += objects[w];
    for (const auto& [t, c] : per_worker[w]) total += c;
  }
  result.charged_bytes = static_cast<std::uint64_t>(total);
  return result;
}

PhaseResult run_frames(const std::string& metadata_path, const std::string& segments_path, unsigned threads) {
  const auto t0 = Clock::now();
  return beside_segments(
      segments_path, [&] { return run_floor(metadata_path, threads); }, t0);
}

PhaseResult run_naive_restore(const std::string& metadata_path, const std::string& segments_path, unsigned threads) {
  const auto t0 = Clock::now();
  return beside_segments(
      segments_path, [&] { return run_naive(metadata_path, threads); }, t0);
}

PhaseResult run_ours(const std::string& store_dir, unsigned threads) {
  auto t0 = Clock::now();
  quota::RebuildRequest request;
  request.selection.store_dir = store_dir;
  request.restore.threads = threads;
  request.restore.restore_time_ms = 0;  // keep every object with a lease: the naive walk applies no filter either
  PhaseResult result;
  source::LocalObjectStore files;
  auto rebuilt = quota::run_rebuild(files, request);
  result.seconds = since(t0);
  if (!rebuilt.ok()) {
    result.error = rebuilt.status().message();
    return result;
  }
  if (!rebuilt->outcome.state) {
    result.error = "no snapshot restored: " + rebuilt->outcome.empty_reason;
    if (!rebuilt->outcome.attempts.empty()) result.error += ": " + rebuilt->outcome.attempts.back().reason;
    return result;
  }
  const auto& s = *rebuilt->outcome.state;
  result.objects = s.objects + s.dropped.non_complete + s.dropped.lease_expired + s.dropped.undecodable;
  result.decompressed_bytes = s.decompressed_metadata_bytes;
  result.charged_bytes = rebuilt->table.total_charged_bytes;
  return result;
}

}  // namespace moonquota::bench
