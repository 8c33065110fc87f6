// One snapshot directory decoded for inspection: the master's decoders (segments -> metadata ->
// task_manager, snapshot-format.md §3.1 step 3.4) with caller-supplied shard analyzers running
// beside restore::ShardTallyBuilder, so every inspection also knows what a restore keeps.
//
// Unlike restore::decode_candidate, a scan does not stop at the master's candidate-level
// decisions that leave the bytes decodable (a non-OK segment, §16): it records them in
// `master_rejection` and goes on. Bytes the master cannot decode at all (a rejection inside
// manifest, segments, metadata or task_manager) are an error Status (corruption) naming file,
// shard, entry and byte offset; our memory guards give limit_exceeded.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "format/metadata_file.hpp"
#include "format/object_decoder.hpp"
#include "format/shard_decoder.hpp"
#include "model/finding.hpp"
#include "model/snapshot_types.hpp"
#include "restore/restored_state.hpp"
#include "util/byte_buffer.hpp"
#include "util/status.hpp"

namespace moonquota::inspect {

// Where a shard came from, for analyzers.
struct ShardContext {
  std::uint32_t shard_index = 0;
  std::uint64_t sequence = 0;       // position of the blob among the file's shard entries
  std::string_view decompressed;    // the whole decompressed shard (valid during the calls)
};

// Per-worker consumer of decoded entries. begin_shard, on_entry (file order), end_shard are
// called for one shard on one thread; different workers run concurrently on their own analyzer.
class ShardAnalyzer : public format::ShardVisitor {
 public:
  virtual void begin_shard(const ShardContext& /*shard*/) {}
  // Return false to stop the scan early (e.g. a listing limit was reached).
  virtual bool end_shard(const ShardContext& /*shard*/) { return true; }
};

struct ScanOptions {
  std::size_t max_payload_bytes = std::size_t{1} << 30;  // our guard per decompressed payload/shard
  std::uint64_t restore_time_ms = 0;                      // for the post-restore filter (§10)
  bool keep_allocator_blobs = false;                      // node tables in `segments` (verify, dump)
  std::function<void(const model::AllocatorCore&)> on_node_tables;  // see SegmentsDecodeOptions
  bool decode_shards = true;  // false: only shard locations are read (diff fetches shards itself)
  bool decode_tasks = true;
  // Called from worker threads after each shard (objects = entries seen so far). May be empty.
  std::function<void(std::uint64_t shards, std::uint64_t objects)> progress;
};

struct PayloadFile {
  std::string name;
  bool present = false;
  std::uint64_t bytes = 0;  // on disk
};

struct ScannedSnapshot {
  std::string snapshot_id;
  std::string snapshot_dir;
  std::array<PayloadFile, 5> files;  // metadata, segments, task_manager, manifest.txt, descriptor.txt
  std::string manifest;
  std::optional<model::SnapshotDescriptor> descriptor;
  std::string descriptor_error;  // why descriptor.txt is unusable (empty when it parsed)

  model::SegmentsPayload segments;
  std::uint64_t segments_raw_bytes = 0;
  format::SegmentTable segment_table;

  format::MetadataFileInfo metadata;
  std::uint64_t entries = 0;                 // shard entries seen (every blob, duplicates included)
  std::uint64_t duplicate_shard_blobs = 0;   // blobs replaced by a later one with the same index

  std::vector<model::TaskRecord> tasks;
  std::uint64_t tasks_skipped = 0;
  std::uint64_t task_manager_raw_bytes = 0;

  // The master model (restore::ShardTallyBuilder per shard; the last duplicate shard wins).
  std::map<std::string, restore::TenantTally, std::less<>> restored_tenants;
  restore::DropCounts dropped;
  std::uint64_t restored_objects = 0;
  std::optional<std::string> master_rejection;  // decodable, but the master rejects it (§16)

  bool stopped_early = false;  // an analyzer asked to stop: metadata totals and tasks are partial
  model::Findings findings;    // every decoder and restore-model finding, sorted
};

// Decodes the snapshot at `snapshot_dir`. `analyzers` has one entry per worker thread (its size
// is the thread count, at least 1; entries may be null); each is used by one thread only.
[[nodiscard]] util::Result<ScannedSnapshot> scan_snapshot(const std::string& snapshot_dir,
                                                          const std::string& snapshot_id, const ScanOptions& options,
                                                          const std::vector<ShardAnalyzer*>& analyzers);

// Reads and decompresses one shard blob located by `blob` (diff, verify's second pass).
[[nodiscard]] util::Status read_shard_blob(const std::string& metadata_path, const format::ShardBlobLocation& blob,
                                           std::size_t max_shard_bytes, util::ByteBuffer& compressed,
                                           util::ByteBuffer& decompressed);

}  // namespace moonquota::inspect
