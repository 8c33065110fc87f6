#include "reconcile/ha_metrics.hpp"

#include <cmath>
#include <string>

#include "reconcile/prometheus_text.hpp"

namespace moonquota::reconcile {

namespace {

using util::Status;

// 2^64: an integral double below it converts to u64 exactly.
constexpr double k_u64_limit = 18446744073709551616.0;

util::Result<std::uint64_t> integral_value(const PromSample& s) {
  if (auto exact = parse_exact_u64(s.value_text)) return *exact;
  if (std::isfinite(s.value) && s.value >= 0 && s.value < k_u64_limit && std::floor(s.value) == s.value) {
    return static_cast<std::uint64_t>(s.value);
  }
  return Status::corruption("/metrics line " + std::to_string(s.line) + ": " + s.name + " is '" + s.value_text +
                            "', not a non-negative integer");
}

std::optional<std::uint64_t>* slot_of(HaMetrics& m, const std::string& name) {
  if (name == "ha_oplog_applied_sequence_id") return &m.applied_sequence;
  if (name == "ha_standby_state") return &m.standby_state;
  if (name == "ha_batch_record_durable_sequence") return &m.perf_durable_sequence;
  if (name == "ha_batch_record_last_batch_id") return &m.perf_last_batch_id;
  if (name == "ha_batch_record_committed_queue_depth") return &m.perf_committed_queue_depth;
  if (name == "ha_oplog_last_sequence_id") return &m.last_sequence_unset;
  if (name == "ha_oplog_standby_lag") return &m.standby_lag_unset;
  return nullptr;
}

}  // namespace

util::Result<HaMetrics> read_ha_metrics(std::string_view text) {
  HaMetrics m;
  Status status = scan_prometheus_text(
      text,
      [&](PromSample&& s) -> Status {
        if (s.name.rfind("ha_", 0) != 0) return {};
        m.ha_section = true;
        auto* slot = slot_of(m, s.name);
        if (slot == nullptr || !s.labels.empty()) return {};
        if (slot->has_value()) {
          return Status::corruption("/metrics line " + std::to_string(s.line) + ": " + s.name + " twice");
        }
        MQ_ASSIGN_OR_RETURN(*slot, integral_value(s));
        return {};
      },
      [&](std::string_view /*keyword*/, std::string_view name, std::string_view /*text*/) {
        if (name.rfind("ha_", 0) == 0) m.ha_section = true;
      });
  if (!status.ok()) return status;
  return m;
}

}  // namespace moonquota::reconcile
