// Differential fuzz entry: the canonical batch scanner (format/oplog_canonical.hpp) against
// jsoncpp 1.9.5, the library whose re-serialization the checksum is defined by. The first input
// byte picks how the rest becomes a candidate text (byte % 3):
//   0: the rest is the text, as is
//   1: a batch-shaped text assembled token by token from the rest: numbers in every form (canonical,
//      negative, -0, fractions, exponents, leading zeros, beyond uint64, whitespace around),
//      strings of raw bytes (quotes, backslashes, control bytes, bytes >= 0x80) or with every JSON
//      escape, and shape damage (element counts, nesting, objects, trailing commas, comments, BOM,
//      trailing text)
//   2: a batch-shaped Json::Value built from the rest (uint, int, real, bool, null, string, array
//      and object members at any position, strings of any bytes) and serialized by jsoncpp
// Property, for every candidate the scanner accepts: jsoncpp's default reader accepts it, its
// values are the scanner's values, its canonical re-serialization is the text itself, and the
// first five elements re-serialize to text[0, checksum_input_end) + "]" (the checksum input).
// Mode 2 also checks the converse: a value of the writer's shape (uints, printable strings
// without escapes, at least one entry) is accepted. A broken property calls std::abort().
// Linked by the libFuzzer target and by the corpus replay test; needs only the scanner and
// jsoncpp.
#pragma once

#include <cstddef>
#include <cstdint>

namespace moonquota::fuzz {

// Always returns 0.
int run_oplog_canonical(const std::uint8_t* data, std::size_t size);

}  // namespace moonquota::fuzz
