#include "report/lag_prom.hpp"

#include "reconcile/prometheus_text.hpp"
#include "report/prom_text.hpp"

namespace moonquota::report {

namespace {

constexpr std::string_view k_prefix = "moonquota_ha_";
constexpr std::size_t k_max_message_bytes = 512;

class Series {
 public:
  Series(std::ostream& out, const std::string& cluster)
      : m_out(out), m_cluster(",cluster=\"" + reconcile::label_value(cluster) + "\"}") {}
  // `labels`: `name="escaped"` pairs separated by commas, or "".
  void sample(std::string_view name, const std::string& labels, const std::string& value) {
    m_out << k_prefix << name << "{" << labels << (labels.empty() ? m_cluster.substr(1) : m_cluster) << " " << value
          << "\n";
  }

 private:
  std::ostream& m_out;
  std::string m_cluster;
};

std::string seconds(std::uint64_t ms) { return prom_seconds(static_cast<std::int64_t>(ms)); }

void last_sample(std::ostream& out, Series& s, std::uint64_t at_ms, bool success) {
  gauge_family(out, k_prefix, "last_sample_timestamp_seconds",
               "When the OpLog positions were last sampled (Unix seconds)");
  s.sample("last_sample_timestamp_seconds", "", seconds(at_ms));
  gauge_family(out, k_prefix, "last_sample_success", "1 when the newest sampling of the OpLog positions succeeded");
  s.sample("last_sample_success", "", success ? "1" : "0");
}

using WindowRef = std::pair<const char*, const std::optional<reconcile::Window>*>;

}  // namespace

void render_lag_prom(const reconcile::LagReport& r, const std::string& cluster, std::ostream& out) {
  Series s(out, cluster);
  last_sample(out, s, r.sampled_at_ms, true);
  const std::pair<const char*, const reconcile::Position*> positions[] = {
      {"primary_committed", &r.positions.primary_committed},
      {"durable", &r.positions.durable},
      {"standby_applied", &r.positions.standby_applied},
      {"snapshot", &r.positions.snapshot}};
  gauge_family(out, k_prefix, "position_known", "1 when the OpLog position is known (docs/operations.md)");
  for (const auto& [name, p] : positions)
    s.sample("position_known", std::string("position=\"") + name + "\"", p->seq ? "1" : "0");
  gauge_family(out, k_prefix, "position_sequence",
               "An OpLog position: primary_committed (a lower bound), durable, standby_applied, snapshot");
  for (const auto& [name, p] : positions) {
    if (p->seq) s.sample("position_sequence", std::string("position=\"") + name + "\"", std::to_string(*p->seq));
  }
  const WindowRef windows[] = {{"not_durable", &r.windows.not_durable},
                               {"catch_up", &r.windows.catch_up},
                               {"snapshot_gap", &r.windows.snapshot_gap}};
  gauge_family(out, k_prefix, "window_entries",
               "OpLog entries in a window: not_durable (D,P], catch_up (A,D], snapshot_gap (S,D]");
  for (const auto& [name, w] : windows) {
    if (*w) s.sample("window_entries", std::string("window=\"") + name + "\"", std::to_string((*w)->entries));
  }
  gauge_family(out, k_prefix, "window_seconds",
               "How long ago the durable prefix stood at the window's start (from sampled history; at least this "
               "when no sample is old enough)");
  for (const auto& [name, w] : windows) {
    if (*w && (*w)->age) s.sample("window_seconds", std::string("window=\"") + name + "\"", seconds((*w)->age->ms));
  }
  // One family per figure of the windows' tenants.
  const auto per_tenant = [&](std::string_view family, std::string_view help, auto value) {
    gauge_family(out, k_prefix, family, help);
    for (const auto& [name, w] : windows) {
      if (!*w || !(*w)->tenants) continue;
      for (const auto& t : *(*w)->tenants) {
        s.sample(family,
                 std::string("window=\"") + name + "\",tenant_id=\"" + reconcile::label_value(t.tenant_id) + "\"",
                 std::to_string(value(t)));
      }
    }
  };
  per_tenant("window_tenant_keys", "Object keys of the tenant the window's entries touch",
             [](const reconcile::WindowTenant& t) { return t.keys; });
  per_tenant("window_tenant_charged_bytes_delta",
             "How the promotion's charge of the tenant moves across the window (bytes, signed)",
             [](const reconcile::WindowTenant& t) { return t.charged_bytes_delta; });
  if (r.durable_advanced) {
    gauge_family(out, k_prefix, "durable_advanced_timestamp_seconds",
                 "When the durable prefix was first seen at its current position (Unix seconds; sampled history)");
    s.sample("durable_advanced_timestamp_seconds", "", seconds(r.durable_advanced->at_ms));
  }
}

void render_lag_prom_failure(std::uint64_t sampled_at_ms, int exit_code, const std::string& message,
                             const std::string& cluster, std::ostream& out) {
  Series s(out, cluster);
  last_sample(out, s, sampled_at_ms, false);
  // label_value keeps the ASCII of a message that is not UTF-8 (a cut character included).
  const std::string cut = message.size() > k_max_message_bytes ? message.substr(0, k_max_message_bytes) : message;
  gauge_family(out, k_prefix, "last_error_info", "The error of the newest sampling while it failed (always 1)");
  s.sample("last_error_info",
           "exit_code=\"" + std::to_string(exit_code) + "\",message=\"" + reconcile::label_value(cut) + "\"", "1");
}

}  // namespace moonquota::report
