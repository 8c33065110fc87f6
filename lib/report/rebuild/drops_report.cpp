#include "report/rebuild/drops_report.hpp"

#include "util/text_encoding.hpp"
#include "util/text_table.hpp"

namespace moonquota::report {

using nlohmann::ordered_json;

ordered_json tenant_drops_json(const quota::TenantDrops& d, bool standby) {
  ordered_json j;
  j["non_complete"] = {{"objects", d.non_complete.objects}, {"bytes", d.non_complete.bytes}};
  j["lease_expired"] = {{"objects", d.lease_expired.objects}, {"bytes", d.lease_expired.bytes}};
  if (standby) {
    j["size_zero"] = {{"objects", d.size_zero}};
    j["invalid_memory"] = {{"objects", d.invalid_memory}};
  } else {
    j["undecodable"] = {{"objects", d.undecodable}};
  }
  return j;
}

quota::TenantDrops drops_of(const quota::DropTable& table, const std::string& tenant, std::uint64_t charged_bytes) {
  auto it = table.tenants.find(tenant);
  if (it != table.tenants.end()) return it->second;
  quota::TenantDrops none;
  none.charged_bytes = charged_bytes;
  none.charged_bytes_without_drops = charged_bytes;
  return none;
}

DropTableCells drop_table_cells(const quota::DropTable& table) {
  DropTableCells cells;
  cells.title = table.standby ? "DROPPED BY THE STANDBY BOOTSTRAP" : "DROPPED BY THE RESTORE";
  cells.headers = {"TENANT", "NON-COMPLETE", "NON-COMPLETE-BYTES", "LEASE-EXPIRED", "LEASE-EXPIRED-BYTES"};
  if (table.standby) {
    cells.headers.insert(cells.headers.end(), {"SIZE-0", "INVALID-MEMORY"});
  } else {
    cells.headers.emplace_back("UNDECODABLE");
  }
  cells.headers.insert(cells.headers.end(), {"CHARGED", "CHARGE-WITHOUT-DROPS"});
  for (const auto& [tenant, d] : table.tenants) {
    std::vector<std::string> row = {util::printable(tenant), std::to_string(d.non_complete.objects),
                                    std::to_string(d.non_complete.bytes), std::to_string(d.lease_expired.objects),
                                    std::to_string(d.lease_expired.bytes)};
    if (table.standby) {
      row.push_back(std::to_string(d.size_zero));
      row.push_back(std::to_string(d.invalid_memory));
    } else {
      row.push_back(std::to_string(d.undecodable));
    }
    row.push_back(std::to_string(d.charged_bytes));
    row.push_back(std::to_string(d.charged_bytes_without_drops));
    cells.rows.push_back(std::move(row));
  }
  return cells;
}

void render_drop_table(const quota::DropTable& table, std::ostream& out) {
  if (table.empty()) return;
  const DropTableCells cells = drop_table_cells(table);
  out << "\n" << cells.title << " (" << k_drop_bytes_meaning << ")\n";
  util::TextTable t;
  using A = util::TextTable::Align;
  for (std::size_t c = 0; c < cells.headers.size(); ++c) t.add_column(cells.headers[c], c == 0 ? A::left : A::right);
  for (const auto& row : cells.rows) t.add_row(row);
  t.render(out);
}

}  // namespace moonquota::report
