#include "history/run_record.hpp"

namespace moonquota::history {

RunRecord make_run_record(const reconcile::ReconcileReport& report, std::uint64_t fallback_now_ms) {
  RunRecord run;
  run.run_at_ms = report.live.first_sample_ms.value_or(fallback_now_ms);
  run.live_source = report.live.source;
  run.model = quota::model_name(report.metadata);
  const auto& state = report.metadata.outcome.state;
  if (state) {
    run.snapshot_id = state->snapshot_id;
    if (state->descriptor) run.last_included_seq = state->descriptor->last_included_seq;
  }
  if (report.metadata.promote) {  // the same metadata point as the quota-rebuild/1 source block
    const auto& p = *report.metadata.promote;
    run.snapshot_id = p.bootstrap.loaded && p.bootstrap.snapshot_id ? *p.bootstrap.snapshot_id : "";
    run.last_included_seq = p.bootstrap.last_included_seq;
    run.oplog_applied_seq = p.replay.applied_seq;
  }
  run.metadata_point_ms = report.metadata_point_ms;
  run.tolerance_bytes = report.tolerance_bytes;
  run.tenants.reserve(report.tenants.size());
  for (const auto& d : report.tenants) {
    run.tenants.push_back({d.tenant_id, d.expected_charged_bytes, d.live_charged_bytes, d.delta_bytes,
                           reconcile::verdict_name(d.verdict), d.within_tolerance, d.unexplained_bytes,
                           d.unexplained_within_tolerance});
  }
  return run;
}

}  // namespace moonquota::history
