#include "report/reconcile/doctor_report.hpp"

#include <nlohmann/json.hpp>

#include "util/text_encoding.hpp"
#include "util/text_table.hpp"

namespace moonquota::report {

namespace {

void render_doctor_text(const reconcile::DoctorReport& report, std::ostream& out) {
  util::TextTable table;
  table.add_column("CHECK", util::TextTable::Align::left);
  table.add_column("RESULT", util::TextTable::Align::left);
  table.add_column("TARGET", util::TextTable::Align::left);
  table.add_column("FOUND", util::TextTable::Align::left);
  std::size_t ok = 0;
  for (const auto& c : report.checks) {
    ok += c.ok ? 1 : 0;
    table.add_row({c.name, c.ok ? "ok" : "FAILED (exit " + std::to_string(c.exit_code) + ")", util::printable(c.target),
                   util::printable(c.detail)});
  }
  table.render(out);
  for (const auto& c : report.checks) {
    if (!c.ok && !c.hint.empty()) out << "hint:      " << c.name << ": " << util::printable(c.hint) << "\n";
  }
  out << "summary:   " << report.checks.size() << " check" << (report.checks.size() == 1 ? "" : "s") << ", " << ok
      << " ok, " << report.checks.size() - ok << " failed";
  if (report.exit_code() != 0) out << " (exit " << report.exit_code() << ")";
  out << "\n";
}

}  // namespace

void render_doctor(const reconcile::DoctorReport& report, OutputFormat format, std::ostream& out) {
  if (format != OutputFormat::json) {
    render_doctor_text(report, out);
    return;
  }
  nlohmann::ordered_json j;
  j["schema"] = "quota-reconcile-doctor/1";
  nlohmann::ordered_json checks = nlohmann::ordered_json::array();
  std::size_t ok = 0;
  for (const auto& c : report.checks) {
    ok += c.ok ? 1 : 0;
    checks.push_back({{"name", c.name},
                      {"target", c.target},
                      {"ok", c.ok},
                      {"exit_code", c.exit_code},
                      {"detail", c.detail},
                      {"hint", c.hint.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(c.hint)}});
  }
  j["checks"] = std::move(checks);
  j["summary"] = {{"checks", report.checks.size()},
                  {"ok", ok},
                  {"failed", report.checks.size() - ok},
                  {"exit_code", report.exit_code()}};
  out << j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
}

}  // namespace moonquota::report
