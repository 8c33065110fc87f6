#include "report/lag_report.hpp"

#include "report/inspect/inspect_json.hpp"
#include "util/text_encoding.hpp"
#include "util/text_table.hpp"
#include "util/time_text.hpp"

namespace moonquota::report {

namespace {

Json position_json(const reconcile::Position& p) {
  return {{"seq", p.seq ? Json(*p.seq) : Json()},
          {"source", p.source.empty() ? Json() : Json(p.source)},
          {"lower_bound", p.lower_bound},
          {"note", p.note.empty() ? Json() : Json(p.note)}};
}

Json window_json(const std::optional<reconcile::Window>& w) {
  if (!w) return nullptr;
  Json j = {{"from_seq", w->from_seq}, {"to_seq", w->to_seq}, {"entries", w->entries}};
  if (w->tenants) {
    Json rows = Json::array();
    for (const auto& t : *w->tenants) {
      Json row;
      put_bytes(row, "tenant_id", t.tenant_id);
      row["keys"] = t.keys;
      row["charged_bytes_delta"] = t.charged_bytes_delta;
      row["objects_delta"] = t.objects_delta;
      rows.push_back(std::move(row));
    }
    j["tenants"] = std::move(rows);
  } else {
    j["tenants"] = nullptr;
  }
  j["tenants_note"] = w->tenants_note.empty() ? Json() : Json(w->tenants_note);
  j["age_ms"] = w->age ? Json(w->age->ms) : Json();
  j["age_lower_bound"] = w->age && w->age->lower_bound;
  j["age_note"] = w->age_note.empty() ? Json() : Json(w->age_note);
  return j;
}

constexpr std::size_t k_text_tenants_shown = 20;

void window_tenants_text(const std::optional<reconcile::Window>& w, std::ostream& out) {
  if (!w) return;
  if (!w->tenants_note.empty()) out << "    " << util::printable(w->tenants_note) << "\n";
  if (!w->tenants) return;
  std::size_t shown = 0;
  for (const auto& t : *w->tenants) {
    if (shown++ == k_text_tenants_shown) {
      out << "    ... " << w->tenants->size() - k_text_tenants_shown << " more tenants (--format json lists all)\n";
      break;
    }
    out << "    '" << util::printable(t.tenant_id) << "': " << t.keys << " keys, charged "
        << (t.charged_bytes_delta >= 0 ? "+" : "") << t.charged_bytes_delta << " bytes, objects "
        << (t.objects_delta >= 0 ? "+" : "") << t.objects_delta << "\n";
  }
}

std::string seq_text(const reconcile::Position& p) {
  if (!p.seq) return "unknown";
  return (p.lower_bound ? ">= " : "") + std::to_string(*p.seq);
}

std::string window_text(const std::optional<reconcile::Window>& w) {
  if (!w) return "unknown";
  return std::to_string(w->entries) + " entries (" + std::to_string(w->from_seq) + ", " + std::to_string(w->to_seq) +
         "]";
}

// "    the standby applied the durable position of 0h 01m 05s ago (65000 ms)" (or "more than"), or
// why unknown; nothing without --db.
std::string age_text(const reconcile::LagReport& r, const std::optional<reconcile::Window>& w, const char* who) {
  if (!w || !r.sampled_history) return "";
  if (!w->age) return w->age_note.empty() ? "" : "    seconds: unknown (" + util::printable(w->age_note) + ")\n";
  return std::string("    ") + who + " the durable position of " + (w->age->lower_bound ? "more than " : "") +
         util::hms_text(static_cast<std::int64_t>(w->age->ms)) + " ago (" + std::to_string(w->age->ms) + " ms)\n";
}

}  // namespace

void render_lag(const reconcile::LagReport& r, OutputFormat format, std::ostream& out) {
  const auto& p = r.positions;
  const auto& w = r.windows;
  if (format == OutputFormat::json) {
    Json j;
    j["schema"] = k_lag_schema;
    j["sampled_at_ms"] = r.sampled_at_ms;
    j["positions"] = {{"primary_committed", position_json(p.primary_committed)},
                      {"durable", position_json(p.durable)},
                      {"standby_applied", position_json(p.standby_applied)},
                      {"snapshot", position_json(p.snapshot)}};
    j["durable_advanced"] = r.durable_advanced ? Json{{"at_ms", r.durable_advanced->at_ms},
                                                      {"lower_bound", r.durable_advanced->lower_bound}}
                                               : Json();
    j["windows"] = {{"not_durable", window_json(w.not_durable)},
                    {"catch_up", window_json(w.catch_up)},
                    {"snapshot_gap", window_json(w.snapshot_gap)}};
    j["warnings"] = r.warnings;
    j["broken_gates"] = r.broken_gates;
    write_inspect_json(j, out);
    return;
  }
  util::TextTable t;
  t.add_column("position", util::TextTable::Align::left);
  t.add_column("sequence", util::TextTable::Align::right);
  t.add_column("from", util::TextTable::Align::left);
  const auto row = [&](const char* name, const reconcile::Position& pos) {
    std::string from = util::printable(pos.source);
    if (!pos.note.empty()) from += (from.empty() ? "" : " (") + util::printable(pos.note) + (from.empty() ? "" : ")");
    t.add_row({name, seq_text(pos), from});
  };
  row("P primary committed", p.primary_committed);
  row("D durable", p.durable);
  row("A standby applied", p.standby_applied);
  row("S snapshot", p.snapshot);
  t.render(out);
  out << "\nnot durable (D, P]:   " << window_text(w.not_durable) << "  lost if the primary dies now\n";
  window_tenants_text(w.not_durable, out);
  out << "catch-up (A, D]:      " << window_text(w.catch_up) << "  the standby replays it before it serves\n";
  out << age_text(r, w.catch_up, "the standby applied");
  window_tenants_text(w.catch_up, out);
  out << "snapshot gap (S, D]:  " << window_text(w.snapshot_gap) << "  lost by a restart from the snapshot alone\n";
  out << age_text(r, w.snapshot_gap, "the snapshot holds");
  window_tenants_text(w.snapshot_gap, out);
  if (r.durable_advanced) {
    out << "durable prefix last advanced " << (r.durable_advanced->lower_bound ? "at or before " : "at ")
        << util::utc_iso8601(static_cast<std::int64_t>(r.durable_advanced->at_ms)) << "\n";
  }
  for (const auto& warning : r.warnings) out << "warning: " << util::printable(warning) << "\n";
  for (const auto& gate : r.broken_gates) out << "GATE: " << util::printable(gate) << "\n";
}

}  // namespace moonquota::report
