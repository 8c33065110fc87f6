// An output file written in pieces and published atomically: bytes go to a temporary file next
// to the target; commit() fsyncs and renames it over the target. Destroying an uncommitted
// StreamingFile removes the temporary file. Optionally compresses everything written into one
// zstd frame (level 3) whose header carries a content size pledged in advance.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "util/status.hpp"
#include "util/zstd_file.hpp"

namespace moonquota::forge {

class StreamingFile {
 public:
  // Opens a temporary file for `target_path`. With `zstd_pledged_bytes`, the content written is
  // compressed; commit() fails unless exactly that many bytes were written.
  [[nodiscard]] static util::Result<std::unique_ptr<StreamingFile>> open(
      const std::string& target_path, std::optional<std::uint64_t> zstd_pledged_bytes = std::nullopt);
  ~StreamingFile();
  StreamingFile(const StreamingFile&) = delete;
  StreamingFile& operator=(const StreamingFile&) = delete;

  [[nodiscard]] util::Status write(std::string_view bytes);
  [[nodiscard]] util::Status commit();
  // Bytes written to disk so far (compressed bytes when compressing).
  [[nodiscard]] std::uint64_t file_bytes() const { return m_file_bytes; }

 private:
  StreamingFile() = default;
  util::Status write_to_disk(std::string_view bytes);

  std::string m_target;
  std::string m_temp;
  int m_fd = -1;
  bool m_committed = false;
  std::uint64_t m_file_bytes = 0;
  std::unique_ptr<util::ZstdStreamWriter> m_zstd;  // set when compressing
  util::ZstdStreamWriter::Sink m_sink;             // write_to_disk, for m_zstd
};

}  // namespace moonquota::forge
