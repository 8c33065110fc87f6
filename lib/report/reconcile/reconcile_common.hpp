// Small phrases shared by the quota-reconcile renderers (text, Markdown, HTML).
#pragma once

#include <cstdint>
#include <string>

#include "reconcile/reconcile_run.hpp"
#include "util/time_text.hpp"

namespace moonquota::report {

// "+4096", "-12", "0".
[[nodiscard]] inline std::string signed_bytes(std::int64_t v) { return (v > 0 ? "+" : "") + std::to_string(v); }

// "metadata is 3.2 s older than the live sample" / "... newer ..." / "unknown ...".
[[nodiscard]] inline std::string metadata_age_phrase(const reconcile::ReconcileReport& r) {
  if (!r.metadata_age_ms) {
    return r.metadata_point_ms ? "unknown: the live sample time is not known (saved responses without --sampled-at)"
                               : "unknown: the snapshot has no descriptor time";
  }
  // The span as every other age of the reports ("1h 02m 03s", as `created:` and `age at restore`).
  const std::int64_t ms = *r.metadata_age_ms;
  return "metadata is " + util::hms_text(ms < 0 ? util::span_ms(0, ms) : ms) + (ms >= 0 ? " older" : " newer") +
         " than the live sample";
}

// When the master was sampled: "2026-12-01T00:00:00.000Z (1796083200000 ms)", or why it is unknown.
[[nodiscard]] inline std::string sampled_phrase(const reconcile::ReconcileReport& r) {
  if (!r.live.first_sample_ms) return "unknown (saved responses without --sampled-at)";
  const std::uint64_t ms = *r.live.first_sample_ms;
  return util::utc_iso8601(static_cast<std::int64_t>(ms)) + " (" + std::to_string(ms) + " ms)";
}

// "'gamma' is an orphan: charged with no policy; admission closed, over quota (...)" (id as given).
[[nodiscard]] inline std::string orphan_phrase(const std::string& tenant_id) {
  return "'" + tenant_id +
         "' is an orphan: charged with no policy; admission closed, over quota (quota-reconcile plan --adopt "
         "TENANT=BYTES writes the fix)";
}

// Which model made the expected side (docs/accounting.md, "The two models").
[[nodiscard]] inline std::string model_phrase(const reconcile::ReconcileReport& r) {
  if (r.metadata.charge_model == restore::ChargeModel::live) {
    return "live: what a running master holds for this metadata (size x COMPLETE MEMORY replicas of every object, "
           "nothing erased)";
  }
  if (r.metadata.path == quota::MasterPath::promote) {
    return "promote at " + std::to_string(r.metadata.restore_time_ms) +
           " ms: what a standby that bootstrapped then from the latest snapshot and replayed the OpLog would serve "
           "once promoted (its bootstrap erases lease-expired and non-COMPLETE objects; objects it loaded stay, "
           "whatever the primary evicts later)";
  }
  if (r.metadata.lease_model == restore::LeaseModel::keep) {
    return "restore at " + std::to_string(r.metadata.restore_time_ms) +
           " ms, lease model keep: what a master that restored this metadata and ignored leases would rebuild "
           "(non-COMPLETE objects erased, lease-expired objects kept)";
  }
  return "restore at " + std::to_string(r.metadata.restore_time_ms) +
         " ms, lease model upstream: what a master that restored this metadata then rebuilt (lease-expired and "
         "non-COMPLETE objects erased)";
}

// "in_flight_writes 4096 bytes: 1 object with PROCESSING MEMORY replicas ...".
[[nodiscard]] inline std::string cause_phrase(const reconcile::Cause& c) {
  return c.id + " " + std::to_string(c.bytes) + " bytes: " + c.detail;
}

// "snapshot 20261129_124455_488 (created_at_ms N, last_included_seq 0)" or the EMPTY prediction.
// The snapshot's created_at as ISO-8601 and, in the restore model, its age at the restore time.
[[nodiscard]] inline std::string metadata_point_phrase(const reconcile::ReconcileReport& r) {
  const bool with_age = r.metadata.charge_model == restore::ChargeModel::restore;
  if (r.metadata.promote) {
    const auto& p = *r.metadata.promote;
    if (p.starts_empty()) return "none: the promotion's restore validation fails, the master serves EMPTY metadata";
    std::string created;
    if (const auto& point = r.metadata.snapshot) {
      created =
          ", created_at_ms " + std::to_string(point->created_at_ms) + " = " + util::utc_iso8601(point->created_at_ms);
      if (with_age) created += ", age at restore " + util::hms_text(point->age_at_restore_ms);
    }
    return "promote path: snapshot " +
           (p.bootstrap.loaded && p.bootstrap.snapshot_id ? *p.bootstrap.snapshot_id : "none") +
           " (last_included_seq " + std::to_string(p.bootstrap.last_included_seq) + created + ") + OpLog to seq " +
           std::to_string(p.replay.applied_seq);
  }
  const auto& state = r.metadata.outcome.state;
  if (!state) return "none: the master would start EMPTY (" + r.metadata.outcome.empty_reason + ")";
  std::string s = "snapshot " + state->snapshot_id;
  if (state->descriptor) {
    s += " (created_at_ms " + std::to_string(state->descriptor->created_at_ms) + " = " +
         util::utc_iso8601(state->descriptor->created_at_ms) + ", last_included_seq " +
         std::to_string(state->descriptor->last_included_seq);
    if (with_age && r.metadata.snapshot)
      s += ", age at restore " + util::hms_text(r.metadata.snapshot->age_at_restore_ms);
    s += ")";
  }
  return s;
}

}  // namespace moonquota::report
