// quota-reconcile's report as a Prometheus textfile (node_exporter textfile collector, format
// 0.0.4). Gauges, all prefixed moonquota_reconcile_:
//   expected_charged_bytes{tenant_id}, live_charged_bytes{tenant_id}, live_max_charged_bytes{tenant_id},
//   delta_bytes{tenant_id} (signed), within_tolerance{tenant_id} (0/1),
//   verdict{tenant_id,verdict} (1 for the tenant's verdict; one series per tenant),
//   persistent{tenant_id} and drift_rate_bytes_per_hour{tenant_id} (with --db),
//   tenants{verdict} (counts), tolerance_bytes, metadata_age_seconds (when known),
//   samples, last_run_timestamp_seconds, run_success (1), exit_code.
// Every series also carries cluster="NAME" (its last label), so the textfiles of two cells in one
// node_exporter directory do not collide. Label values are escaped (\\, \", \n); series are
// sorted by tenant id.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "history/trend.hpp"
#include "reconcile/reconcile_run.hpp"

namespace moonquota::report {

void render_reconcile_prom(const reconcile::ReconcileReport& report, const history::TrendTable* trends,
                           std::uint64_t run_at_ms, int exit_code, const std::string& cluster, std::ostream& out);

// The families that describe the report itself: every one above except last_run_timestamp_seconds,
// run_success and exit_code (the run's own status, which `quota-reconcile serve` renders from its
// run history instead).
void render_reconcile_prom_tenants(const reconcile::ReconcileReport& report, const history::TrendTable* trends,
                                   const std::string& cluster, std::ostream& out);

// A run that could not compare (exit 2..5): run_success 0, exit_code, last_run_timestamp_seconds,
// and an error{message} info series, so alerts fire on a failing audit too.
void render_reconcile_prom_failure(std::uint64_t run_at_ms, int exit_code, const std::string& message,
                                   const std::string& cluster, std::ostream& out);

}  // namespace moonquota::report
