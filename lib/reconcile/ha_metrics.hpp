// What a Mooncake master's /metrics says of its HA state (upstream 3b5a5941; what each series
// means and which are never set: docs/design/failover-positions.md). The HA gauges carry no
// prefix and no labels; a standby and a primary serve the same endpoint.
//   ha_oplog_applied_sequence_id        the standby's applied sequence (A); moves only when an
//                                       entry is applied
//   ha_standby_state                    0 = STOPPED ... 8 = FAILED
//   ha_batch_record_durable_sequence    the primary's durable sequence (D), only in a build with
//   ha_batch_record_last_batch_id       MOONCAKE_ENABLE_OPLOG_PERF_METRICS (off by default) and
//   ha_batch_record_committed_queue_depth  only after its first durable batch
// Read and never trusted: ha_oplog_last_sequence_id and ha_oplog_standby_lag are never set at
// 3b5a5941 (always 0), so they are reported as seen but never used as positions.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "util/status.hpp"

namespace moonquota::reconcile {

struct HaMetrics {
  bool ha_section = false;  // some ha_ series was seen (a master older than HA has none)
  std::optional<std::uint64_t> applied_sequence;
  std::optional<std::uint64_t> standby_state;
  std::optional<std::uint64_t> perf_durable_sequence;
  std::optional<std::uint64_t> perf_last_batch_id;
  std::optional<std::uint64_t> perf_committed_queue_depth;
  // The gauges upstream never sets, as read (0 on a real master at 3b5a5941).
  std::optional<std::uint64_t> last_sequence_unset;
  std::optional<std::uint64_t> standby_lag_unset;
};

// Parses the exposition text (reconcile/prometheus_text.hpp) and keeps the HA gauges. A value
// must be a non-negative integer, written as one ("46") or as an integral float ("46.000000",
// "4.6e1"). Errors: corruption naming the line (a bad line, a negative, fractional or non-finite
// value, a gauge twice).
[[nodiscard]] util::Result<HaMetrics> read_ha_metrics(std::string_view text);

}  // namespace moonquota::reconcile
