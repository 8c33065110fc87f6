// Decompresses a payload that holds one zstd frame (Mooncake's payload rule: exactly one frame,
// content size in the header) without ever holding the compressed bytes whole: the source is
// read in 1 MiB pieces and decompressed as a stream into a buffer of the declared size.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "util/byte_buffer.hpp"
#include "util/byte_source.hpp"
#include "util/status.hpp"

namespace moonquota::util {

// Reads `in` from its current offset to its end. Errors: those of the source (io_error,
// unavailable); corruption for an empty source, a frame without content size, a second frame or
// trailing bytes, a truncated or invalid frame, or content that does not match the declared
// size; limit_exceeded when the declared size is above `max_bytes`.
[[nodiscard]] Status zstd_decompress_stream(ByteSource& in, std::size_t max_bytes, ByteBuffer& out);

}  // namespace moonquota::util
