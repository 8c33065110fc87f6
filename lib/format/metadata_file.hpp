// Streaming reader of the `metadata` payload file (snapshot-format.md §5.1):
//   {"shards": {u32 shard (<1024): BIN zstd({"metadata": [...]}), ...},
//    "discarded_replicas": [[ttl_ms, mem_size, R, Replica x R], ...],
//    "replica_next_id": u64}
// The file is read sequentially, one shard blob at a time, and never held whole. Shard blobs
// are decompressed and handed to a handler on worker threads. The bytes come from a
// util::ByteSource (the store's object: this decoder opens no path). Master rules: top level must be
// a map (keys looked up by name, non-STR and unknown keys ignored); "shards" must be a map of
// u32 < 1024 -> BIN; duplicate shard keys: the last one wins; all three keys required; any
// error in a shard or in "discarded_replicas" rejects the candidate.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "format/object_decoder.hpp"
#include "model/finding.hpp"
#include "model/snapshot_types.hpp"
#include "util/byte_source.hpp"
#include "util/status.hpp"

namespace moonquota::format {

struct MetadataScanOptions {
  unsigned threads = 1;
  std::size_t max_shard_bytes = std::size_t{1} << 30;  // our guard for one decompressed shard
  std::size_t max_value_bytes = std::size_t{1} << 30;  // our guard for "discarded_replicas"
  // false: shard blobs are stepped over (not read, not decompressed, the handler is not called);
  // only their locations are recorded (MetadataFileInfo::shard_blobs), for readers that fetch
  // shards themselves (snapshot-inspect diff).
  bool decode_shards = true;
  // Called (on the calling thread) before "discarded_replicas" is decoded, the one top-level
  // value that reads the segment table: a reader that fills the table while the shards are read
  // waits for it here. An error stops the scan with that error.
  std::function<util::Status()> before_segment_table_use;
};

// Called once per shard blob, on a worker thread. `sequence` is the blob's position among the
// shard entries of the file (a later duplicate of the same shard index has a larger sequence).
// Returning an error rejects the candidate.
using ShardHandler = std::function<util::Status(unsigned worker, std::uint32_t shard_index, std::uint64_t sequence,
                                                std::string_view decompressed)>;

// Where one shard blob (the BIN payload, a zstd frame) sits in the metadata file.
struct ShardBlobLocation {
  std::uint32_t shard_index = 0;
  std::uint64_t sequence = 0;     // position among the shard entries of the file
  std::uint64_t file_offset = 0;  // of the first BIN payload byte
  std::uint64_t bytes = 0;        // BIN payload length
};

struct MetadataFileInfo {
  std::uint64_t file_bytes = 0;
  std::uint64_t shard_entries = 0;  // shard blobs in the file (duplicates included)
  std::uint64_t compressed_shard_bytes = 0;
  std::uint64_t decompressed_shard_bytes = 0;
  std::uint64_t replica_next_id = 0;
  std::vector<model::DiscardedItem> discarded;
  std::vector<ShardBlobLocation> shard_blobs;  // every shard entry, in file order
  // The top-level keys in file order, as read: a STR key's bytes; any other key as "<TYPE key>"
  // ("<positive integer key>").
  std::vector<std::string> top_level_keys;
  // How the shard blobs read are framed (util::zstd_frame_form) and how many of each: filled
  // when the shards are decoded (decode_shards), from each blob's first bytes.
  std::map<std::string, std::uint64_t> shard_frame_forms;
};

// Reads `file` from its current offset (byte 0). A rejection (bytes that break the format, a
// payload that ends early) is Status::corruption, "metadata: ..." naming the byte offset, shard or
// entry. One of our own limits hit (max_shard_bytes, max_value_bytes) is Status::limit_exceeded
// with the size and the limit, not a rejection. A failed read keeps the source's code (io_error,
// unavailable). An error returned by `handler` keeps its code, prefixed "metadata: shard N (BIN at byte
// offset M): " (a leading "shard N: " of its own message is dropped).
[[nodiscard]] util::Result<MetadataFileInfo> scan_metadata(util::ByteSource& file, const SegmentTable& segments,
                                                           const MetadataScanOptions& options,
                                                           const ShardHandler& handler, model::Findings& findings);

// "metadata: shard N (BIN at byte offset X)": how errors about one shard blob begin.
[[nodiscard]] std::string shard_blob_context(std::uint32_t shard_index, std::uint64_t file_offset);

}  // namespace moonquota::format
