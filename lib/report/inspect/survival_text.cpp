// `snapshot-inspect survival` as text: the header, one table row per point x tenant (totals
// first), the notes, then when each tenant's charge is half and wholly gone.
#include <string>
#include <utility>
#include <vector>

#include "report/inspect/inspect_summary_report.hpp"
#include "report/inspect/survival_report_parts.hpp"
#include "util/text_encoding.hpp"
#include "util/text_table.hpp"

namespace moonquota::report {

void render_survival_text(const SurvivalReport& r, const restore::ScannedSnapshot& snap, std::ostream& out) {
  using util::TextTable;
  using Align = TextTable::Align;
  render_header_text(r.context, snap, out);
  const std::int64_t age = static_cast<std::int64_t>(r.now_ms) - r.created_at_ms;
  // The header's `created:` line gives created_at and the age at --restore-time, which is "now" here.
  if (age < 0) out << "note:        the snapshot was created " << delay_text(-age) << " after now\n";
  out << "path:        " << survival_path_text(r) << "\n";
  out << "lease model: " << survival_lease_text(r.lease_model) << "\n\n";
  TextTable table;
  for (const char* h : {"point", "at (UTC)", "delay", "tenant"}) table.add_column(h, Align::left);
  for (const char* h :
       {"objects kept", "bytes kept", "charged kept", "objects dropped", "bytes dropped", "charged dropped", "kept"}) {
    table.add_column(h, Align::right);
  }
  for (const auto& p : r.points) {
    std::vector<std::string> cells = {survival_point_label(p.point), survival_utc_text(p.point.at_ms),
                                      delay_text(p.point.delay_ms), "(all)"};
    survival_add_amount_cells(cells, p.totals);
    table.add_row(std::move(cells));
    for (const auto& t : p.tenants) {
      std::vector<std::string> row = {"", "", "", util::printable(t.tenant_id)};
      survival_add_amount_cells(row, t);
      table.add_row(std::move(row));
    }
  }
  table.render(out);
  out << "(* added: delay 0 is the reference of the columns below unless the promotion is EMPTY there, `now` "
         "what a restore right now keeps; kept = share of the charge kept)\n";
  if (r.path == "promote") {
    out << "(promote: kept = what the promoted master holds, snapshot and OpLog tail; dropped = what the standby's "
           "bootstrap drops)\n";
    if (r.oplog && r.oplog->per_point_runs) {
      out << "(the bootstrap fails with leases ignored, so each point ran the whole promotion at its instant)\n";
    }
  }
  for (const auto& p : r.points) {
    const std::string note = survival_promotion_note(p);
    if (!note.empty()) out << "!! at " << survival_point_label(p.point) << ": " << note << "\n";
  }
  out << "\n";
  TextTable decay;
  decay.add_column("tenant", Align::left);
  decay.add_column("reference", Align::right);
  decay.add_column("charged there", Align::right);
  decay.add_column("half gone after", Align::right);
  decay.add_column("all gone after", Align::right);
  for (const auto& d : r.decay) {
    decay.add_row({util::printable(d.tenant_id), survival_reference_text(d),
                   d.reference_delay_ms ? survival_dec(d.charged_at_reference) : "-",
                   survival_gone_text(d.half_gone_after_ms, d, r), survival_gone_text(d.all_gone_after_ms, d, r)});
  }
  decay.render(out);
}

}  // namespace moonquota::report
