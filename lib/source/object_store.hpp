// Where a snapshot store's bytes come from, shaped like upstream's own snapshot object store
// (snapshot-format.md §2.3): a small object by key, a byte range of an object, a prefix listing,
// an object's size. Every read of a store (catalog, manifest, descriptor, payloads, shard
// blobs) goes through this interface; no decoder or restore code opens a path. Keys are the
// locations the reports print: for the local backend a filesystem path
// ("<store>/mooncake_master_snapshot/<cluster_id>/<id>/metadata"), for an object store a URL.
// A run resolves its location into one store once (source/object_store_factory.hpp) and hands it
// down; source/memory_object_store.hpp holds a store in memory (tests).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/byte_buffer.hpp"
#include "util/byte_source.hpp"
#include "util/status.hpp"

namespace moonquota::source {

// What a store says about one object beyond its bytes: for S3, the size and ETag of the listing
// and the server's CRC32C, and the CRC32C of the bytes this run read, when it read them whole in
// order. The local backend has none.
struct ObjectDetails {
  std::uint64_t size = 0;
  std::string etag;
  std::optional<std::string> server_crc32c;  // base64 x-amz-checksum-crc32c, as sent
  std::optional<std::string> read_crc32c;    // base64, of the bytes read
};

class ObjectStore {
 public:
  ObjectStore() = default;
  ObjectStore(const ObjectStore&) = delete;
  ObjectStore& operator=(const ObjectStore&) = delete;
  virtual ~ObjectStore() = default;

  // The whole object. Errors: not_found (no such object), limit_exceeded (larger than
  // `max_bytes`: our memory guard), io_error / unavailable (it could not be read).
  [[nodiscard]] virtual util::Result<std::string> get(const std::string& key, std::uint64_t max_bytes) = 0;
  // The object as a source of sequential exact reads, from byte 0 (never held whole).
  [[nodiscard]] virtual util::Result<std::unique_ptr<util::ByteSource>> open(const std::string& key) = 0;
  // Exactly `bytes` bytes at `offset` into `out`; an object shorter than that is corruption.
  [[nodiscard]] virtual util::Status get_range(const std::string& key, std::uint64_t offset, std::uint64_t bytes,
                                               util::ByteBuffer& out) = 0;
  // The object's size in bytes; not_found when there is no such object.
  [[nodiscard]] virtual util::Result<std::uint64_t> size(const std::string& key) = 0;
  // Every object key below `prefix` (a "directory" key ending in '/'), at any depth, sorted.
  // Errors: not_found when nothing is stored under the prefix location at all.
  [[nodiscard]] virtual util::Result<std::vector<std::string>> list(const std::string& prefix) = 0;
  // Sizes, ETags and checksums, where the backend has them (after a listing or a read of the key).
  [[nodiscard]] virtual std::optional<ObjectDetails> details(const std::string& /*key*/) { return std::nullopt; }
};

// "<prefix>/<name>" without doubling a '/' (the way std::filesystem::path joins a relative name).
[[nodiscard]] std::string join_key(const std::string& prefix, const std::string& name);

// Whether anything is stored under `prefix` in `store` (a local directory that exists, even
// empty). An error other than not_found (a service that could not be used) is returned, never read
// as "absent".
[[nodiscard]] util::Result<bool> prefix_exists(ObjectStore& store, const std::string& prefix);

}  // namespace moonquota::source
