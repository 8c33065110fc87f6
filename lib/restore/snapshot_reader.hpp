// The one snapshot reader: the master's restore of one candidate (snapshot-format.md §3.1 step 3:
// manifest, the three payloads, segments -> metadata -> task_manager, §9 skip/reject rules, §10
// post-restore filter, "the last duplicate shard wins") written once, for every tool. Every byte
// comes through source::ObjectStore. The shard scan runs ShardTallyBuilder (what a
// restore keeps, per tenant) and, beside it, caller-supplied analyzers (the visitor hook that
// snapshot-inspect's stats, listing and verify feed on).
//
// The master's verdict is decided here only: bytes the master cannot decode (a rejection inside
// manifest, segments, metadata or task_manager) are an error Status (corruption) naming file,
// shard, entry and byte offset; our memory guards give limit_exceeded. A candidate-level decision
// that leaves the bytes decodable (a non-OK segment at upstream 3b5a5941, §16) is recorded in
// `master_rejection` and the read goes on, so inspection still sees everything;
// decode_candidate turns it into the rejection.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "format/metadata_file.hpp"
#include "format/object_decoder.hpp"
#include "format/shard_decoder.hpp"
#include "model/finding.hpp"
#include "model/snapshot_types.hpp"
#include "restore/restored_state.hpp"
#include "source/object_store.hpp"
#include "util/byte_buffer.hpp"
#include "util/status.hpp"

namespace moonquota::restore {

// Where a shard came from, for analyzers.
struct ShardContext {
  std::uint32_t shard_index = 0;
  std::uint64_t sequence = 0;     // position of the blob among the file's shard entries
  std::string_view decompressed;  // the whole decompressed shard (valid during the calls)
};

// Per-worker consumer of decoded entries. begin_shard, on_entry (file order), end_shard are
// called for one shard on one thread; different workers run concurrently on their own analyzer.
class ShardAnalyzer : public format::ShardVisitor {
 public:
  virtual void begin_shard(const ShardContext& /*shard*/) {}
  // Return false to stop the scan early (e.g. a listing limit was reached).
  virtual bool end_shard(const ShardContext& /*shard*/) { return true; }
};

// Whose decision sequence the read follows.
enum class ReadRules {
  // The master's restore of a candidate (§3.1 step 3): manifest master rule, all three payloads
  // required, task_manager decoded, restore model (ShardTallyBuilder) per shard, the non-OK
  // segment rule.
  master,
  // A standby's bootstrap (snapshot-format.md §11): manifest standby rule, descriptor.txt
  // required (its last_included_seq starts the replay), task_manager never read, no restore
  // model: the analyzers (restore/standby_loader) apply the standby's own drop rules.
  standby,
};

// The restore model (restore_time_ms, charge_model, lease_model, max_payload_bytes), then what
// to read and how.
struct ScanOptions : RestoreModel {
  ReadRules rules = ReadRules::master;
  bool keep_allocator_blobs = false;  // node tables in `segments` (dump)
  // Node tables piece by piece (verify): see SegmentsDecodeOptions.
  std::function<void(std::string_view records, std::uint64_t first_node, std::uint64_t nodes)> on_node_records;
  bool decode_shards = true;  // false: only shard locations are read (diff fetches shards itself)
  bool decode_tasks = true;
  // false: an unusable descriptor.txt is not added to the findings (the restore path reports it
  // among the catalog findings); `descriptor_error` says why either way.
  bool descriptor_finding = true;
  // Called once with the parsed descriptor.txt, before the segments payload is read.
  std::function<void(const model::SnapshotDescriptor&)> on_descriptor;
  // Called once with the decoded `segments` payload, before the first shard is decoded.
  std::function<void(const model::SegmentsPayload&)> on_segments;
  // Read the segments payload on a thread of its own while the shards are read and decoded
  // (format::SegmentSpeculation), when nothing needs the payload before the first shard (no
  // analyzer, no on_segments / on_node_records, no kept allocator blobs) and threads > 1. The
  // result is the same either way; a store whose objects name a segment the table does not make
  // usable is read a second time without the overlap (the progress callback then starts over).
  bool overlap_segments = true;
  // Called from worker threads after each shard (objects = entries seen so far). May be empty.
  std::function<void(std::uint64_t shards, std::uint64_t objects)> progress;
};

struct PayloadFile {
  std::string name;
  bool present = false;
  std::string absent_reason;        // not present for another reason than its absence ("'P' is not a regular file")
  std::uint64_t bytes = 0;          // on disk, or the object's size
  std::optional<std::string> etag;  // the object's ETag, as the server sent it (object stores only)
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
  std::uint64_t entries = 0;                // shard entries seen (every blob, duplicates included)
  std::uint64_t duplicate_shard_blobs = 0;  // blobs replaced by a later one with the same index

