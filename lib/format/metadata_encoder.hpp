// Encoder for the `metadata` payload (snapshot-format.md §5, checklist §15), byte-identical to
// Mooncake's MetadataSerializer:
//   metadata  := map3 { "shards": map{ shard u32 -> BIN zstd(shard) } (ascending, non-empty only),
//                       "discarded_replicas": [ DiscardedItem... ],
//                       "replica_next_id": uint }
//   shard     := map1 { "metadata": [ [tenant STR, key STR, ObjectMetadata]... ] }  sorted by
//                (tenant, key) bytewise
//   ObjectMetadata := [client_id, put_start_time, size, lease_timeout, false, 0, N, data_type,
//                      Replica x N, hard_pinned, group_id (, checksum)]
//   Replica   := [id, status, type, payload]   payload by type (§5.6, §5.7)
// Objects are encoded as given (tenant already normalised; never "" from a writer).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "format/msgpack_writer.hpp"
#include "model/snapshot_types.hpp"
#include "util/status.hpp"

namespace moonquota::format {

// The shard Mooncake files this object under (§5.2, Boost 1.74 variant).
[[nodiscard]] std::uint32_t expected_shard_index(const model::ObjectRecord& object);

// Packs one replica. NOF_SSD and unknown types are refused (Mooncake cannot encode them).
[[nodiscard]] util::Status encode_replica(MsgpackWriter& writer, const model::Replica& replica);

// Packs one shard entry [tenant, key, ObjectMetadata] (always the 3-element form).
[[nodiscard]] util::Status encode_object_entry(MsgpackWriter& writer, const model::ObjectRecord& object);

// The decompressed bytes of one shard: {"metadata": [...]} with the entries sorted by
// (tenant, key). Fails on a duplicate (tenant, key): writers must never emit one (§5.3).
[[nodiscard]] util::Result<std::string> encode_shard_raw(std::vector<const model::ObjectRecord*> objects);

// Streaming writer of the top-level map. Bytes are appended to `out`; the caller may drain
// (write out and clear) `out` between calls, which keeps memory independent of the object
// count. Call order: constructor, add_shard() for every non-empty shard in strictly ascending
// order (exactly `shard_count` times), finish().
class MetadataPayloadStream {
 public:
  MetadataPayloadStream(std::uint32_t shard_count, std::string& out);

  // `compressed_shard` is one zstd frame of encode_shard_raw() output.
  [[nodiscard]] util::Status add_shard(std::uint32_t shard_index, std::string_view compressed_shard);
  [[nodiscard]] util::Status finish(const std::vector<model::DiscardedItem>& discarded, std::uint64_t replica_next_id);

 private:
  MsgpackWriter m_writer;
  std::uint32_t m_expected_shards;
  std::uint32_t m_written_shards = 0;
  std::int64_t m_last_shard = -1;
};

// Everything the metadata payload holds. `objects[i]` goes to `shards[i]`; an empty `shards`
// means "compute every index with expected_shard_index" (a non-empty one lets tests force a
// wrong shard).
struct MetadataContent {
  std::vector<model::ObjectRecord> objects;
  std::vector<std::uint32_t> shards;
  std::vector<model::DiscardedItem> discarded;
  std::uint64_t replica_next_id = 1;
};

// Raw shard bytes per non-empty shard, ascending (what each BIN holds after decompression).
[[nodiscard]] util::Result<std::vector<std::pair<std::uint32_t, std::string>>> encode_shards_raw(
    const MetadataContent& content);

// The complete `metadata` file bytes (shards zstd level 3).
[[nodiscard]] util::Result<std::string> encode_metadata(const MetadataContent& content);

}  // namespace moonquota::format
