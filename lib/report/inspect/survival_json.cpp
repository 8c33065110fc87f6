// `snapshot-inspect survival` as the `snapshot-inspect-survival/1` JSON document and as NDJSON
// (one line per point x tenant).
#include <string>
#include <utility>

#include "report/inspect/survival_report_parts.hpp"
#include "report/json_stream.hpp"

namespace moonquota::report {

namespace {

constexpr const char* k_survival_schema = "snapshot-inspect-survival/1";
// Stands for the points array in the document's head: thousands of points are written one at a
// time, never held as one JSON tree (audit item 22: 16,000 points took 190 MB).
constexpr const char* k_points_placeholder = "@@survival-points@@";

Json survival_amount_json(const SurvivalRow& row) {
  Json j;
  j["objects_kept"] = row.kept.objects;
  j["bytes_kept"] = saturate(row.kept.bytes);
  j["charged_bytes"] = saturate(row.kept.charged_bytes);
  j["objects_dropped"] = row.dropped.objects;
  j["bytes_dropped"] = saturate(row.dropped.bytes);
  j["charged_bytes_dropped"] = saturate(row.dropped.charged_bytes);
  j["undecodable"] = row.undecodable;
  auto p = row.share_kept_permille();
  j["share_kept_permille"] = p ? Json(*p) : Json(nullptr);
  return j;
}

Json survival_point_json(const SurvivalPointRows& p) {
  Json j;
  j["label"] = p.point.label;
  j["at_ms"] = p.point.at_ms;
  j["delay_ms"] = p.point.delay_ms;
  j["is_now"] = p.point.is_now;
  j["added"] = p.point.added;
  return j;
}

Json survival_promotion_json(const SurvivalPromotion& p) {
  Json j;
  j["bootstrap_loaded"] = p.bootstrap_loaded;
  j["bootstrap_failure"] = p.bootstrap_failure.empty() ? Json(nullptr) : Json(p.bootstrap_failure);
  j["starts_empty"] = p.starts_empty;
  j["failure"] = p.failure.empty() ? Json(nullptr) : Json(p.failure);
  return j;
}

Json survival_point_document(const SurvivalPointRows& p) {
  Json pj = survival_point_json(p);
  if (p.promotion) pj["promotion"] = survival_promotion_json(*p.promotion);
  pj["totals"] = survival_amount_json(p.totals);
  Json tenants = Json::array();
  for (const auto& t : p.tenants) {
    Json tj;
    put_bytes(tj, "tenant_id", t.tenant_id);
    tj.update(survival_amount_json(t));
    tenants.push_back(std::move(tj));
  }
  pj["tenants"] = std::move(tenants);
  return pj;
}

Json survival_optional_ms(const std::optional<std::int64_t>& ms) { return ms ? Json(*ms) : Json(nullptr); }

Json survival_report_json(const SurvivalReport& r, const restore::ScannedSnapshot& snap) {
  Json j = header_json(r.context, snap, k_survival_schema);
  j["path"] = r.path;
  if (r.path != "promote") {
    j["restored_snapshot_id"] = r.restored_snapshot_id.empty() ? Json(nullptr) : Json(r.restored_snapshot_id);
  }
  if (r.oplog) {
    j["oplog"] = {{"origin", r.oplog->origin},
                  {"first_expected_seq", r.oplog->first_expected},
                  {"applied_seq", r.oplog->applied_seq},
                  {"per_point_runs", r.oplog->per_point_runs},
                  {"durable_prefix_missing", r.oplog->prefix_missing}};
  }
  j["lease_model"] = restore::lease_model_name(r.lease_model);
  // The shared header's block (id, created_at_ms, created_at, age_at_restore_ms), plus survival's
  // own reading of "now" (the --restore-time).
  Json& snapshot = j["snapshot"];
  snapshot["snapshot_id"] = r.context.selected.snapshot_id;
  snapshot["created_at_ms"] = r.created_at_ms;
  snapshot["now_ms"] = r.now_ms;
  snapshot["age_now_ms"] = static_cast<std::int64_t>(r.now_ms) - r.created_at_ms;
  j["points"] = k_points_placeholder;  // written point by point (render_survival_json)
  Json decay = Json::array();
  for (const auto& d : r.decay) {
    Json dj;
    put_bytes(dj, "tenant_id", d.tenant_id);
    dj["charged_bytes_at_delay_0"] = saturate(d.charged_at_zero);
    dj["reference_delay_ms"] = survival_optional_ms(d.reference_delay_ms);
    dj["charged_bytes_at_reference"] = saturate(d.charged_at_reference);
    dj["half_gone_after_ms"] = survival_optional_ms(d.half_gone_after_ms);
    dj["all_gone_after_ms"] = survival_optional_ms(d.all_gone_after_ms);
    decay.push_back(std::move(dj));
  }
  j["tenants"] = std::move(decay);
  return j;
}

}  // namespace

void render_survival_json(const SurvivalReport& r, const restore::ScannedSnapshot& snap, std::ostream& out) {
  write_json_with_streamed_array(out, survival_report_json(r, snap), k_points_placeholder, r.points.size(),
                                 [&](std::size_t i) { return survival_point_document(r.points[i]); });
}

void render_survival_ndjson(const SurvivalReport& r, std::ostream& out) {
  for (const auto& p : r.points) {
    for (const auto& t : p.tenants) {
      Json j;
      j["schema"] = k_survival_schema;
      j["snapshot_id"] = r.restored_snapshot_id.empty() ? r.context.selected.snapshot_id : r.restored_snapshot_id;
      j["path"] = r.path;
      j["lease_model"] = restore::lease_model_name(r.lease_model);
      j.update(survival_point_json(p));
      if (p.promotion) j["starts_empty"] = p.promotion->starts_empty;
      put_bytes(j, "tenant_id", t.tenant_id);
      j.update(survival_amount_json(t));
      out << dump_inspect_json(j, -1) << "\n";
    }
  }
}

}  // namespace moonquota::report
