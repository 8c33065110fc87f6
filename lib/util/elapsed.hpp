// Time elapsed on the monotonic clock, for timeouts, retry budgets and stall detection, and the
// wall clock in ms since the epoch, for what reports and history records stamp.
#pragma once

#include <chrono>
#include <cstdint>

namespace moonquota::util {

using SteadyClock = std::chrono::steady_clock;

// Whole milliseconds from `start` to now (steady_clock never goes back, so never negative).
[[nodiscard]] inline std::uint64_t ms_since(SteadyClock::time_point start) {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::milliseconds>(SteadyClock::now() - start).count());
}

// The wall clock: ms since the Unix epoch.
[[nodiscard]] inline std::uint64_t epoch_ms_now() {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count());
}

}  // namespace moonquota::util
