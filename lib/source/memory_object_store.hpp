// An ObjectStore held in memory: a map from key to bytes, with the local backend's contract (the
// same error codes and the same words for a short object, a sorted recursive listing, not_found
// for nothing below a prefix). It can be filled object by object, from another store's objects
// below a prefix, or from a local directory tree with the files' paths as keys, so that a restore,
// an inspection or an audit reads exactly what it would read from the files, without them.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "source/writable_object_store.hpp"

namespace moonquota::source {

class MemoryObjectStore final : public WritableObjectStore {
 public:
  [[nodiscard]] util::Result<std::string> get(const std::string& key, std::uint64_t max_bytes) override;
  [[nodiscard]] util::Result<std::unique_ptr<util::ByteSource>> open(const std::string& key) override;
  [[nodiscard]] util::Status get_range(const std::string& key, std::uint64_t offset, std::uint64_t bytes,
                                       util::ByteBuffer& out) override;
  [[nodiscard]] util::Result<std::uint64_t> size(const std::string& key) override;
  [[nodiscard]] util::Result<std::vector<std::string>> list(const std::string& prefix) override;
  // Nothing to prepare: any key can be stored.
  [[nodiscard]] util::Status prepare(const std::string& prefix) override;
  // Reads the whole file into the object (never checksummed: false).
  [[nodiscard]] util::Result<bool> put_file(const std::string& key, const std::string& path) override;

  // Stores `bytes` as the object `key`, replacing any. A source opened before keeps its bytes.
  void put(const std::string& key, std::string bytes);
  // Removes the object `key`, if there is one.
  void erase(const std::string& key);
  // Copies every object of `from` below `prefix`, under the same keys. Errors: those of `from`
  // (not_found when nothing is stored below the prefix).
  [[nodiscard]] util::Status copy_from(ObjectStore& from, const std::string& prefix);
  // Every regular file below the local directory `dir`, keyed by its path (as the local backend
  // names it), so that reports print the same locations. Errors: not_found for no directory.
  [[nodiscard]] util::Status load_directory(const std::string& dir);

 private:
  using Bytes = std::shared_ptr<const std::string>;
  [[nodiscard]] util::Result<Bytes> find(const std::string& key);

  std::mutex m_mutex;
  std::map<std::string, Bytes> m_objects;
};

}  // namespace moonquota::source
