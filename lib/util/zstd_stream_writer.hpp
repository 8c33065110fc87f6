// One zstd frame written piece by piece (the write side of ZstdStreamReader): the content size,
// pledged in advance, goes into the frame header as zstd_compress writes it for content held
// whole, so a payload larger than memory still meets Mooncake's rule (content size required).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>

#include "util/status.hpp"

namespace moonquota::util {

class ZstdStreamWriter {
 public:
  // Where the compressed bytes go as they are produced; its error stops the writer.
  using Sink = std::function<Status(std::string_view)>;

  // A frame of exactly `pledged_bytes` bytes of content at `level`, without checksum.
  // Errors: internal when zstd cannot set up its context.
  [[nodiscard]] static Result<std::unique_ptr<ZstdStreamWriter>> create(std::uint64_t pledged_bytes, int level = 3);
  ~ZstdStreamWriter();
  ZstdStreamWriter(const ZstdStreamWriter&) = delete;
  ZstdStreamWriter& operator=(const ZstdStreamWriter&) = delete;

  // Compresses `bytes`, handing whatever compressed bytes are ready to `sink`.
  [[nodiscard]] Status write(std::string_view bytes, const Sink& sink);
  // Ends the frame and hands its last bytes to `sink`. Errors: internal unless exactly the
  // pledged bytes were written; the sink's.
  [[nodiscard]] Status finish(const Sink& sink);

 private:
  ZstdStreamWriter() = default;
  Status compress(std::string_view bytes, bool end, const Sink& sink);

  struct Impl;
  std::unique_ptr<Impl> m_impl;
  std::uint64_t m_pledged = 0;
  std::uint64_t m_written = 0;
};

}  // namespace moonquota::util
