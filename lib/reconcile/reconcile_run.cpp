#include "reconcile/reconcile_run.hpp"

namespace moonquota::reconcile {

ReconcileReport compare(quota::RebuildResult metadata, LiveObservation live, std::uint64_t tolerance_bytes) {
  ReconcileReport report;
  report.metadata = std::move(metadata);
  report.live = std::move(live);
  report.tolerance_bytes = tolerance_bytes;
  const auto& state = report.metadata.outcome.state;
  if (state && state->descriptor && state->descriptor->created_at_ms > 0) {
    report.metadata_point_ms = state->descriptor->created_at_ms;
  }
  if (report.metadata_point_ms && report.live.first_sample_ms) {
    report.metadata_age_ms = static_cast<std::int64_t>(*report.live.first_sample_ms) - *report.metadata_point_ms;
  }
  DiffContext ctx;
  ctx.model = report.metadata.charge_model;
  ctx.tolerance_bytes = tolerance_bytes;
  ctx.metadata_age_ms = report.metadata_age_ms;
  ctx.metadata_capacity_bytes = report.metadata.table.capacity_bytes;
  ctx.live_capacity_bytes = report.live.capacity_bytes;
  ctx.metadata_starts_empty = report.metadata.starts_empty();
  if (state) ctx.tallies = &state->tenants;
  if (report.metadata.promote) ctx.tallies = &report.metadata.promote->validation.tenants;
  report.tenants = diff_tenants(report.metadata.table, report.live.tenants, ctx);
  report.counts = count_verdicts(report.tenants);
  return report;
}

util::Result<ReconcileReport> run_reconcile(source::ObjectStore& store, const ReconcileRequest& request) {
  MQ_ASSIGN_OR_RETURN(auto metadata, quota::run_rebuild(store, request.metadata));
  MQ_ASSIGN_OR_RETURN(auto live, collect_live(request.live));
  return compare(std::move(metadata), std::move(live), request.tolerance_bytes);
}

}  // namespace moonquota::reconcile
