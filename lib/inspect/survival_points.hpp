// The restore instants of `snapshot-inspect survival --at LIST` (docs/cli/snapshot-inspect.md):
// a comma-separated list of
//   DELAY   a delay after the snapshot's created_at (descriptor.txt): a non-negative integer with a
//           unit ms, s, m, h or d ("0" alone needs none): 0, 1500ms, 10s, 5m, 1h, 2d
//   +DELAY  a delay after the report's "now": +30s is "if the master restarts in 30 s"
//   @MS     an absolute instant, milliseconds since the epoch: @1787375520123
//   now     the report's "now" (--restore-time, the current time by default)
// Delays are at most 100 years. Resolved points are sorted by instant; an instant asked twice is
// one point. Delay 0 (the reference of "half gone" / "all gone") and
// `now` (what a restore right now keeps) are always included: added, marked, when not asked for.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "util/status.hpp"

namespace moonquota::inspect {

struct PointSpec {
  enum class Kind { delay, absolute, now, after_now } kind = Kind::delay;
  std::uint64_t value_ms = 0;  // the delay (after created_at or now) or the instant
  std::string text;            // as typed
};

// At most this many points in one --at list or --at-file (each point costs a row per tenant).
inline constexpr std::size_t k_max_survival_points = 100'000;
// The largest --at-file read.
inline constexpr std::uint64_t k_max_survival_points_file_bytes = 4ULL << 20;

// Errors: invalid_argument naming the value ("--at '5x' ...").
[[nodiscard]] util::Result<std::vector<PointSpec>> parse_survival_points(const std::string& list);

// The points of an --at-file's `text`: the same items, separated by commas or line ends; blank
// lines and '#' to the end of a line are ignored. Errors: invalid_argument naming `name` and the
// line ("--at-file 'pts.txt' line 3: '5x' is not a delay ...").
[[nodiscard]] util::Result<std::vector<PointSpec>> parse_survival_points_file(const std::string& text,
                                                                              const std::string& name);

struct SurvivalPoint {
  std::uint64_t at_ms = 0;
  std::int64_t delay_ms = 0;  // at_ms - created_at_ms (negative before the snapshot was written)
  std::string label;          // as typed, or "0" / "now" when added
  bool is_now = false;
  bool added = false;  // not in --at: added as the reference (delay 0) or as `now`
};

// Errors: invalid_argument when a delay is asked but `created_at_ms` is unknown (no usable
// descriptor.txt: `why` says why), or when an instant does not fit in 63 bits.
[[nodiscard]] util::Result<std::vector<SurvivalPoint>> resolve_survival_points(
    const std::vector<PointSpec>& specs, std::optional<std::int64_t> created_at_ms, std::uint64_t now_ms,
    const std::string& why);

inline constexpr const char* k_default_survival_points = "0,1s,2s,5s,10s,30s,1m,5m,1h";

}  // namespace moonquota::inspect
