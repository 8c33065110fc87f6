#include "report/reconcile/reconcile_prom.hpp"
#include "reconcile/prometheus_text.hpp"
#include "report/prom_text.hpp"

#include <array>
#include <charconv>
#include <system_error>

namespace moonquota::report {

namespace {

constexpr const char* k_reconcile_prefix = "moonquota_reconcile_";

std::string escape_label(const std::string& raw) { return reconcile::label_value(raw); }

// Every per-tenant series carries the model that made its expected side, and the cluster.
std::string tenant_labels(const reconcile::ReconcileReport& r, const std::string& tenant, const std::string& cluster) {
  return "{tenant_id=\"" + escape_label(tenant) + "\",model=\"" + quota::model_name(r.metadata) + "\",cluster=\"" +
         escape_label(cluster) + "\"}";
}

// The labels of a series with no other label.
std::string cluster_only(const std::string& cluster) { return "{cluster=\"" + escape_label(cluster) + "\"}"; }

// ",cluster=\"...\"}" closing a label set that has other labels.
std::string cluster_last(const std::string& cluster) { return ",cluster=\"" + escape_label(cluster) + "\"}"; }

// Bytes per hour as bytes per second, the shortest text that reads back as the same double.
std::string per_second(double bytes_per_hour) {
  std::array<char, 32> text{};
  const double value = bytes_per_hour / 3600.0;
  const auto [end, ec] = std::to_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() ? std::string(text.data(), end) : std::string("NaN");
}

// One sample per tenant with a drift rate (bytes per hour, rendered by `value`).
template <typename Value>
void drift_rates(std::ostream& out, const reconcile::ReconcileReport& r, const history::TrendTable& trends,
                 const std::string& cluster, const std::string& name, const std::string& help, Value value) {
  gauge_family(out, k_reconcile_prefix, name, help);
  for (const auto& d : r.tenants) {
    const auto* t = trends.find(d.tenant_id);
    if (t == nullptr || !t->rate_bytes_per_hour) continue;
    out << k_reconcile_prefix << name << tenant_labels(r, d.tenant_id, cluster) << " " << value(*t->rate_bytes_per_hour)
        << "\n";
  }
}

template <typename Value>
void per_tenant(std::ostream& out, const reconcile::ReconcileReport& r, const std::string& cluster,
                const std::string& name, const std::string& help, Value value) {
  gauge_family(out, k_reconcile_prefix, name, help);
  for (const auto& d : r.tenants) {
    out << k_reconcile_prefix << name << tenant_labels(r, d.tenant_id, cluster) << " " << value(d) << "\n";
  }
}

constexpr std::string_view k_reconcile_success = "compared metadata with the live master";

}  // namespace

void render_reconcile_prom(const reconcile::ReconcileReport& r, const history::TrendTable* trends,
                           std::uint64_t run_at_ms, int exit_code, const std::string& cluster, std::ostream& out) {
  render_reconcile_prom_tenants(r, trends, cluster, out);
  run_facts(out, k_reconcile_prefix, RunFacts{run_at_ms, true, exit_code, {}, k_reconcile_success}, cluster);
}

void render_reconcile_prom_tenants(const reconcile::ReconcileReport& r, const history::TrendTable* trends,
                                   const std::string& cluster, std::ostream& out) {
  per_tenant(out, r, cluster, "expected_charged_bytes", "Charge rebuilt from metadata (bytes)",
             [](const auto& d) { return std::to_string(d.expected_charged_bytes); });
  per_tenant(out, r, cluster, "live_charged_bytes", "Live charge, minimum over samples (bytes)",
             [](const auto& d) { return std::to_string(d.live_charged_bytes); });
  per_tenant(out, r, cluster, "live_max_charged_bytes", "Live charge, maximum over samples (bytes)",
             [](const auto& d) { return std::to_string(d.live_max_charged_bytes); });
  per_tenant(out, r, cluster, "delta_bytes", "Live minus expected charge (bytes, signed)",
             [](const auto& d) { return std::to_string(d.delta_bytes); });
  per_tenant(out, r, cluster, "within_tolerance", "1 when |delta| <= tolerance",
             [](const auto& d) { return d.within_tolerance ? "1" : "0"; });
  per_tenant(out, r, cluster, "in_flight_bytes",
             "Bytes of PROCESSING MEMORY replicas in the metadata: puts not yet committed (only this cause of "
             "in-flight charge; the others are in unexplained_bytes' causes)",
             [](const auto& d) { return std::to_string(d.in_flight_bytes); });
  per_tenant(out, r, cluster, "unexplained_bytes",
             "Delta left after the causes the metadata shows (bytes, signed): what to alert on",
             [](const auto& d) { return std::to_string(d.unexplained_bytes); });
  per_tenant(out, r, cluster, "unexplained_within_tolerance", "1 when |unexplained| <= tolerance",
             [](const auto& d) { return d.unexplained_within_tolerance ? "1" : "0"; });
  gauge_family(
      out, k_reconcile_prefix, "verdict",
      "1 for the tenant's verdict (match, live_over, live_under, missing_live, missing_metadata, flags_mismatch)");
  for (const auto& d : r.tenants) {
    out << k_reconcile_prefix << "verdict{tenant_id=\"" << escape_label(d.tenant_id) << "\",model=\""
        << quota::model_name(r.metadata) << "\",verdict=\"" << reconcile::verdict_name(d.verdict) << "\""
        << cluster_last(cluster) << " 1\n";
  }
  if (trends != nullptr) {
    per_tenant(out, r, cluster, "persistent",
               "1 when the unexplained remainder is outside tolerance with one sign for the configured consecutive "
               "runs of this model",
               [&](const auto& d) {
                 const auto* t = trends->find(d.tenant_id);
                 return t != nullptr && t->persistent ? "1" : "0";
               });
    drift_rates(out, r, *trends, cluster, "drift_rate_bytes_per_second",
                "Estimated drift rate of the unexplained remainder over the current streak (bytes/second)",
                [](double per_hour) { return per_second(per_hour); });
    drift_rates(out, r, *trends, cluster, "drift_rate_bytes_per_hour",
                "Deprecated: drift_rate_bytes_per_second times 3600, rounded (one more release)",
                [](double per_hour) { return std::to_string(static_cast<std::int64_t>(per_hour)); });
  }
  gauge_family(out, k_reconcile_prefix, "tenants", "Tenants per verdict");
  for (int v = 0; v < reconcile::k_verdict_count; ++v) {
    out << k_reconcile_prefix << "tenants{verdict=\"" << reconcile::verdict_name(static_cast<reconcile::Verdict>(v))
        << "\",model=\"" << quota::model_name(r.metadata) << "\"" << cluster_last(cluster) << " "
        << r.counts.by_verdict[v] << "\n";
  }
  gauge_family(
      out, k_reconcile_prefix, "model",
      "The model of the expected side (live: a running master; restore: a restore at a time) and its lease model "
      "(upstream: lease-expired objects erased at restore; keep: leases ignored; the live model has no lease "
      "filter)");
  out << k_reconcile_prefix << "model{model=\"" << quota::model_name(r.metadata) << "\",lease_model=\""
      << restore::lease_model_name(r.metadata.lease_model) << "\"" << cluster_last(cluster) << " 1\n";
  gauge_family(out, k_reconcile_prefix, "tolerance_bytes", "Tolerance used for the verdicts (bytes)");
  out << k_reconcile_prefix << "tolerance_bytes" << cluster_only(cluster) << " " << r.tolerance_bytes << "\n";
  gauge_family(out, k_reconcile_prefix, "samples", "Live samples taken");
  out << k_reconcile_prefix << "samples" << cluster_only(cluster) << " " << r.live.samples << "\n";
  if (r.metadata_point_ms) {
    gauge_family(out, k_reconcile_prefix, "snapshot_created_timestamp_seconds",
                 "created_at of the snapshot the comparison read (Unix seconds)");
    out << k_reconcile_prefix << "snapshot_created_timestamp_seconds" << cluster_only(cluster) << " "
        << prom_seconds(*r.metadata_point_ms) << "\n";
  }
  if (r.metadata_age_ms) {
    gauge_family(out, k_reconcile_prefix, "metadata_age_seconds",
                 "Live sample time minus the snapshot's created_at (seconds)");
    out << k_reconcile_prefix << "metadata_age_seconds" << cluster_only(cluster) << " "
        << prom_seconds(*r.metadata_age_ms) << "\n";
  }
}

void render_reconcile_prom_failure(std::uint64_t run_at_ms, int exit_code, const std::string& message,
                                   const std::string& cluster, std::ostream& out) {
  run_facts(out, k_reconcile_prefix, RunFacts{run_at_ms, false, exit_code, message, k_reconcile_success}, cluster);
}

}  // namespace moonquota::report
