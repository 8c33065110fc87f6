#include "report/reconcile/reconcile_text.hpp"

#include <algorithm>
#include <sstream>

#include "report/explain_report.hpp"
#include "report/rebuild/drops_report.hpp"
#include "report/rebuild/rebuild_report.hpp"
#include "report/reconcile/reconcile_common.hpp"
#include "util/plural.hpp"
#include "util/text_encoding.hpp"
#include "util/text_table.hpp"

namespace moonquota::report {

namespace {

using reconcile::Verdict;

const char* colour_of(Verdict v) {
  switch (v) {
    case Verdict::match: return "\x1b[32m";
    case Verdict::live_over:
    case Verdict::live_under: return "\x1b[31m";
    case Verdict::missing_live:
    case Verdict::missing_metadata: return "\x1b[33m";
    case Verdict::flags_mismatch: return "\x1b[35m";
  }
  return "";
}

std::string rate_text(const history::TenantTrend* t) {
  if (t == nullptr || !t->rate_bytes_per_hour) return "-";
  std::ostringstream s;
  s.precision(0);
  s << std::fixed << (*t->rate_bytes_per_hour > 0 ? "+" : "") << *t->rate_bytes_per_hour << " B/h";
  return s.str();
}

void render_header(const reconcile::ReconcileReport& r, std::ostream& out) {
  const auto& sel = r.metadata.selection;
  out << "model:     " << model_phrase(r) << "\n";
  out << "metadata:  " << metadata_point_phrase(r) << "\n";
  out << "store:     "
      << (sel.snapshot_dir.empty() ? sel.store_dir + " (cluster " + sel.cluster_id + ")" : sel.snapshot_dir);
  if (r.metadata.charge_model == restore::ChargeModel::restore) {
    out << ", restore time " << r.metadata.restore_time_ms << " ms";
  }
  out << ", capacity " << r.metadata.table.capacity_bytes << " bytes ("
      << quota::capacity_mode_name(r.metadata.capacity.mode) << ")\n";
  if (r.phantoms) {
    out << "phantoms:  "
        << (r.phantoms->computed ? util::counted(r.phantoms->tenants.size(), "tenant", "tenants") +
                                       " with snapshot objects whose lease ended between the bootstrap (" +
                                       std::to_string(r.phantoms->bootstrap_ms) + " ms) and the live sample (" +
                                       std::to_string(r.phantoms->until_ms) + " ms) that no OpLog entry touches"
                                 : "not counted: " + r.phantoms->note)
        << "\n";
  }
  out << "policy:    "
      << (r.metadata.policy_source.empty() ? "none: every tenant with objects is an orphan" : r.metadata.policy_source)
      << "\n";
  out << "live:      " << r.live.source << ", " << r.live.samples << " sample" << (r.live.samples == 1 ? "" : "s")
      << " (" << r.live.readings.size() << " reading" << (r.live.readings.size() == 1 ? "" : "s");
  if (r.live.requests > 0) {
    out << ", " << util::counted(r.live.requests, "request", "requests") << ", "
        << util::counted(r.live.retries, "retry", "retries");
  }
  if (r.live.unavailable_answers > 0) out << ", " << r.live.unavailable_answers << " answered 503";
  if (r.live.transport_failures > 0) {
    out << ", " << util::counted(r.live.transport_failures, "transport failure", "transport failures");
  }
  out << ")";
  if (r.live.first_sample_ms) out << ", sampled at " << sampled_phrase(r);
  out << "\n";
  if (r.live.capacity_bytes) out << "capacity:  live gauge " << *r.live.capacity_bytes << " bytes\n";
  out << "age:       " << metadata_age_phrase(r) << "\n";
  out << "tolerance: " << r.tolerance_bytes << " bytes\n\n";
}

void render_table(const reconcile::ReconcileReport& r, const history::TrendTable* trends, bool colour,
                  std::ostream& out) {
  util::TextTable table;
  using A = util::TextTable::Align;
  for (auto [h, a] : {std::pair{"TENANT", A::left},
                      {"EXPECTED", A::right},
                      {"LIVE", A::right},
                      {"DELTA", A::right},
                      {"IN-FLIGHT", A::right},
                      {"EXPLAINED", A::right},
                      {"UNEXPLAINED", A::right},
                      {"LIVE-MAX", A::right},
                      {"VERDICT", A::left},
                      {"TOLERANCE", A::left}}) {
    table.add_column(h, a);
  }
  if (trends != nullptr) {
    table.add_column("TREND", A::left);
    table.add_column("RATE", A::right);
  }
  for (const auto& d : r.tenants) {
    std::vector<std::string> cells = {util::printable(d.tenant_id),
                                      std::to_string(d.expected_charged_bytes),
                                      d.live ? std::to_string(d.live_charged_bytes) : "-",
                                      signed_bytes(d.delta_bytes),
                                      std::to_string(d.in_flight_bytes),
                                      std::to_string(d.explained_bytes),
                                      signed_bytes(d.unexplained_bytes),
                                      d.live ? std::to_string(d.live_max_charged_bytes) : "-",
                                      reconcile::verdict_name(d.verdict),
                                      d.within_tolerance ? "within" : "OUTSIDE"};
    if (trends != nullptr) {
      const auto* t = trends->find(d.tenant_id);
      std::string trend = t == nullptr || t->streak_runs == 0 ? "-" : std::to_string(t->streak_runs) + " run(s)";
      if (t != nullptr && t->persistent) trend = "PERSISTENT " + trend;
      cells.push_back(trend);
      cells.push_back(rate_text(t));
    }
    table.add_row(std::move(cells));
  }
  std::ostringstream rendered;
  table.render(rendered);
  if (!colour) {
    out << rendered.str();
    return;
  }
  std::istringstream lines(rendered.str());
  std::string line;
  std::size_t index = 0;
  while (std::getline(lines, line)) {
    // Lines 0 and 1 are the header and its rule; row i is line i + 2.
    if (index < 2 || index - 2 >= r.tenants.size()) {
      out << line << "\n";
    } else {
      out << colour_of(r.tenants[index - 2].verdict) << line << "\x1b[0m\n";
    }
    ++index;
  }
}

// --explain: the tenant's objects, then what the master charges it.
void render_reconcile_explain(const reconcile::ReconcileReport& r, std::ostream& out) {
  const restore::TenantExplanation& e = *r.metadata.explain;
  const auto d = std::find_if(r.tenants.begin(), r.tenants.end(),
                              [&](const reconcile::TenantDiff& t) { return t.tenant_id == e.tenant_id; });
  std::ostringstream live;
  if (d == r.tenants.end()) {
    live << "  live: neither the master nor the metadata has '" << util::printable(e.tenant_id) << "'\n";
  } else {
    live << "  live: the master charges " << d->live_charged_bytes << " bytes: " << reconcile::verdict_name(d->verdict)
         << ", delta " << signed_bytes(d->delta_bytes) << " against the expected " << d->expected_charged_bytes << "\n";
  }
  render_explain_text(e, explain_model_text(r.metadata), out, live.str());
}

}  // namespace

void render_reconcile_text(const reconcile::ReconcileReport& r, const history::TrendTable* trends,
                           const TextOptions& options, std::ostream& out) {
  render_header(r, out);
  render_table(r, trends, options.colour, out);
  const auto& c = r.counts;
  out << "\nsummary:   " << c.tenants << " tenants: " << c.by_verdict[0] << " match, " << c.drift << " drift ("
      << c.outside_tolerance << " outside tolerance); max |delta| " << c.max_abs_delta_bytes << " bytes\n";
  out << "unexplained: " << util::counted(c.unexplained_outside_tolerance, "tenant", "tenants")
      << " outside tolerance after the causes the metadata shows; max |unexplained| " << c.max_abs_unexplained_bytes
      << " bytes\n";
  if (trends != nullptr) {
    out << "history:   " << trends->run_times_ms.size() << " run(s) recorded under the "
        << quota::model_name(r.metadata)
        << " model; persistent = unexplained remainder outside tolerance with one sign for " << trends->persistence_runs
        << " consecutive runs\n";
  }
  for (const auto& d : r.tenants) {
    if (d.expected && d.expected->orphan && d.expected->visible) {
      out << "note:      " << orphan_phrase(util::printable(d.tenant_id)) << "\n";
    }
  }
  render_drop_table(r.metadata.drops, out);  // empty in the live model
  for (const auto& d : r.tenants) {
    if (d.verdict == Verdict::match) continue;
    out << "\n"
        << reconcile::verdict_name(d.verdict) << ": '" << util::printable(d.tenant_id) << "' delta "
        << signed_bytes(d.delta_bytes) << " bytes\n";
    for (const auto& f : d.flag_differences) out << "  differs:  " << f << "\n";
    for (const auto& cause : d.causes) out << "  cause:    " << cause_phrase(cause) << "\n";
    if (!d.causes.empty()) out << "  unexplained: " << signed_bytes(d.unexplained_bytes) << " bytes\n";
    for (const auto& cause : d.likely_causes) out << "  cause?    " << cause << "\n";
  }
  if (r.metadata.explain) render_reconcile_explain(r, out);
  std::size_t shown = 0;
  for (const auto& f : r.live.findings) {
    if (f.severity == model::Severity::info) continue;
    if (shown++ == 0) out << "\n";
    if (shown > options.max_findings) {
      out << "...        more live findings not shown (all are in --format json)\n";
      break;
    }
    out << model::severity_name(f.severity) << ":  " << f.location << ": " << f.message << "\n";
  }
}

}  // namespace moonquota::report
