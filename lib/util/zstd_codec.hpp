// zstd single-frame codec with Mooncake's rules (snapshot-format.md §4.3): exactly one frame,
// content size in the header, decompressed size capped by the caller.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "util/status.hpp"

namespace moonquota::util {

// Compresses `raw` as one frame at `level` with the content size in the header (what
// ZSTD_compress writes). Never fails for in-memory input.
[[nodiscard]] std::string zstd_compress(std::string_view raw, int level = 3);

// Decompresses one frame into `out` (replaced). Fails, as Mooncake does, when the frame has
// no content size, when the input holds more than one frame or trailing bytes, or when the
// content size exceeds `max_bytes` (our own memory guard). Errors name no file: callers add it.
[[nodiscard]] Status zstd_decompress(std::string_view frame, std::size_t max_bytes, std::string& out);

// The same into a ByteBuffer (no zero fill of the target): the metadata hot path.
class ByteBuffer;
[[nodiscard]] Status zstd_decompress(std::string_view frame, std::size_t max_bytes, ByteBuffer& out);

// A decompression failure of a snapshot payload as the restore sees it: our memory guard keeps
// limit_exceeded (a tool limit, not a master decision) and a failed read keeps io_error /
// unavailable (the bytes could not be fetched: nothing is known about them); every other failure
// is the bytes' fault (corruption). `context` names the payload ("task_manager", "metadata: shard 3").
[[nodiscard]] Status payload_error(const Status& failure, const std::string& context);

// How a compressed blob is framed, as one word list independent of its content: "zstd" (a
// frame with its content size, no checksum, no dictionary: what Mooncake writes), with
// ", no content size", ", checksum", ", dictionary" for the flags that differ; "zstd-skippable"
// for a skippable frame; "not zstd" otherwise (also for fewer than 5 bytes).
[[nodiscard]] std::string zstd_frame_form(std::string_view blob);

// The content size declared in the frame header, or an error.
[[nodiscard]] Result<std::uint64_t> zstd_content_size(std::string_view frame);

}  // namespace moonquota::util

namespace moonquota::util {

// Checks that `frame` is one valid zstd frame whose content is exactly `expected_bytes` long,
// decompressing in small pieces (constant memory) and discarding the output.
[[nodiscard]] Status zstd_check_frame(std::string_view frame, std::uint64_t expected_bytes);

}  // namespace moonquota::util
