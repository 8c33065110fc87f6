#include "report/reconcile/reconcile_json.hpp"

#include <sstream>

#include "report/explain_report.hpp"
#include "report/json_stream.hpp"
#include "report/rebuild/drops_report.hpp"
#include "report/rebuild/rebuild_report.hpp"
#include "util/text_encoding.hpp"

namespace moonquota::report {

namespace {

using nlohmann::ordered_json;

ordered_json optional_json(const std::optional<std::int64_t>& v) {
  return v ? ordered_json(*v) : ordered_json(nullptr);
}
ordered_json optional_json(const std::optional<std::uint64_t>& v) {
  return v ? ordered_json(*v) : ordered_json(nullptr);
}

ordered_json metadata_json(const reconcile::ReconcileReport& r) {
  const ordered_json rebuild = rebuild_report_json(r.metadata);
  ordered_json m = rebuild["source"];
  m["model"] = quota::model_name(r.metadata);
  m["lease_model"] = restore::lease_model_name(r.metadata.lease_model);  // the live model applies no lease filter
  // The restore time is an input of the restore model only.
  m["restore_time_ms"] = r.metadata.charge_model == restore::ChargeModel::restore
                             ? ordered_json(r.metadata.restore_time_ms)
                             : ordered_json(nullptr);
  m["capacity_bytes"] = r.metadata.table.capacity_bytes;
  m["capacity_mode"] = rebuild["capacity_mode"];
  m["policy"] = rebuild["policy"]["source"];
  m["master_starts_empty"] = r.metadata.starts_empty();
  m["point_ms"] = optional_json(r.metadata_point_ms);
  m["age_ms"] = optional_json(r.metadata_age_ms);
  m["dropped"] = rebuild["dropped"];
  m["candidates"] = rebuild["candidates"];
  // The age at the restore time: the restore model only (the live model has none).
  m["snapshot"] = snapshot_point_json(r.metadata, r.metadata.charge_model == restore::ChargeModel::restore);
  if (r.phantoms) {  // the promote model only
    const auto& p = *r.phantoms;
    m["phantoms"] = {{"computed", p.computed},
                     {"bootstrap_ms", p.bootstrap_ms},
                     {"until_ms", p.until_ms},
                     {"tenants", p.tenants.size()},
                     {"note", p.note.empty() ? ordered_json(nullptr) : ordered_json(p.note)}};
  }
  return m;
}

ordered_json live_json(const reconcile::LiveObservation& l) {
  ordered_json j;
  j["source"] = l.source;
  j["sampled_at_ms"] = l.first_sample_ms.value_or(0);
  j["samples"] = l.samples;
  j["sampled_at_known"] = l.first_sample_ms.has_value();
  j["last_sample_ms"] = optional_json(l.last_sample_ms);
  j["readings"] = l.readings.size();
  j["requests"] = l.requests;
  j["retries"] = l.retries;
  j["unavailable_answers"] = l.unavailable_answers;
  j["transport_failures"] = l.transport_failures;
  j["capacity_bytes"] = optional_json(l.capacity_bytes);
  return j;
}

ordered_json flags_json(std::uint64_t requested, std::uint64_t effective, bool explicit_policy, bool closed,
                        bool over) {
  return {{"requested_quota_bytes", requested},
          {"effective_quota_bytes", effective},
          {"has_explicit_policy", explicit_policy},
          {"admission_closed", closed},
          {"over_quota", over}};
}

ordered_json tenant_json(const reconcile::ReconcileReport& r, const reconcile::TenantDiff& d,
                         const history::TrendTable* trends) {
  ordered_json t = {{"tenant_id", d.tenant_id},
                    {"expected_charged_bytes", d.expected_charged_bytes},
                    {"live_charged_bytes", d.live_charged_bytes},
                    {"delta_bytes", d.delta_bytes},
                    {"verdict", reconcile::verdict_name(d.verdict)},
                    {"within_tolerance", d.within_tolerance}};
  if (!util::is_valid_utf8(d.tenant_id)) t["tenant_id_hex"] = util::to_hex(d.tenant_id);
  t["live_max_charged_bytes"] = d.live_max_charged_bytes;
  t["in_metadata"] = d.expected.has_value();
  t["in_live"] = d.live.has_value();
  if (d.expected) {
    const auto& e = *d.expected;
    t["metadata"] = flags_json(e.requested_quota_bytes, e.effective_quota_bytes, e.has_explicit_policy,
                               e.admission_closed, e.over_quota);
    t["metadata"]["object_count"] = e.object_count;
    t["metadata"]["orphan"] = e.orphan;
    t["metadata"]["visible"] = e.visible;
  }
  if (d.live) {
    const auto& l = d.live->last;
    t["live"] = flags_json(l.requested_quota_bytes, l.effective_quota_bytes, l.has_explicit_policy, l.admission_closed,
                           l.over_quota);
    t["live"]["readings_present"] = d.live->readings_present;
  }
  t["flag_differences"] = d.flag_differences;
  t["in_flight_bytes"] = d.in_flight_bytes;
  ordered_json causes = ordered_json::array();
  for (const auto& c : d.causes) causes.push_back({{"cause", c.id}, {"bytes", c.bytes}, {"detail", c.detail}});
  t["causes"] = std::move(causes);
  t["explained_bytes"] = d.explained_bytes;
  t["unexplained_bytes"] = d.unexplained_bytes;
  t["unexplained_within_tolerance"] = d.unexplained_within_tolerance;
  t["likely_causes"] = d.likely_causes;
  if (r.metadata.charge_model == restore::ChargeModel::restore) {  // the live model drops nothing: omitted
    const quota::TenantDrops drops = drops_of(r.metadata.drops, d.tenant_id, d.expected_charged_bytes);
    t["dropped"] = tenant_drops_json(drops, r.metadata.drops.standby);
    t["charged_bytes_without_drops"] = drops.charged_bytes_without_drops;
  }
  if (trends != nullptr) {
    const auto* trend = trends->find(d.tenant_id);
    t["persistent"] = trend != nullptr && trend->persistent;
    t["streak_runs"] = trend != nullptr ? trend->streak_runs : 0;
    t["rate_bytes_per_hour"] = trend != nullptr && trend->rate_bytes_per_hour
                                   ? ordered_json(static_cast<std::int64_t>(*trend->rate_bytes_per_hour))
                                   : ordered_json(nullptr);
  }
  return t;
}

// Stands for the tenants array in the head of the document (written tenant by tenant).
constexpr const char* k_tenants_placeholder = "@@reconcile-tenants@@";

// The document with k_tenants_placeholder in place of its tenants.
ordered_json reconcile_report_head(const reconcile::ReconcileReport& r, const history::TrendTable* trends) {
  ordered_json j;
  j["schema"] = "quota-reconcile/1";
  j["metadata"] = metadata_json(r);
  j["live"] = live_json(r.live);
  j["tolerance_bytes"] = r.tolerance_bytes;
  const auto& c = r.counts;
  ordered_json summary = {{"tenants", c.tenants},
                          {"match", c.by_verdict[static_cast<int>(reconcile::Verdict::match)]},
                          {"drift", c.drift},
                          {"max_abs_delta_bytes", c.max_abs_delta_bytes},
                          {"outside_tolerance", c.outside_tolerance},
                          {"unexplained_outside_tolerance", c.unexplained_outside_tolerance},
                          {"max_abs_unexplained_bytes", c.max_abs_unexplained_bytes}};
  ordered_json by_verdict;
  for (int v = 0; v < reconcile::k_verdict_count; ++v) {
    by_verdict[reconcile::verdict_name(static_cast<reconcile::Verdict>(v))] = c.by_verdict[v];
  }
  summary["by_verdict"] = std::move(by_verdict);
  if (trends != nullptr) {
    std::uint64_t persistent = 0;
    for (const auto& t : trends->tenants) persistent += t.persistent ? 1 : 0;
    summary["persistent"] = persistent;
  }
  j["summary"] = std::move(summary);
  j["tenants"] = k_tenants_placeholder;
  j["model"] = quota::model_name(r.metadata);  // after the contract's fields
  j["lease_model"] = restore::lease_model_name(r.metadata.lease_model);
  ordered_json findings = ordered_json::array();
  for (const auto& f : r.live.findings) {
    findings.push_back(
        {{"severity", model::severity_name(f.severity)}, {"location", f.location}, {"message", f.message}});
  }
  j["live_findings"] = std::move(findings);
  if (r.metadata.explain) j["explain"] = explain_json(*r.metadata.explain, explain_model_text(r.metadata));
  if (trends != nullptr) {
    j["history"] = {{"model", quota::model_name(r.metadata)},
                    {"runs", trends->run_times_ms.size()},
                    {"persistence_runs", trends->persistence_runs}};
  }
  return j;
}

}  // namespace

ordered_json reconcile_report_json(const reconcile::ReconcileReport& r, const history::TrendTable* trends) {
  ordered_json j = reconcile_report_head(r, trends);
  ordered_json tenants = ordered_json::array();
  for (const auto& d : r.tenants) tenants.push_back(tenant_json(r, d, trends));
  j["tenants"] = std::move(tenants);
  return j;
}

void write_reconcile_report_json(const reconcile::ReconcileReport& r, const history::TrendTable* trends,
                                 std::ostream& out) {
  write_json_with_streamed_array(out, reconcile_report_head(r, trends), k_tenants_placeholder, r.tenants.size(),
                                 [&](std::size_t i) { return tenant_json(r, r.tenants[i], trends); });
}

std::string reconcile_report_json_text(const reconcile::ReconcileReport& r, const history::TrendTable* trends) {
  std::ostringstream out;
  write_reconcile_report_json(r, trends, out);
  return out.str();
}

}  // namespace moonquota::report
