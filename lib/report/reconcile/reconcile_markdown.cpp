#include "report/reconcile/reconcile_markdown.hpp"

#include "report/escape.hpp"
#include "report/rebuild/drops_report.hpp"
#include "report/reconcile/reconcile_common.hpp"

namespace moonquota::report {

namespace {

std::string cell(const std::string& raw) { return markdown_escape(raw); }

// The restore model's drop table (what text prints as DROPPED BY THE RESTORE); nothing when empty.
void render_drops_markdown(const quota::DropTable& table, std::ostream& out) {
  const DropTableCells drops = drop_table_cells(table);
  if (drops.rows.empty()) return;
  out << "\n## " << cell(drops.title) << "\n\n" << cell(k_drop_bytes_meaning) << ".\n\n|";
  for (const auto& head : drops.headers) out << " " << cell(head) << " |";
  out << "\n|---|";
  for (std::size_t i = 1; i < drops.headers.size(); ++i) out << "---:|";
  out << "\n";
  for (const auto& row : drops.rows) {
    out << "|";
    for (const auto& v : row) out << " " << cell(v) << " |";
    out << "\n";
  }
}

}  // namespace

void render_reconcile_markdown(const reconcile::ReconcileReport& r, const history::TrendTable* trends,
                               std::ostream& out) {
  const auto& c = r.counts;
  out << "# Tenant quota reconciliation: " << (r.drift() ? "DRIFT" : "in balance") << "\n\n";
  out << "| | |\n|---|---|\n";
  out << "| model | " << cell(model_phrase(r)) << " |\n";
  out << "| live master | " << cell(r.live.source) << " |\n";
  out << "| sampled at | " << cell(sampled_phrase(r)) << " |\n";
  out << "| metadata point | " << cell(metadata_point_phrase(r)) << " |\n";
  out << "| metadata age | " << cell(metadata_age_phrase(r)) << " |\n";
  out << "| capacity | " << r.metadata.table.capacity_bytes << " bytes ("
      << quota::capacity_mode_name(r.metadata.capacity.mode) << ")";
  if (r.live.capacity_bytes) out << "; live gauge " << *r.live.capacity_bytes << " bytes";
  out << " |\n";
  out << "| samples | " << r.live.samples << " |\n";
  out << "| tolerance | " << r.tolerance_bytes << " bytes |\n";
  out << "| tenants | " << c.tenants << ": " << c.by_verdict[0] << " match, " << c.drift << " drift |\n";
  out << "| max abs delta | " << c.max_abs_delta_bytes << " bytes |\n";
  out << "| unexplained | " << c.unexplained_outside_tolerance << " outside tolerance; max abs "
      << c.max_abs_unexplained_bytes << " bytes |\n\n";

  out << "## Tenants" << (r.drift() ? " that drift" : "") << "\n\n";
  out << "| tenant | expected | live (min) | live (max) | delta | in flight | explained | unexplained | verdict | "
         "within tolerance |"
      << (trends != nullptr ? " persistent | rate (B/h) |" : "") << "\n";
  out << "|---|---:|---:|---:|---:|---:|---:|---:|---|---|" << (trends != nullptr ? "---|---:|" : "") << "\n";
  for (const auto& d : r.tenants) {
    if (r.drift() && d.verdict == reconcile::Verdict::match) continue;
    out << "| " << cell(d.tenant_id) << " | " << d.expected_charged_bytes << " | "
        << (d.live ? std::to_string(d.live_charged_bytes) : "-") << " | "
        << (d.live ? std::to_string(d.live_max_charged_bytes) : "-") << " | " << signed_bytes(d.delta_bytes) << " | "
        << d.in_flight_bytes << " | " << d.explained_bytes << " | " << signed_bytes(d.unexplained_bytes) << " | "
        << reconcile::verdict_name(d.verdict) << " | " << (d.within_tolerance ? "yes" : "**no**") << " |";
    if (trends != nullptr) {
      const auto* t = trends->find(d.tenant_id);
      out << " " << (t != nullptr && t->persistent ? "**yes**" : "no") << " | ";
      if (t != nullptr && t->rate_bytes_per_hour) {
        out << static_cast<long long>(*t->rate_bytes_per_hour);
      } else {
        out << "-";
      }
      out << " |";
    }
    out << "\n";
  }
  bool any_cause = false;
  for (const auto& d : r.tenants) {
    if (d.verdict == reconcile::Verdict::match) continue;
    if (!any_cause) out << "\n## What can explain each difference\n";
    any_cause = true;
    out << "\n### " << cell(d.tenant_id) << ": " << reconcile::verdict_name(d.verdict) << ", delta "
        << signed_bytes(d.delta_bytes) << " bytes\n\n";
    for (const auto& f : d.flag_differences) out << "- differs: " << cell(f) << "\n";
    for (const auto& cause : d.causes) out << "- cause: " << cell(cause_phrase(cause)) << "\n";
    if (!d.causes.empty()) out << "- unexplained: " << signed_bytes(d.unexplained_bytes) << " bytes\n";
    for (const auto& cause : d.likely_causes) out << "- " << cell(cause) << "\n";
  }
  for (const auto& d : r.tenants) {
    if (d.expected && d.expected->orphan && d.expected->visible) {
      out << "\n**Note:** " << cell(orphan_phrase(d.tenant_id)) << "\n";
    }
  }
  render_drops_markdown(r.metadata.drops, out);
  bool any_finding = false;
  for (const auto& f : r.live.findings) {
    if (f.severity == model::Severity::info) continue;
    if (!any_finding) out << "\n## Live consistency findings\n\n";
    any_finding = true;
    out << "- **" << model::severity_name(f.severity) << "** " << cell(f.location) << ": " << cell(f.message) << "\n";
  }
}

}  // namespace moonquota::report
