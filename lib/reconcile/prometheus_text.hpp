// A parser for the Prometheus text exposition format (version 0.0.4), written for /metrics of a
// Mooncake master. Grammar, line by line ('\n' separated; a trailing '\r' is tolerated):
//
//   line    := blank | comment | sample
//   blank   := [ \t]*
//   comment := '#' [ \t]* ( 'HELP' [ \t]+ name [ \t]+ docstring      (docstring escapes: \\ \n)
//                         | 'TYPE' [ \t]+ name [ \t]+ type
//                         | anything else, ignored )
//   sample  := name [ '{' [ label { ',' label } [ ',' ] ] '}' ] [ \t]+ value [ [ \t]+ timestamp ] [ \t]*
//   name    := [a-zA-Z_:][a-zA-Z0-9_:]*        label := lname [ \t]* '=' [ \t]* '"' escaped '"'
//   lname   := [a-zA-Z_][a-zA-Z0-9_]*          escaped: \\ -> \, \" -> ", \n -> newline
//   value   := a float in Go syntax, including NaN, +Inf, -Inf (any letter case)
//   timestamp := an int64 (ms since the epoch)
//
// Family order is NOT assumed: a real master interleaves the tenant families (live-master-api.md
// §11.1), so samples are returned in text order and callers key them by name and labels. Each
// sample keeps its value text so integers can be read exactly, never through a double.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "util/status.hpp"

namespace moonquota::reconcile {

struct PromSample {
  std::string name;
  std::vector<std::pair<std::string, std::string>> labels;  // unescaped, in text order
  std::string value_text;                                   // exactly as written
  double value = 0;
  std::optional<std::int64_t> timestamp_ms;
  std::size_t line = 0;  // 1-based

  // The value of label `name`, if present.
  [[nodiscard]] const std::string* label(std::string_view label_name) const;
};

struct PromExposition {
  std::vector<PromSample> samples;           // text order
  std::map<std::string, std::string> types;  // from # TYPE
  std::map<std::string, std::string> help;   // from # HELP (unescaped)
};

// A sample with more labels than this is rejected (a master's tenant series have 1 or 2; the cap
// keeps hostile input from making one sample arbitrarily large).
inline constexpr std::size_t k_max_labels_per_sample = 64;

// Errors: corruption naming the line, the column and what was expected. A duplicate label name
// inside one sample is an error (found in linear time); duplicate series are the caller's concern.
// More than k_max_labels_per_sample labels in one sample is an error naming the line.
[[nodiscard]] util::Result<PromExposition> parse_prometheus_text(std::string_view text);

// The same parse, streamed: every line is checked as above, but nothing is stored. `on_sample`
// gets each sample in text order (an error it returns stops the scan and is returned);
// `on_comment` gets each # HELP / # TYPE line as (keyword, metric name, text). A reader that keeps
// only the families it reads stays within a small multiple of its input (issue 11 item 26).
using PromSampleSink = std::function<util::Status(PromSample&&)>;
using PromCommentSink = std::function<void(std::string_view keyword, std::string_view name, std::string_view text)>;
[[nodiscard]] util::Status scan_prometheus_text(std::string_view text, const PromSampleSink& on_sample,
                                                const PromCommentSink& on_comment);

// Reads an exact unsigned decimal ("0" .. "18446744073709551615"; no sign, no exponent, no
// fraction). Used for values that Mooncake prints as unsigned integers.
[[nodiscard]] std::optional<std::uint64_t> parse_exact_u64(std::string_view text);

// A label value escaped for the exposition format (backslash, double quote, line feed); the
// inverse of what parse_prometheus_text unescapes.
[[nodiscard]] std::string escape_label_value(std::string_view raw);

// What our textfiles and /metrics write as a label value: escape_label_value of a UTF-8 value;
// a value that is not UTF-8 (a scrape holding one fails as a whole) as "0x" and its bytes in hex.
[[nodiscard]] std::string label_value(std::string_view raw);

}  // namespace moonquota::reconcile
