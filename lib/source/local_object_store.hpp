// The local-file backend of source::ObjectStore: keys are filesystem paths, objects are regular
// files (read with util::FileReader: exact reads, OS reasons in errors), a listing walks the
// directory tree below the prefix (unreadable subdirectories are passed over). Writes copy files.
#pragma once

#include "source/writable_object_store.hpp"

namespace moonquota::source {

class LocalObjectStore final : public WritableObjectStore {
 public:
  [[nodiscard]] util::Result<std::string> get(const std::string& key, std::uint64_t max_bytes) override;
  [[nodiscard]] util::Result<std::unique_ptr<util::ByteSource>> open(const std::string& key) override;
  [[nodiscard]] util::Status get_range(const std::string& key, std::uint64_t offset, std::uint64_t bytes,
                                       util::ByteBuffer& out) override;
  [[nodiscard]] util::Result<std::uint64_t> size(const std::string& key) override;
  [[nodiscard]] util::Result<std::vector<std::string>> list(const std::string& prefix) override;
  // Creates the directory `prefix` and its parents.
  [[nodiscard]] util::Status prepare(const std::string& prefix) override;
  // Copies the file (its directories created); never checksummed (false).
  [[nodiscard]] util::Result<bool> put_file(const std::string& key, const std::string& path) override;
};

}  // namespace moonquota::source
