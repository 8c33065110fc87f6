// The shape of a msgpack value as short text, independent of the data it holds: types, the
// elements of arrays and the keys of maps, never values (snapshot-inspect fingerprint).
//   nil bool uint int float str ext; bin, or bin(zstd) for a zstd frame (util::zstd_frame_form)
//   [a,b,c]        an array, element by element
//   [256×uint]     a run of 4 or more equal element shapes (used_bins, bin_indices)
//   {"k":S,...}    a map with STR keys; other keys by their shape
//   [...] / {...}  deeper than the depth asked for
//   …              the rest of a container whose text passed k_max_shape_chars (skipped unread)
#pragma once

#include <string>

#include "format/msgpack_reader.hpp"

namespace moonquota::inspect {

inline constexpr std::size_t k_max_shape_chars = 1024;

// Reads one value from `reader` and returns its shape, descending `depth` levels into arrays and
// maps (the value is read whole either way). Empty when the reader fails (reader.error() says why).
[[nodiscard]] std::string describe_shape(format::MsgpackReader& reader, int depth);

// The same appended to `out` (no string per element); false when the reader fails.
[[nodiscard]] bool append_shape(format::MsgpackReader& reader, int depth, std::string& out);
[[nodiscard]] bool append_shape_after(format::MsgpackReader& reader, const format::MpHeader& header, int depth,
                                      std::string& out);

// The shapes of the next `count` values, comma-separated, runs of equal shapes joined ("N×S"), the
// text cut at k_max_shape_chars ("…", the rest read and skipped): an array's elements without
// the brackets, or the trailing elements of a record.
[[nodiscard]] bool append_values(format::MsgpackReader& reader, std::uint64_t count, int depth, std::string& out);

// The shape of a value whose header was read already.
[[nodiscard]] std::string describe_shape_after(format::MsgpackReader& reader, const format::MpHeader& header,
                                               int depth);

// A key name as a shape shows it: quoted, control bytes as \xNN, and a name that is not UTF-8
// as 0x and its hex digits (so a shape is always printable text).
[[nodiscard]] std::string quoted_name(std::string_view raw);

// The shape word of a scalar header ("uint", "str", ...), or "array"/"map" for containers.
[[nodiscard]] const char* shape_word(format::MpType type);

}  // namespace moonquota::inspect
