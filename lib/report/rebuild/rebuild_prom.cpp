#include "report/rebuild/rebuild_prom.hpp"

#include <string>
#include <utility>
#include <vector>

#include "reconcile/prometheus_text.hpp"
#include "report/prom_text.hpp"

namespace moonquota::report {

namespace {

constexpr const char* k_rebuild_prefix = "moonquota_rebuild_";

std::string label(const std::string& raw) { return reconcile::label_value(raw); }

// `labels`: `name="escaped",` pairs, each followed by a comma, or "".
void sample(std::ostream& out, const std::string& name, const std::string& labels, const std::string& cluster,
            const std::string& value) {
  out << k_rebuild_prefix << name << "{" << labels << "cluster=\"" << label(cluster) << "\"} " << value << "\n";
}

constexpr std::string_view k_rebuild_success = "read the metadata and predicted the restore";

}  // namespace

void render_rebuild_prom(const quota::RebuildResult& r, const std::string& cluster, std::uint64_t run_at_ms,
                         int exit_code, std::ostream& out) {
  const bool promote = r.promote.has_value();
  const std::string path = std::string("path=\"") + (promote ? "promote" : "restore") + "\",";
  gauge_family(
      out, k_rebuild_prefix, "master_starts_empty",
      "1 when the master would start with EMPTY metadata on this path (every candidate rejected, no candidate, or "
      "a failed promotion validation)");
  sample(out, "master_starts_empty", path, cluster, r.starts_empty() ? "1" : "0");
  gauge_family(out, k_rebuild_prefix, "charged_bytes", "The tenant's charge in the rebuilt account table (bytes)");
  for (const auto& row : r.table.rows) {
    sample(out, "charged_bytes", "tenant_id=\"" + label(row.tenant_id) + "\",", cluster,
           std::to_string(row.charged_bytes));
  }
  gauge_family(out, k_rebuild_prefix, "objects", "The tenant's objects in the rebuilt account table");
  for (const auto& row : r.table.rows) {
    sample(out, "objects", "tenant_id=\"" + label(row.tenant_id) + "\",", cluster, std::to_string(row.object_count));
  }
  gauge_family(out, k_rebuild_prefix, "tenants", "Rows of the rebuilt account table");
  sample(out, "tenants", "", cluster, std::to_string(r.table.rows.size()));
  gauge_family(out, k_rebuild_prefix, "total_charged_bytes", "Sum of the rebuilt charges (bytes, saturating)");
  sample(out, "total_charged_bytes", "", cluster, std::to_string(r.table.total_charged_bytes));
  std::vector<std::pair<const char*, std::uint64_t>> dropped;
  if (promote) {
    const auto& d = r.promote->bootstrap.dropped;
    dropped = {{"non_complete", d.non_complete},
               {"lease_expired", d.lease_expired},
               {"size_zero", d.size_zero},
               {"invalid_memory", d.invalid_memory}};
  } else {
    const restore::DropCounts d = r.outcome.state ? r.outcome.state->dropped : restore::DropCounts{};
    dropped = {{"non_complete", d.non_complete}, {"lease_expired", d.lease_expired}, {"undecodable", d.undecodable}};
  }
  gauge_family(out, k_rebuild_prefix, "dropped_objects",
               "Objects the restore (promote: the standby bootstrap) drops, by reason (docs/leases-at-restore.md)");
  for (const auto& [reason, count] : dropped) {
    sample(out, "dropped_objects", path + "reason=\"" + reason + "\",", cluster, std::to_string(count));
  }
  if (r.snapshot) {
    gauge_family(out, k_rebuild_prefix, "snapshot_created_timestamp_seconds",
                 "created_at of the snapshot the restore reads (Unix seconds)");
    sample(out, "snapshot_created_timestamp_seconds", "", cluster, prom_seconds(r.snapshot->created_at_ms));
    gauge_family(out, k_rebuild_prefix, "snapshot_age_seconds",
                 "Restore time minus the snapshot's created_at (seconds)");
    sample(out, "snapshot_age_seconds", "", cluster, prom_seconds(r.snapshot->age_at_restore_ms));
  }
  gauge_family(out, k_rebuild_prefix, "restore_timestamp_seconds",
               "The restore time the check modelled (Unix seconds)");
  sample(out, "restore_timestamp_seconds", "", cluster, prom_seconds(static_cast<std::int64_t>(r.restore_time_ms)));
  run_facts(out, k_rebuild_prefix, RunFacts{run_at_ms, true, exit_code, {}, k_rebuild_success}, cluster);
}

void render_rebuild_prom_failure(const std::string& cluster, std::uint64_t run_at_ms, int exit_code,
                                 const std::string& message, std::ostream& out) {
  run_facts(out, k_rebuild_prefix, RunFacts{run_at_ms, false, exit_code, message, k_rebuild_success}, cluster);
}

}  // namespace moonquota::report
