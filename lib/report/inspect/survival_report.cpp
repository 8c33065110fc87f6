// `snapshot-inspect survival`: the model (per point and tenant, what a restore keeps and drops,
// and when each tenant's charge decays) and the choice of renderer by format.
#include "report/inspect/survival_report.hpp"

#include <set>
#include <string>
#include <utility>

#include "report/inspect/survival_report_parts.hpp"

namespace moonquota::report {

namespace {

// Per tenant (in the order of the points' rows): the charge kept at delay 0, the reference (the
// first point with delay >= 0 that is not an EMPTY promotion: an EMPTY point would make every
// charge "gone at once"), and the first point from there at which at most half / none is kept.
void fill_survival_decay(SurvivalReport& r) {
  if (r.points.empty()) return;
  for (std::size_t t = 0; t < r.points.front().tenants.size(); ++t) {
    TenantDecay d;
    d.tenant_id = r.points.front().tenants[t].tenant_id;
    for (const auto& p : r.points) {
      if (p.point.delay_ms < 0) continue;
      const util::u128 kept = p.tenants[t].kept.charged_bytes;
      if (p.point.delay_ms == 0) d.charged_at_zero = kept;
      if (!d.reference_delay_ms) {
        if (p.promotion && p.promotion->starts_empty) continue;
        d.reference_delay_ms = p.point.delay_ms;
        d.charged_at_reference = kept;
      }
      if (!d.half_gone_after_ms && kept * 2 <= d.charged_at_reference) d.half_gone_after_ms = p.point.delay_ms;
      if (!d.all_gone_after_ms && kept == 0) d.all_gone_after_ms = p.point.delay_ms;
    }
    r.decay.push_back(std::move(d));
  }
}

}  // namespace

std::optional<std::uint64_t> SurvivalRow::share_kept_permille() const {
  const util::u128 all = kept.charged_bytes + dropped.charged_bytes;
  if (all == 0) return std::nullopt;
  return static_cast<std::uint64_t>(kept.charged_bytes * 1000 / all);
}

SurvivalReport build_survival_report(const InspectContext& context, const restore::SurvivalScan& scan,
                                     const std::vector<inspect::SurvivalPoint>& points, restore::LeaseModel lease_model,
                                     std::int64_t created_at_ms, std::uint64_t now_ms) {
  SurvivalReport r;
  r.context = context;
  r.lease_model = lease_model;
  r.created_at_ms = created_at_ms;
  r.now_ms = now_ms;
  for (std::size_t p = 0; p < points.size(); ++p) {
    SurvivalPointRows rows;
    rows.point = points[p];
    for (const auto& [tenant, survival] : scan.tenants) {
      SurvivalRow row;
      row.tenant_id = tenant;
      row.kept = survival.kept_at(p);
      row.dropped = survival.dropped_at(p);
      row.undecodable = survival.undecodable;
      rows.totals.kept += row.kept;
      rows.totals.dropped += row.dropped;
      rows.totals.undecodable += row.undecodable;
      rows.tenants.push_back(std::move(row));
    }
    r.points.push_back(std::move(rows));
  }
  fill_survival_decay(r);
  return r;
}

SurvivalReport build_promote_survival_report(const InspectContext& context, const restore::PromoteSurvival& survival,
                                             const std::vector<inspect::SurvivalPoint>& points,
                                             restore::LeaseModel lease_model, std::int64_t created_at_ms,
                                             std::uint64_t now_ms) {
  SurvivalReport r;
  r.context = context;
  r.path = "promote";
  r.lease_model = lease_model;
  r.created_at_ms = created_at_ms;
  r.now_ms = now_ms;
  r.oplog = SurvivalOpLog{survival.outcome.replay.origin, survival.outcome.replay.first_expected,
                          survival.outcome.replay.applied_seq, survival.per_point_runs,
                          !survival.outcome.replay.prefix.has_value()};
  std::set<std::string> tenants;
  for (const auto& p : survival.points) {
    for (const auto& [tenant, amount] : p.kept) tenants.insert(tenant);
    for (const auto& [tenant, amount] : p.dropped) tenants.insert(tenant);
  }
  for (std::size_t p = 0; p < points.size() && p < survival.points.size(); ++p) {
    const auto& at = survival.points[p];
    SurvivalPointRows rows;
    rows.point = points[p];
    rows.promotion =
        SurvivalPromotion{at.bootstrap_loaded, at.bootstrap_failure, at.starts_empty, at.validation_failure};
    for (const auto& tenant : tenants) {
      SurvivalRow row;
      row.tenant_id = tenant;
      if (auto it = at.kept.find(tenant); it != at.kept.end()) row.kept = it->second;
      if (auto it = at.dropped.find(tenant); it != at.dropped.end()) row.dropped = it->second;
      rows.totals.kept += row.kept;
      rows.totals.dropped += row.dropped;
      rows.tenants.push_back(std::move(row));
    }
    r.points.push_back(std::move(rows));
  }
  fill_survival_decay(r);
  return r;
}

void render_survival(const SurvivalReport& report, const restore::ScannedSnapshot& snapshot, OutputFormat format,
                     std::ostream& out) {
  switch (format) {
    case OutputFormat::json: render_survival_json(report, snapshot, out); break;
    case OutputFormat::ndjson: render_survival_ndjson(report, out); break;
    case OutputFormat::html: render_survival_html(report, out); break;
    default: render_survival_text(report, snapshot, out);
  }
}

}  // namespace moonquota::report
