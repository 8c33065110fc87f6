// The S3 backend of source::ObjectStore: keys are "s3://BUCKET/KEY" URLs. A listing remembers
// each object's size and ETag, so size() after list() costs no request; open() streams an
// object through ranged GETs that a background thread downloads ahead of the reader, at most
// S3Config::window_bytes ahead (the network and the decoders overlap, memory stays bounded).
// Every byte a reader consumes in order from the start is CRC32C-checked against the server's
// x-amz-checksum-crc32c when it sent one (integrity()). Uploads (the write side) go through
// S3Client::put_file.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>

#include "source/s3_client.hpp"
#include "source/writable_object_store.hpp"

namespace moonquota::source {

class S3ObjectStore final : public WritableObjectStore {
 public:
  explicit S3ObjectStore(S3Config config, util::NetConfig net = {});

  [[nodiscard]] util::Result<std::string> get(const std::string& key, std::uint64_t max_bytes) override;
  [[nodiscard]] util::Result<std::unique_ptr<util::ByteSource>> open(const std::string& key) override;
  [[nodiscard]] util::Status get_range(const std::string& key, std::uint64_t offset, std::uint64_t bytes,
                                       util::ByteBuffer& out) override;
  [[nodiscard]] util::Result<std::uint64_t> size(const std::string& key) override;
  [[nodiscard]] util::Result<std::vector<std::string>> list(const std::string& prefix) override;
  [[nodiscard]] std::optional<ObjectDetails> details(const std::string& key) override;
  // Creates the bucket of `prefix` unless it exists.
  [[nodiscard]] util::Status prepare(const std::string& prefix) override;
  // One PUT with the file's CRC32C up to S3Config::multipart_threshold (true), a multipart upload
  // without a checksum above it (false).
  [[nodiscard]] util::Result<bool> put_file(const std::string& key, const std::string& path) override;

 private:
  util::Result<S3ObjectInfo> info(const std::string& key, const S3Location& where);
  void remember(const S3Location& where, S3ObjectInfo info);
  void record_read(const std::string& key, const std::string& crc32c_base64);

  S3Client m_client;
  std::mutex m_mutex;
  std::map<std::string, S3ObjectInfo> m_known;       // by URL: from listings and HEADs
  std::map<std::string, std::string> m_read_crc32c;  // by URL: CRC32C of bytes read whole, in order
};

}  // namespace moonquota::source
