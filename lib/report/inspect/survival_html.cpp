// `snapshot-inspect survival` as a self-contained HTML page: the totals per point, the notes, and
// per tenant when its charge is half and wholly gone, an SVG survival curve and its table per point.
#include <algorithm>
#include <string>
#include <vector>

#include "report/escape.hpp"
#include "report/inspect/survival_report_parts.hpp"
#include "report/svg_chart.hpp"

namespace moonquota::report {

namespace {

// One row per point: the totals (`tenant` null) or one tenant's amounts.
void render_points_table(const SurvivalReport& r, const std::size_t* tenant, std::ostream& out) {
  out << "<table><thead><tr><th>point</th><th>delay</th>";
  for (const char* h :
       {"objects kept", "bytes kept", "charged kept", "objects dropped", "bytes dropped", "charged dropped", "kept"}) {
    out << "<th>" << h << "</th>";
  }
  out << "</tr></thead><tbody>\n";
  for (const auto& p : r.points) {
    std::vector<std::string> cells;
    survival_add_amount_cells(cells, tenant != nullptr ? p.tenants[*tenant] : p.totals);
    out << "<tr><td>" << html_escape(survival_point_label(p.point)) << "</td><td>"
        << html_escape(delay_text(p.point.delay_ms)) << "</td>";
    for (const auto& c : cells) out << "<td class=\"n\">" << html_escape(c) << "</td>";
    out << "</tr>\n";
  }
  out << "</tbody></table>\n";
}

}  // namespace

void render_survival_html(const SurvivalReport& r, std::ostream& out) {
  const std::string& id = r.context.selected.snapshot_id;
  out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/><title>snapshot-inspect survival: "
      << html_escape(id) << "</title><style>body{font-family:system-ui,sans-serif;margin:2em}"
      << "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px}td.n{text-align:right}"
      << "</style></head><body>\n";
  out << "<h1>Restore survival of snapshot " << html_escape(id) << "</h1>\n";
  out << "<p>created_at " << r.created_at_ms << " (" << survival_utc_text(static_cast<std::uint64_t>(r.created_at_ms))
      << "), now " << r.now_ms << " (" << survival_utc_text(r.now_ms) << "); path "
      << html_escape(survival_path_text(r)) << "; lease model " << html_escape(survival_lease_text(r.lease_model))
      << "</p>\n";
  render_points_table(r, nullptr, out);
  for (const auto& p : r.points) {
    const std::string note = survival_promotion_note(p);
    if (!note.empty())
      out << "<p><strong>at " << html_escape(survival_point_label(p.point)) << ": " << html_escape(note)
          << "</strong></p>\n";
  }
  for (std::size_t t = 0; t < r.decay.size(); ++t) {
    const auto& d = r.decay[t];
    out << "<h2>" << html_escape(d.tenant_id) << "</h2>\n<p>reference " << html_escape(survival_reference_text(d));
    if (d.reference_delay_ms) out << ", charged there " << survival_dec(d.charged_at_reference) << " bytes";
    out << "; half gone after " << html_escape(survival_gone_text(d.half_gone_after_ms, d, r)) << "; all gone after "
        << html_escape(survival_gone_text(d.all_gone_after_ms, d, r)) << "</p>\n";
    render_points_table(r, &t, out);
    ChartSeries series{d.tenant_id, {}};
    for (const auto& p : r.points) {
      const auto charged = saturate(p.tenants[t].kept.charged_bytes);
      series.points.push_back(
          {p.point.at_ms, static_cast<std::int64_t>(std::min<std::uint64_t>(charged, util::k_max_charged_bytes))});
    }
    render_svg_chart({series}, out,
                     {"survival-" + std::to_string(t), "Charged bytes a restore keeps, by restore time",
                      "charged bytes kept per restore time"});
  }
  out << "</body></html>\n";
}

}  // namespace moonquota::report
