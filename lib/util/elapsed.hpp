// Time elapsed on the monotonic clock, for timeouts, retry budgets and stall detection.
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

}  // namespace moonquota::util
