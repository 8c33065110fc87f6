// The failover-readiness gauges (docs/operations.md, "Failover readiness"), one text for the
// textfile of `oplog-inspect lag --format prom` and the /metrics of `quota-reconcile serve` with an
// OpLog. Every series ends with the label cluster="...":
//   moonquota_ha_position_known{position}          1/0 for primary_committed, durable, standby_applied, snapshot
//   moonquota_ha_position_sequence{position}       the sequence, known positions only
//   moonquota_ha_window_entries{window}            not_durable, catch_up, snapshot_gap; known windows only
//   moonquota_ha_window_seconds{window}            catch_up, snapshot_gap: the age from sampled history (--db)
//   moonquota_ha_window_tenant_keys{window,tenant_id}, moonquota_ha_window_tenant_charged_bytes_delta{...}
//   moonquota_ha_durable_advanced_timestamp_seconds   when the durable prefix was last seen to move
//   moonquota_ha_last_sample_timestamp_seconds, moonquota_ha_last_sample_success (1/0)
//   moonquota_ha_last_error_info{exit_code,message}   while the newest sampling failed
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "reconcile/lag_positions.hpp"

namespace moonquota::report {

void render_lag_prom(const reconcile::LagReport& report, const std::string& cluster, std::ostream& out);

// A sampling that failed: the last-sample gauges with success 0 and the error.
void render_lag_prom_failure(std::uint64_t sampled_at_ms, int exit_code, const std::string& message,
                             const std::string& cluster, std::ostream& out);

}  // namespace moonquota::report
