// quota-reconcile's report as a Prometheus textfile (node_exporter textfile collector, format
// 0.0.4). Gauges, all prefixed moonquota_reconcile_:
//   expected_charged_bytes{tenant_id}, live_charged_bytes{tenant_id}, live_max_charged_bytes{tenant_id},
//   delta_bytes{tenant_id} (signed), within_tolerance{tenant_id} (0/1),
//   verdict{tenant_id,verdict} (1 for the tenant's verdict; one series per tenant),
//   persistent{tenant_id} and drift_rate_bytes_per_second{tenant_id} (with --db; the deprecated
//   drift_rate_bytes_per_hour beside it for one more release), tenants{verdict,model} (counts),
//   model{model,lease_model} 1, tolerance_bytes, samples, snapshot_created_timestamp_seconds and
//   metadata_age_seconds (when known), then the run facts of report::run_facts.
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

// The families that describe the report itself: every one above except the run facts (which
// `quota-reconcile serve` renders from its run history instead).
void render_reconcile_prom_tenants(const reconcile::ReconcileReport& report, const history::TrendTable* trends,
                                   const std::string& cluster, std::ostream& out);

// A run that could not compare (exit 2..5): its run facts alone (last_run_success 0,
// last_error_info{exit_code,message}), so alerts fire on a failing audit too.
void render_reconcile_prom_failure(std::uint64_t run_at_ms, int exit_code, const std::string& message,
                                   const std::string& cluster, std::ostream& out);

}  // namespace moonquota::report
