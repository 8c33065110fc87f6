// `snapshot-forge --large N`: a synthetic store of N objects for load tests, written with memory
// that does not grow with N. The mix is deterministic for a given (N, seed, tenants): the same
// flags give the same bytes whatever the thread count.
//
// What it writes (one snapshot, latest): tenants "tenant-00".."tenant-K-1" with skewed object
// counts (weight 1/(t+1)) and per-tenant size classes; keys "<tenant>/model-M/layer-L/block-I";
// mostly one MEMORY replica, some two, some MEMORY+DISK or MEMORY+LOCAL_DISK, a few DISK-only or
// LOCAL_DISK-only; about 0.2% PROCESSING (in-flight puts, lease 0) and 0.3% with an expired lease.
// MEMORY replicas are placed on per-client segments of 3.75 GiB (multiplier_bits 0), each with an
// endpoint of its own (10.0.<client>.<k+1>:17812: a standby keys its registry by endpoint); a segment is
// closed when its next allocation would not fit or would need more node slots than the initial
// capacity, so allocator node tables never grow (growth is not pinned by the spec).
//
// Memory: objects are bucketed by shard into a temporary index file (4 bytes per object, on
// disk), then generated, sorted, encoded and compressed a batch of shards at a time. Closed
// segments are spilled to a temporary file and the `segments` payload is compressed as a stream
// with its size pledged, so it is still one zstd frame with the content size in its header.
#pragma once

#include <cstdint>
#include <string>

#include "util/status.hpp"

namespace moonquota::forge {

// descriptor.txt's created_at_ms of every large store: 2026-08-22T05:12:00.123Z (the default id's
// instant). Its last_included_seq is 0: an OpLog tail continues from sequence 1.
inline constexpr std::int64_t k_large_store_created_at_ms = 1787375520123;

// Segment sizes of `--large` stores: 3.75 GiB (multiplier_bits 0) by default; --segment-bytes
// within [1 MiB, 4 TiB] (a client's chain spans at most 16 TiB of addresses).
inline constexpr std::uint64_t k_default_large_segment_bytes = 4026531840ULL;
inline constexpr std::uint64_t k_min_large_segment_bytes = std::uint64_t{1} << 20;
inline constexpr std::uint64_t k_max_large_segment_bytes = std::uint64_t{1} << 42;

// The tools' --threads range (tools/tool_common.cpp): more is invalid_argument, not a thread storm.
inline constexpr unsigned k_max_large_store_threads = 256;

struct LargeStoreOptions {
  std::uint64_t objects = 0;
  // More objects of the same mix after the first `objects` (a later snapshot of the same store,
  // large_twin.hpp): the first `objects` entries and the segment ids are those of the store
  // without them.
  std::uint64_t added_objects = 0;
  std::uint64_t seed = 1;
  std::uint32_t tenants = 8;  // 1 .. 256
  std::uint32_t clients = 4;  // clients, each with its own chain of segments
  // Segment size: 0 = k_default_large_segment_bytes with node tables that never grow; any other
  // size (k_min_large_segment_bytes .. k_max_large_segment_bytes) lets a segment's node table grow
  // as far as its allocator allows before the segment is closed (few large segments with node
  // tables of a million nodes and more, as a long-running master's are).
  std::uint64_t segment_bytes = 0;
  unsigned threads = 1;  // 0 or 1: the calling thread only; at most k_max_large_store_threads
  bool force = false;
  std::string cluster_id = "mooncake_cluster";
  std::string snapshot_id = "20260822_051200_123";
};

struct LargeStoreSummary {
  std::uint64_t objects = 0;
  std::uint64_t replicas = 0;
  std::uint64_t segments = 0;
  std::uint64_t non_empty_shards = 0;
  std::uint64_t metadata_bytes = 0;
  std::uint64_t segments_bytes = 0;
};

// Writes the store under `out_dir` (layout as write_store). Errors: invalid_argument for bad
// options (checked before anything is written) or a non-empty output without force; io_error for
// file problems. A failure leaves no partial store and no temporary file (PartialStoreGuard).
[[nodiscard]] util::Result<LargeStoreSummary> write_large_store(const LargeStoreOptions& options,
                                                                const std::string& out_dir);

}  // namespace moonquota::forge
