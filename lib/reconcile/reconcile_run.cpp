#include "reconcile/reconcile_run.hpp"

#include "util/elapsed.hpp"
#include "util/time_text.hpp"

namespace moonquota::reconcile {

namespace {

// --restore-time defaults to the start of the run, a little after a saved sample was taken.
constexpr std::uint64_t k_restore_after_sample_slack_ms = 60'000;

}  // namespace

ReconcileReport compare(quota::RebuildResult metadata, LiveObservation live, std::uint64_t tolerance_bytes,
                        std::optional<PromotePhantoms> phantoms) {
  ReconcileReport report;
  report.phantoms = std::move(phantoms);
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
  // Audit item 14: a master sampled at T cannot have restored after T. Saved responses with
  // --sampled-at and the default --restore-time (now) model exactly that, and drop objects the
  // sampled master still held.
  const std::uint64_t restore_ms = report.metadata.restore_time_ms;
  if (report.metadata.charge_model == restore::ChargeModel::restore && report.live.first_sample_ms &&
      restore_ms > *report.live.first_sample_ms + k_restore_after_sample_slack_ms) {
    const auto later = static_cast<std::int64_t>(restore_ms - *report.live.first_sample_ms);
    report.live.findings.push_back(
        {model::Severity::warning, "--restore-time",
         "the restore model is at " + util::utc_iso8601(static_cast<std::int64_t>(restore_ms)) + ", " +
             util::hms_text(later) + " after the live sample (" +
             util::utc_iso8601(static_cast<std::int64_t>(*report.live.first_sample_ms)) +
             "): a master sampled then had not restored later; give --restore-time at or before the sample"});
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
  ctx.promote = quota::promote_model(report.metadata);
  if (ctx.promote) ctx.drops = &report.metadata.drops;
  if (report.phantoms) ctx.phantoms = &*report.phantoms;
  report.tenants = diff_tenants(report.metadata.table, report.live.tenants, ctx);
  report.counts = count_verdicts(report.tenants);
  return report;
}

util::Result<ReconcileReport> run_reconcile(source::ObjectStore& store, const ReconcileRequest& request) {
  MQ_ASSIGN_OR_RETURN(auto metadata, quota::run_rebuild(store, request.metadata));
  MQ_ASSIGN_OR_RETURN(auto live, collect_live(request.live));
  std::optional<PromotePhantoms> phantoms;
  if (quota::promote_model(metadata)) {
    const std::uint64_t until_ms = live.first_sample_ms.value_or(util::epoch_ms_now());
    MQ_ASSIGN_OR_RETURN(phantoms, promote_phantoms(store, request.metadata, metadata, until_ms));
  }
  return compare(std::move(metadata), std::move(live), request.tolerance_bytes, std::move(phantoms));
}

}  // namespace moonquota::reconcile
