// `tenants`: per tenant, its usage by medium, what a restore keeps and drops, its biggest objects.
#include <utility>
#include <vector>

#include "report/inspect/inspect_summary_parts.hpp"
#include "report/inspect/inspect_summary_report.hpp"
#include "util/text_encoding.hpp"

namespace moonquota::report {

void render_tenants(const InspectContext& ctx, const inspect::StatsScan& scan, OutputFormat format, std::ostream& out) {
  const auto rows = inspect_tenant_rows(scan);
  if (format == OutputFormat::ndjson) {
    for (const auto& row : rows) out << dump_inspect_json(inspect_tenant_json(row), -1) << "\n";
    return;
  }
  if (format == OutputFormat::json) {
    Json j = header_json(ctx, scan.snapshot, "snapshot-inspect-tenants/1");
    Json tenants = Json::array();
    for (const auto& row : rows) tenants.push_back(inspect_tenant_json(row));
    j["tenants"] = std::move(tenants);
    write_inspect_json(j, out);
    return;
  }
  render_header_text(ctx, scan.snapshot, out);
  out << "\n";
  for (const auto& row : rows) {
    Json t = inspect_tenant_json(row);
    out << "tenant " << util::printable(row.tenant_id) << ": " << t["objects"] << " objects (" << t["skipped"]
        << " skipped), " << t["replicas"] << " replicas, " << t["logical_bytes"] << " logical bytes\n";
    out << "  MEMORY " << t["memory_bytes"] << " B, DISK " << t["disk_bytes"] << " B, LOCAL_DISK "
        << t["local_disk_bytes"] << " B\n";
    out << "  restore: " << t["restored_objects"] << " objects kept, charged " << t["charged_bytes"] << " B; dropped "
        << t["dropped"]["non_complete"] << " non-complete, " << t["dropped"]["lease_expired"] << " lease-expired, "
        << t["dropped"]["undecodable"] << " undecodable\n";
    for (const auto& o : row.usage ? row.usage->biggest.sorted() : std::vector<inspect::RankedObject>{}) {
      out << "  biggest: " << o.size << " B  " << util::printable(o.key) << " (shard " << o.shard << ")\n";
    }
  }
}

}  // namespace moonquota::report