  std::vector<model::TaskRecord> tasks;
  std::uint64_t tasks_skipped = 0;
  std::uint64_t task_manager_raw_bytes = 0;

  // The charge model (ShardTallyBuilder per shard; the last duplicate shard wins), with each
  // tenant's evidence (in-flight upserts matched against "discarded_replicas").
  std::map<std::string, TenantTally, std::less<>> restored_tenants;
  DropCounts dropped;
  std::uint64_t restored_objects = 0;
  // Decodable, but the master rejects it (§16): the sentence that says so, and the segment.
  std::optional<std::string> master_rejection;
  std::optional<SegmentSummary> non_ok_segment;
  // true when every metadata shard was decoded: a verdict of "restores" is then the master's.
  [[nodiscard]] bool metadata_checked() const;

  bool stopped_early = false;   // an analyzer asked to stop: metadata totals and tasks are partial
  bool shards_decoded = false;  // ScanOptions::decode_shards was set
  // How the overlap with the segments payload went (ScanOptions::overlap_segments): shards
  // decoded before the segment table was known, shards whose speculative decode stopped at an
  // entry that needs the table (decoded again with it), and whether the speculation was refuted
  // and the snapshot read a second time without the overlap.
  struct Overlap {
    std::uint64_t speculative_shards = 0;
    std::uint64_t redecoded_shards = 0;
    bool read_again = false;
  } overlap;
  model::Findings findings;  // every decoder and restore-model finding, sorted
};

// Reads the snapshot whose objects live in `store` under `snapshot_dir` (a key prefix: a local
// directory, an s3:// URL). `analyzers` has one entry per worker thread (its size is the thread count,
// at least 1; entries may be null); each is used by one thread only.
[[nodiscard]] util::Result<ScannedSnapshot> scan_snapshot(source::ObjectStore& store, const std::string& snapshot_dir,
                                                          const std::string& snapshot_id, const ScanOptions& options,
                                                          const std::vector<ShardAnalyzer*>& analyzers);

// Why a non-OK segment makes upstream 3b5a5941 reject a snapshot (without a conclusion).
[[nodiscard]] std::string non_ok_segment_reason(const SegmentSummary& segment);

// Decompresses one shard blob's `compressed` bytes; errors name the shard and offset.
[[nodiscard]] util::Status decompress_shard_blob(std::string_view compressed, const format::ShardBlobLocation& blob,
                                                 std::size_t max_shard_bytes, util::ByteBuffer& decompressed);

// Reads and decompresses one shard blob located by `blob` (diff, verify's second pass).
// `metadata_key` is the snapshot's metadata object ("<snapshot_dir>/metadata").
[[nodiscard]] util::Status read_shard_blob(source::ObjectStore& store, const std::string& metadata_key,
                                           const format::ShardBlobLocation& blob, std::size_t max_shard_bytes,
                                           util::ByteBuffer& compressed, util::ByteBuffer& decompressed);

}  // namespace moonquota::restore
