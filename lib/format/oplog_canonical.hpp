// A scanner for the one text shape the OpLog writer produces: a batch record exactly as jsoncpp
// 1.9.5 serializes it (StreamWriterBuilder, indentation ""), with nothing jsoncpp would rewrite:
//
//   record  = "[" num "," num "," num "," num "," "[" entry *("," entry) "]" "," num "]"   (end of text)
//   entry   = "[" num "," str "," str "," str "]"
//   num     = "0" / %x31-39 *DIGIT                  (fits uint64; no sign, fraction, exponent)
//   str     = DQUOTE *(%x20-21 / %x23-5B / %x5D-7E) DQUOTE   (printable ASCII; no escape)
//
// For such text the canonical re-serialization of the parsed value is the text itself, so the
// checksum input (the first five elements re-serialized) is text[0, checksum_input_end) + "]".
// Anything else (whitespace, escapes, other number forms, raw bytes, leniencies, trailing text)
// is not scanned: the caller then takes the jsoncpp path, which handles every input. The
// differential fuzz target fuzz_oplog_canonical checks this equivalence against jsoncpp.
// Depends on nothing but the standard library (the fuzz target links it alone with jsoncpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace moonquota::format {

struct CanonicalEntryView {
  std::uint64_t op_type = 0;
  std::string_view tenant_id;
  std::string_view key;
  std::string_view payload_base64;
};

struct CanonicalBatchView {
  std::uint64_t schema_version = 0;
  std::uint64_t batch_id = 0;
  std::uint64_t first_seq = 0;
  std::uint64_t last_seq = 0;
  std::uint64_t checksum = 0;
  std::size_t checksum_input_end = 0;  // the ',' before the checksum
  std::vector<CanonicalEntryView> entries;
};

// True when `text` has the canonical shape above (views into `text` in `out`; `out.entries` is
// reused). False otherwise, `out` then unspecified. Values are not range-checked beyond uint64.
[[nodiscard]] bool scan_canonical_batch(std::string_view text, CanonicalBatchView& out);

// The first position at or after `pos` whose byte is not plain string text: '"', '\\', below
// 0x20 or above 0x7e; text.size() when there is none. Eight bytes at a time.
[[nodiscard]] std::size_t skip_plain_ascii(std::string_view text, std::size_t pos);

}  // namespace moonquota::format
