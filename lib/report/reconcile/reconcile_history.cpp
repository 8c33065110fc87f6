#include "report/reconcile/reconcile_history.hpp"

#include <ctime>
#include <nlohmann/json.hpp>
#include <sstream>

#include "history/tenant_row_json.hpp"
#include "report/escape.hpp"
#include "report/reconcile/plan_report.hpp"
#include "report/reconcile/reconcile_common.hpp"
#include "report/reconcile/reconcile_html.hpp"
#include "report/svg_chart.hpp"
#include "util/text_encoding.hpp"
#include "util/text_table.hpp"
#include "util/time_text.hpp"

namespace moonquota::report {

namespace {

// Run times are this tool's own clock readings (epoch ms), well inside the int64 range.
std::string utc(std::uint64_t ms) { return util::utc_iso8601(static_cast<std::int64_t>(ms)); }

std::string rate(const history::TenantTrend& t) {
  if (!t.rate_bytes_per_hour) return "-";
  std::ostringstream s;
  s.precision(0);
  s << std::fixed << (*t.rate_bytes_per_hour > 0 ? "+" : "") << *t.rate_bytes_per_hour << " B/h";
  return s.str();
}

bool selected(const history::TenantTrend& t, const std::optional<std::string>& tenant) {
  return !tenant || t.tenant_id == *tenant;
}

// The repair steps recorded by `quota-reconcile apply --db`: the evidence before and after a fix.
void repairs_text(const history::TrendTable& trends, const std::optional<std::string>& tenant, std::ostream& out) {
  util::TextTable table;
  using A = util::TextTable::Align;
  for (auto [h, a] : {std::pair{"REPAIRED AT", A::left},
                      {"TENANT", A::left},
                      {"ACTION", A::left},
                      {"OUTCOME", A::left},
                      {"BEFORE", A::left},
                      {"AFTER", A::left}}) {
    table.add_column(h, a);
  }
  std::size_t rows = 0;
  for (const auto& r : trends.repairs) {
    if (tenant && r.tenant_id != *tenant) continue;
    table.add_row({utc(r.at_ms), util::printable(r.tenant_id), r.action, r.outcome, tenant_row_text(r.before),
                   r.outcome == "applied" ? tenant_row_text(r.after) : "-"});
    ++rows;
  }
  if (rows == 0) return;
  out << "\nrepairs:   " << rows << " step" << (rows == 1 ? "" : "s")
      << " of applied plans (quota-reconcile apply --db)\n";
  table.render(out);
}

}  // namespace

void render_history_text(const history::TrendTable& trends, const std::optional<std::string>& tenant,
                         std::ostream& out) {
  out << "model:     " << trends.model << " (runs of the other model are never compared with these; --model)\n";
  out << "runs:      " << trends.run_times_ms.size();
  if (!trends.run_times_ms.empty()) {
    out << " (" << utc(trends.run_times_ms.front()) << " .. " << utc(trends.run_times_ms.back()) << ")";
  }
  out << "\npersistent: unexplained remainder outside tolerance with one sign for " << trends.persistence_runs
      << " consecutive runs\n\n";
  util::TextTable table;
  using A = util::TextTable::Align;
  if (tenant) {
    for (auto [h, a] : {std::pair{"RUN (UTC)", A::left},
                        {"EXPECTED", A::right},
                        {"LIVE", A::right},
                        {"DELTA", A::right},
                        {"UNEXPLAINED", A::right},
                        {"VERDICT", A::left},
                        {"TOLERANCE", A::left}}) {
      table.add_column(h, a);
    }
    const auto* t = trends.find(*tenant);
    if (t != nullptr) {
      for (const auto& p : t->points) {
        table.add_row({utc(p.run_at_ms), std::to_string(p.point.expected_charged_bytes),
                       std::to_string(p.point.live_charged_bytes), signed_bytes(p.point.delta_bytes),
                       signed_bytes(p.point.unexplained_bytes), p.point.verdict,
                       p.point.within_tolerance ? "within" : "OUTSIDE"});
      }
    }
    table.render(out);
    if (t == nullptr) {
      out << "\nno recorded run has tenant '" << util::printable(*tenant) << "'\n";
    } else {
      out << "\ntrend:     " << (t->persistent ? "PERSISTENT " : "") << t->streak_runs << " consecutive run(s) "
          << (t->streak_sign > 0   ? "live over"
              : t->streak_sign < 0 ? "live under"
                                   : "outside tolerance")
          << ", rate " << rate(*t) << "\n";
    }
    repairs_text(trends, tenant, out);
    return;
  }
  for (auto [h, a] : {std::pair{"TENANT", A::left},
                      {"RUNS", A::right},
                      {"LATEST DELTA", A::right},
                      {"UNEXPLAINED", A::right},
                      {"LATEST VERDICT", A::left},
                      {"STREAK", A::right},
                      {"PERSISTENT", A::left},
                      {"RATE", A::right}}) {
    table.add_column(h, a);
  }
  for (const auto& t : trends.tenants) {
    table.add_row({util::printable(t.tenant_id), std::to_string(t.points.size()),
                   signed_bytes(t.points.back().point.delta_bytes),
                   signed_bytes(t.points.back().point.unexplained_bytes), t.points.back().point.verdict,
                   std::to_string(t.streak_runs), t.persistent ? "yes" : "no", rate(t)});
  }
  table.render(out);
  repairs_text(trends, tenant, out);
}

void render_history_json(const history::TrendTable& trends, const std::optional<std::string>& tenant,
                         std::ostream& out) {
  nlohmann::ordered_json j;
  j["schema"] = "quota-reconcile-history/1";
  j["model"] = trends.model;
  j["runs"] = trends.run_times_ms.size();
  j["persistence_runs"] = trends.persistence_runs;
  nlohmann::ordered_json tenants = nlohmann::ordered_json::array();
  for (const auto& t : trends.tenants) {
    if (!selected(t, tenant)) continue;
    nlohmann::ordered_json points = nlohmann::ordered_json::array();
    for (const auto& p : t.points) {
      points.push_back({{"run_at_ms", p.run_at_ms},
                        {"expected_charged_bytes", p.point.expected_charged_bytes},
                        {"live_charged_bytes", p.point.live_charged_bytes},
                        {"delta_bytes", p.point.delta_bytes},
                        {"verdict", p.point.verdict},
                        {"within_tolerance", p.point.within_tolerance},
                        {"unexplained_bytes", p.point.unexplained_bytes},
                        {"unexplained_within_tolerance", p.point.unexplained_within_tolerance}});
    }
    tenants.push_back({{"tenant_id", t.tenant_id},
                       {"streak_runs", t.streak_runs},
                       {"streak_sign", t.streak_sign},
                       {"persistent", t.persistent},
                       {"rate_bytes_per_hour", t.rate_bytes_per_hour ? nlohmann::ordered_json(static_cast<std::int64_t>(
                                                                           *t.rate_bytes_per_hour))
                                                                     : nlohmann::ordered_json(nullptr)},
                       {"points", std::move(points)}});
  }
  j["tenants"] = std::move(tenants);
  nlohmann::ordered_json repairs = nlohmann::ordered_json::array();
  for (const auto& r : trends.repairs) {
    if (tenant && r.tenant_id != *tenant) continue;
    repairs.push_back({{"at_ms", r.at_ms},
                       {"cluster", r.cluster},
                       {"plan_audit_at_ms", r.plan_audit_at_ms},
                       {"step", r.step},
                       {"action", r.action},
                       {"tenant_id", r.tenant_id},
                       {"request", r.request},
                       {"outcome", r.outcome},
                       {"detail", r.detail},
                       {"before", history::tenant_row_json(r.before)},
                       {"after", history::tenant_row_json(r.after)}});
  }
  j["repairs"] = std::move(repairs);
  out << j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
}

void render_history_html(const history::TrendTable& trends, const std::optional<std::string>& tenant,
                         std::ostream& out) {
  out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/><title>quota-reconcile history</title>"
      << "<style>body{font-family:system-ui,sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px "
         "solid "
         "#ccc;padding:.25em .6em}svg{border:1px solid #ddd}</style></head><body>\n";
  out << "<h1>Reconcile history (" << trends.run_times_ms.size() << " runs, model " << html_escape(trends.model)
      << ")</h1>\n";
  std::vector<ChartSeries> series;
  for (const auto& t : trends.tenants) {
    if (!selected(t, tenant)) continue;
    ChartSeries s{t.tenant_id, {}};
    for (const auto& p : t.points) s.points.push_back({p.run_at_ms, p.point.delta_bytes});
    series.push_back(std::move(s));
  }
  std::stable_sort(series.begin(), series.end(), [](const auto& a, const auto& b) {
    auto w = [](const ChartSeries& s) { return s.points.empty() ? 0 : std::llabs(s.points.back().delta_bytes); };
    return w(a) > w(b);
  });
  if (series.size() > 8) series.resize(8);
  render_svg_chart(series, out);
  out << "<table id=\"tenants\"><thead><tr><th>tenant</th><th>runs</th><th>latest delta</th><th>streak</th>"
         "<th>persistent</th><th>rate</th></tr></thead><tbody>\n";
  for (const auto& t : trends.tenants) {
    if (!selected(t, tenant)) continue;
    out << "<tr class=\"tenant\"><td>" << html_escape(t.tenant_id) << "</td><td>" << t.points.size() << "</td><td>"
        << signed_bytes(t.points.back().point.delta_bytes) << "</td><td>" << t.streak_runs << "</td><td>"
        << (t.persistent ? "yes" : "no") << "</td><td>" << html_escape(rate(t)) << "</td></tr>\n";
  }
  out << "</tbody></table>\n</body></html>\n";
}

void render_history(const history::TrendTable& trends, const std::optional<std::string>& tenant, OutputFormat format,
                    std::ostream& out) {
  switch (format) {
    case OutputFormat::json:
    case OutputFormat::ndjson: return render_history_json(trends, tenant, out);
    case OutputFormat::html: return render_history_html(trends, tenant, out);
    default: return render_history_text(trends, tenant, out);
  }
}

}  // namespace moonquota::report
