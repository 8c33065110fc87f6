// The shard blobs of one metadata file, read in few ranged reads: one read covers the blobs of
// many consecutive shards (up to a chunk of bytes), so `snapshot-inspect diff` against S3 makes a
// request per chunk, not one per shard (audit item 23: 960 shards, 960 requests, 3.9 s against
// 0.58 s locally). Memory: one chunk, or the blobs of one window when they lie far apart.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "format/metadata_file.hpp"
#include "source/object_store.hpp"
#include "util/byte_buffer.hpp"
#include "util/status.hpp"

namespace moonquota::inspect {

inline constexpr std::uint64_t k_shard_chunk_bytes = 8ULL << 20;

class ShardBlobChunks {
 public:
  // `order`: the blob of each shard in the order the shards are read (nullopt: none on this side).
  ShardBlobChunks(source::ObjectStore& store, std::string metadata_key,
                  std::vector<std::optional<format::ShardBlobLocation>> order,
                  std::uint64_t chunk_bytes = k_shard_chunk_bytes);

  // Makes the blobs of order[first, first + count) readable by blob(); the views of an earlier
  // load stay valid until this call only. Errors: the store's, with the key.
  [[nodiscard]] util::Status load(std::size_t first, std::size_t count);

  // The compressed bytes of order[index] (loaded), or nullopt when that shard has none here.
  [[nodiscard]] std::optional<std::string_view> blob(std::size_t index) const;

  [[nodiscard]] std::uint64_t reads() const { return m_reads; }

 private:
  [[nodiscard]] bool covers(std::uint64_t lo, std::uint64_t hi) const;

  source::ObjectStore& m_store;
  std::string m_key;
  std::vector<std::optional<format::ShardBlobLocation>> m_order;
  std::uint64_t m_chunk_bytes;
  util::ByteBuffer m_chunk;  // bytes [m_chunk_offset, m_chunk_offset + size) of the file
  std::uint64_t m_chunk_offset = 0;
  std::vector<util::ByteBuffer> m_single;  // a window whose blobs lie far apart: one read each
  std::size_t m_single_first = 0;
  std::uint64_t m_reads = 0;
};

}  // namespace moonquota::inspect
