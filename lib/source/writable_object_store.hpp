// The write side of source::ObjectStore: what snapshot-forge needs to publish a store it forged
// in a local directory (docs/cli/snapshot-forge.md). The local, S3 and in-memory backends
// implement it; readers only ever see the ObjectStore part.
#pragma once

#include <string>

#include "source/object_store.hpp"
#include "util/status.hpp"

namespace moonquota::source {

class WritableObjectStore : public ObjectStore {
 public:
  // Makes room for objects below `prefix`: S3 creates the bucket unless it exists, the local
  // backend creates the directories. Errors: as the backend's (invalid_argument for a bad URL).
  [[nodiscard]] virtual util::Status prepare(const std::string& prefix) = 0;
  // Stores the local file at `path` as the object `key`, whole, replacing any object of that key.
  // Returns whether the store checked the bytes it received against a checksum sent with them
  // (S3: x-amz-checksum-crc32c on a single PUT). Errors: not_found / io_error for the local file;
  // the backend's.
  [[nodiscard]] virtual util::Result<bool> put_file(const std::string& key, const std::string& path) = 0;
};

}  // namespace moonquota::source
