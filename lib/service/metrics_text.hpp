// /metrics of `quota-reconcile serve` (Prometheus text exposition 0.0.4). Every series carries
// cluster="NAME" as its last label.
//
// Always:
//   moonquota_build_info{version,git,upstream_commit} 1
//   moonquota_reconcile_runs_total{result="ok"|"drift"|"error"} (counter; all three, from 0)
//   moonquota_reconcile_running (1 while an audit is in progress)
// Once a run has finished (the run facts the one-shot textfiles name the same way, report::run_facts):
//   moonquota_reconcile_last_run_timestamp_seconds (when it finished), moonquota_reconcile_last_run_success (1:
//   compared and recorded; 0: failed), moonquota_reconcile_last_run_duration_seconds,
//   moonquota_reconcile_last_run_exit_code, moonquota_reconcile_last_error_info{exit_code,message} 1 (only while the
//   newest run failed)
// Once a run has succeeded: moonquota_reconcile_last_success_timestamp_seconds.
// Once a run has compared: moonquota_reconcile_snapshot_age_seconds (now - the snapshot's
// created_at, when its descriptor gives one), then the per-tenant and report families of the
// one-shot's --format prom (report::render_reconcile_prom_tenants) for the newest comparison.
// Those stay after a failed run: the success timestamp tells how old they are.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "service/run_state.hpp"

namespace moonquota::service {

struct BuildInfo {
  std::string version;
  std::string git;
  std::string upstream_commit;
};

// A label value longer than this (an error message) is cut, ending in "...".
inline constexpr std::size_t k_max_message_label_bytes = 512;

void render_service_metrics(const StateView& view, const BuildInfo& build, const std::string& cluster,
                            std::uint64_t now_ms, std::ostream& out);

}  // namespace moonquota::service
