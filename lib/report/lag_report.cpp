#include "report/lag_report.hpp"

#include "report/inspect/inspect_json.hpp"
#include "util/text_encoding.hpp"
#include "util/text_table.hpp"

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

}  // namespace

void render_lag(const reconcile::LagReport& r, OutputFormat format, std::ostream& out) {
  const auto& p = r.positions;
  const auto& w = r.windows;
  if (format == OutputFormat::json) {
    Json j;
    j["schema"] = k_lag_schema;
    j["positions"] = {{"primary_committed", position_json(p.primary_committed)},
                      {"durable", position_json(p.durable)},
                      {"standby_applied", position_json(p.standby_applied)},
                      {"snapshot", position_json(p.snapshot)}};
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
  window_tenants_text(w.catch_up, out);
  out << "snapshot gap (S, D]:  " << window_text(w.snapshot_gap) << "  lost by a restart from the snapshot alone\n";
  window_tenants_text(w.snapshot_gap, out);
  for (const auto& warning : r.warnings) out << "warning: " << util::printable(warning) << "\n";
  for (const auto& gate : r.broken_gates) out << "GATE: " << util::printable(gate) << "\n";
}

}  // namespace moonquota::report
