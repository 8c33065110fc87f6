#include "util/time_text.hpp"

#include <cstdio>
#include <ctime>
#include <limits>

namespace moonquota::util {

std::string utc_iso8601(std::int64_t epoch_ms) {
  // Floor division, so that -1 ms is 1969-12-31T23:59:59.999Z.
  std::int64_t seconds = epoch_ms / 1000;
  std::int64_t millis = epoch_ms % 1000;
  if (millis < 0) {
    millis += 1000;
    --seconds;
  }
  // Years 0000..9999 only: 253402300799 is 9999-12-31T23:59:59Z, -62167219200 is 0000-01-01.
  if (seconds > 253402300799LL || seconds < -62167219200LL) return "(out of range)";
  const auto t = static_cast<std::time_t>(seconds);
  std::tm tm{};
  if (gmtime_r(&t, &tm) == nullptr) return "(out of range)";
  char buf[80];  // the widest ints the format can print fit
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(millis));
  return buf;
}

std::string hms_text(std::int64_t span) {
  const bool negative = span < 0;
  // The magnitude in unsigned arithmetic: INT64_MIN has no positive int64.
  const std::uint64_t ms =
      negative ? std::uint64_t{0} - static_cast<std::uint64_t>(span) : static_cast<std::uint64_t>(span);
  const std::uint64_t total_s = ms / 1000;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s%lluh %02llum %02llus", negative ? "-" : "",
                static_cast<unsigned long long>(total_s / 3600), static_cast<unsigned long long>(total_s / 60 % 60),
                static_cast<unsigned long long>(total_s % 60));
  return buf;
}

std::int64_t span_ms(std::int64_t later_ms, std::int64_t earlier_ms) {
  std::int64_t d = 0;
  if (__builtin_sub_overflow(later_ms, earlier_ms, &d)) {
    return later_ms > earlier_ms ? std::numeric_limits<std::int64_t>::max() : std::numeric_limits<std::int64_t>::min();
  }
  return d;
}

}  // namespace moonquota::util
