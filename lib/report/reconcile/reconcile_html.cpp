#include "report/reconcile/reconcile_html.hpp"

#include <algorithm>
#include <ctime>
#include <sstream>

#include "report/escape.hpp"
#include "report/rebuild/drops_report.hpp"
#include "report/reconcile/reconcile_common.hpp"
#include "report/svg_chart.hpp"
#include "util/text_encoding.hpp"

namespace moonquota::report {

namespace {

constexpr const char* k_style =
    "body{font-family:system-ui,sans-serif;margin:2em;color:#222}"
    "h1{font-size:1.4em}h2{font-size:1.1em;margin-top:1.6em}"
    "table{border-collapse:collapse;font-size:.9em}td,th{border:1px solid #ccc;padding:.25em .6em}"
    "td.n{text-align:right;font-variant-numeric:tabular-nums}th{background:#f3f3f3}"
    ".match{color:#1a7f37}.live_over,.live_under{color:#cf222e;font-weight:bold}"
    ".missing_live,.missing_metadata{color:#9a6700;font-weight:bold}.flags_mismatch{color:#8250df}"
    ".badge{padding:.2em .6em;border-radius:.3em;color:#fff}.ok{background:#1a7f37}.bad{background:#cf222e}"
    ".stale{border:2px solid #cf222e;background:#ffebe9;padding:.6em;font-weight:bold}"
    "svg{border:1px solid #ddd;background:#fff}";

std::vector<ChartSeries> chart_series(const reconcile::ReconcileReport& r, const history::TrendTable* trends) {
  std::vector<ChartSeries> series;
  if (trends != nullptr) {
    for (const auto& t : trends->tenants) {
      ChartSeries s{t.tenant_id, {}};
      for (const auto& p : t.points) s.points.push_back({p.run_at_ms, p.point.delta_bytes});
      series.push_back(std::move(s));
    }
  } else {
    const std::uint64_t at = r.live.first_sample_ms.value_or(0);
    for (const auto& d : r.tenants) series.push_back({d.tenant_id, {{at, d.delta_bytes}}});
  }
  auto weight = [](const ChartSeries& s) {
    std::int64_t w = 0;
    for (const auto& p : s.points) w = std::max(w, p.delta_bytes < 0 ? -p.delta_bytes : p.delta_bytes);
    return w;
  };
  std::stable_sort(series.begin(), series.end(), [&](const auto& a, const auto& b) { return weight(a) > weight(b); });
  if (series.size() > 8) series.resize(8);
  std::sort(series.begin(), series.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return series;
}

void render_table(const reconcile::ReconcileReport& r, const history::TrendTable* trends, std::ostream& out) {
  out << "<table id=\"tenants\"><thead><tr><th>tenant</th><th>expected</th><th>live (min)</th><th>live (max)</th>"
         "<th>delta</th><th>in flight</th><th>explained</th><th>unexplained</th><th>verdict</th><th>within "
         "tolerance</th>";
  if (trends != nullptr) out << "<th>persistent</th><th>rate (B/h)</th>";
  out << "</tr></thead><tbody>\n";
  for (const auto& d : r.tenants) {
    const char* v = reconcile::verdict_name(d.verdict);
    out << "<tr class=\"tenant\"><td>" << html_escape(d.tenant_id) << "</td><td class=\"n\">"
        << d.expected_charged_bytes << "</td><td class=\"n\">" << (d.live ? std::to_string(d.live_charged_bytes) : "-")
        << "</td><td class=\"n\">" << (d.live ? std::to_string(d.live_max_charged_bytes) : "-")
        << "</td><td class=\"n\">" << signed_bytes(d.delta_bytes) << "</td><td class=\"n\">" << d.in_flight_bytes
        << "</td><td class=\"n\">" << d.explained_bytes << "</td><td class=\"n\">" << signed_bytes(d.unexplained_bytes)
        << "</td><td class=\"" << v << "\">" << v << "</td><td>" << (d.within_tolerance ? "yes" : "no") << "</td>";
    if (trends != nullptr) {
      const auto* t = trends->find(d.tenant_id);
      out << "<td>" << (t != nullptr && t->persistent ? "yes" : "no") << "</td><td class=\"n\">";
      if (t != nullptr && t->rate_bytes_per_hour) {
        out << static_cast<long long>(*t->rate_bytes_per_hour);
      } else {
        out << "-";
      }
      out << "</td>";
    }
    out << "</tr>\n";
  }
  out << "</tbody></table>\n";
}

// The restore model's drop table (what text prints as DROPPED BY THE RESTORE); nothing when empty.
void render_drops_html(const quota::DropTable& table, std::ostream& out) {
  const DropTableCells drops = drop_table_cells(table);
  if (drops.rows.empty()) return;
  out << "<h2>" << html_escape(drops.title) << "</h2>\n<p>" << html_escape(k_drop_bytes_meaning)
      << "</p>\n<table id=\"drops\"><thead><tr>";
  for (const auto& head : drops.headers) out << "<th>" << html_escape(head) << "</th>";
  out << "</tr></thead><tbody>\n";
  for (const auto& row : drops.rows) {
    out << "<tr>";
    for (std::size_t i = 0; i < row.size(); ++i)
      out << (i == 0 ? "<td>" : "<td class=\"n\">") << html_escape(row[i]) << "</td>";
    out << "</tr>\n";
  }
  out << "</tbody></table>\n";
}

}  // namespace

void render_reconcile_html(const reconcile::ReconcileReport& r, const history::TrendTable* trends,
                           const std::string& banner, std::ostream& out) {
  const auto& c = r.counts;
  out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/>"
      << "<title>quota-reconcile: " << html_escape(r.live.source) << "</title><style>" << k_style
      << "</style></head><body>\n";
  out << "<h1>Tenant quota reconciliation <span class=\"badge " << (r.drift() ? "bad\">DRIFT" : "ok\">in balance")
      << "</span></h1>\n";
  if (!banner.empty()) out << "<p id=\"stale\" class=\"stale\">" << html_escape(banner) << "</p>\n";
  out << "<table id=\"summary\"><tbody>\n";
  auto row = [&](const std::string& k, const std::string& v) {
    out << "<tr><th>" << html_escape(k) << "</th><td>" << html_escape(v) << "</td></tr>\n";
  };
  row("model", model_phrase(r));
  row("live master", r.live.source);
  row("sampled at", sampled_phrase(r));
  row("metadata point", metadata_point_phrase(r));
  row("metadata age", metadata_age_phrase(r));
  row("capacity",
      std::to_string(r.metadata.table.capacity_bytes) + " bytes (" +
          quota::capacity_mode_name(r.metadata.capacity.mode) + ")" +
          (r.live.capacity_bytes ? "; live gauge " + std::to_string(*r.live.capacity_bytes) + " bytes" : ""));
  row("samples", std::to_string(r.live.samples));
  row("tolerance", std::to_string(r.tolerance_bytes) + " bytes");
  row("tenants", std::to_string(c.tenants) + ": " + std::to_string(c.by_verdict[0]) + " match, " +
                     std::to_string(c.drift) + " drift; max |delta| " + std::to_string(c.max_abs_delta_bytes) +
                     " bytes");
  row("unexplained", std::to_string(c.unexplained_outside_tolerance) + " outside tolerance; max |unexplained| " +
                         std::to_string(c.max_abs_unexplained_bytes) + " bytes");
  out << "</tbody></table>\n";
  out << "<h2>Drift history"
      << (trends != nullptr ? " (" + std::to_string(trends->run_times_ms.size()) + " runs)" : " (this run only)")
      << "</h2>\n";
  render_svg_chart(chart_series(r, trends), out);
  out << "<h2>Tenants</h2>\n";
  render_table(r, trends, out);
  for (const auto& d : r.tenants) {
    if (d.expected && d.expected->orphan && d.expected->visible) {
      out << "<p class=\"note\">note: " << html_escape(orphan_phrase(d.tenant_id)) << "</p>\n";
    }
  }
  render_drops_html(r.metadata.drops, out);
  bool any = false;
  for (const auto& d : r.tenants) {
    if (d.verdict == reconcile::Verdict::match) continue;
    if (!any) out << "<h2>What can explain each difference</h2>\n";
    any = true;
    out << "<h3>" << html_escape(d.tenant_id) << ": " << reconcile::verdict_name(d.verdict) << ", delta "
        << signed_bytes(d.delta_bytes) << " bytes</h3><ul>\n";
    for (const auto& f : d.flag_differences) out << "<li>differs: " << html_escape(f) << "</li>\n";
    for (const auto& cause : d.causes) out << "<li>cause: " << html_escape(cause_phrase(cause)) << "</li>\n";
    if (!d.causes.empty()) out << "<li>unexplained: " << signed_bytes(d.unexplained_bytes) << " bytes</li>\n";
    for (const auto& cause : d.likely_causes) out << "<li>" << html_escape(cause) << "</li>\n";
    out << "</ul>\n";
  }
  any = false;
  for (const auto& f : r.live.findings) {
    if (f.severity == model::Severity::info) continue;
    if (!any) out << "<h2>Live consistency findings</h2><ul>\n";
    any = true;
    out << "<li><b>" << model::severity_name(f.severity) << "</b> " << html_escape(f.location) << ": "
        << html_escape(f.message) << "</li>\n";
  }
  if (any) out << "</ul>\n";
  out << "</body></html>\n";
}

}  // namespace moonquota::report
