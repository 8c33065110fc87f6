#include "report/inspect/inspect_summary_parts.hpp"

#include <map>

namespace moonquota::report {

std::string inspect_replica_type_name(std::int8_t t) { return t == -1 ? "(no replica)" : model::replica_type::name(t); }
std::string inspect_replica_status_name(std::int16_t s) { return s == -1 ? "-" : model::replica_status::name(s); }

std::string inspect_task_type_name(std::int32_t t) { return model::task_type::k_table.name_or_number(t); }
std::string inspect_task_status_name(std::int32_t s) { return model::task_status::k_table.name_or_number(s); }

std::vector<InspectTenantRow> inspect_tenant_rows(const inspect::StatsScan& scan) {
  std::map<std::string, InspectTenantRow> rows;
  for (const auto& [t, u] : scan.stats.tenants) rows[t].usage = &u;
  for (const auto& [t, r] : scan.snapshot.restored_tenants) rows[t].restored = &r;
  std::vector<InspectTenantRow> out;
  for (auto& [t, row] : rows) {
    row.tenant_id = t;
    out.push_back(row);
  }
  return out;
}

Json inspect_ranked_json(const inspect::RankedObject& o) {
  Json j;
  put_bytes(j, "tenant_id", o.tenant_id);
  put_bytes(j, "key", o.key);
  j["shard"] = o.shard;
  j["size"] = o.size;
  j["charge_bytes"] = o.charge_bytes;
  j["replicas"] = o.replicas;
  return j;
}

Json inspect_tenant_json(const InspectTenantRow& row) {
  static const inspect::TenantUsage k_empty_usage;
  static const restore::TenantTally k_empty_tally;
  const auto& u = row.usage ? *row.usage : k_empty_usage;
  const auto& r = row.restored ? *row.restored : k_empty_tally;
  Json j;
  put_bytes(j, "tenant_id", row.tenant_id);
  j["objects"] = u.objects;
  j["skipped"] = u.skipped;
  j["replicas"] = u.replicas;
  j["logical_bytes"] = u.logical_bytes;
  j["memory_bytes"] = u.memory_bytes;
  j["disk_bytes"] = u.disk_bytes;
  j["local_disk_bytes"] = u.local_disk_bytes;
  j["charge_if_all_restored_bytes"] = u.charge_if_all_restored_bytes;
  j["restored_objects"] = r.objects;
  j["charged_bytes"] = saturate(r.charged_bytes);
  j["dropped"] = drops_json(r.dropped);
  Json biggest = Json::array();
  for (const auto& o : u.biggest.sorted()) biggest.push_back(inspect_ranked_json(o));
  j["biggest_objects"] = std::move(biggest);
  return j;
}

}  // namespace moonquota::report
