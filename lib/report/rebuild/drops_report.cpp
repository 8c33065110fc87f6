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

void render_drop_table(const quota::DropTable& table, std::ostream& out) {
  if (table.empty()) return;
  out << "\n"
      << (table.standby ? "DROPPED BY THE STANDBY BOOTSTRAP" : "DROPPED BY THE RESTORE")
      << " (bytes: what the dropped objects were charged, size x COMPLETE MEMORY replicas)\n";
  util::TextTable t;
  using A = util::TextTable::Align;
  t.add_column("TENANT", A::left);
  for (const char* h : {"NON-COMPLETE", "NON-COMPLETE-BYTES", "LEASE-EXPIRED", "LEASE-EXPIRED-BYTES"}) {
    t.add_column(h, A::right);
  }
  if (table.standby) {
    t.add_column("SIZE-0", A::right);
    t.add_column("INVALID-MEMORY", A::right);
  } else {
    t.add_column("UNDECODABLE", A::right);
  }
  t.add_column("CHARGED", A::right);
  t.add_column("CHARGE-WITHOUT-DROPS", A::right);
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
    t.add_row(std::move(row));
  }
  t.render(out);
}

}  // namespace moonquota::report
