// quota-rebuild's check as a Prometheus textfile (format 0.0.4), for a pre-failover CronJob that
// writes it into node_exporter's textfile directory or pushes it to a pushgateway. Gauges, all
// prefixed moonquota_rebuild_ and labelled cluster (last):
//   master_starts_empty{path} (0/1; path restore | promote), charged_bytes{tenant_id} and
//   objects{tenant_id} (the rebuilt account table), tenants, total_charged_bytes,
//   dropped_objects{path,reason} (restore: non_complete, lease_expired, undecodable; promote's
//   standby bootstrap: non_complete, lease_expired, size_zero, invalid_memory),
//   snapshot_created_timestamp_seconds and snapshot_age_seconds (restore time minus created_at;
//   only when the snapshot's descriptor gives a created_at), restore_timestamp_seconds,
//   then the run facts of report::run_facts.
// Label values are escaped (\\, \", \n), one that is not UTF-8 is "0x" + its bytes in hex; tenants
// sorted bytewise.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "quota/rebuild.hpp"

namespace moonquota::report {

void render_rebuild_prom(const quota::RebuildResult& result, const std::string& cluster, std::uint64_t run_at_ms,
                         int exit_code, std::ostream& out);

// A check that could not run (exit 2..5): its run facts alone (last_run_success 0,
// last_error_info{exit_code,message}), so the alert on a failing check fires.
void render_rebuild_prom_failure(const std::string& cluster, std::uint64_t run_at_ms, int exit_code,
                                 const std::string& message, std::ostream& out);

}  // namespace moonquota::report
