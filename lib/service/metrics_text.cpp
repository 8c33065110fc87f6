#include "service/metrics_text.hpp"

#include "reconcile/prometheus_text.hpp"
#include "report/lag_prom.hpp"
#include "report/prom_text.hpp"
#include "report/reconcile/reconcile_prom.hpp"

namespace moonquota::service {

namespace {

std::string label(const std::string& raw) { return reconcile::label_value(raw); }

// The message cut at a UTF-8 character boundary.
std::string cut_message(const std::string& message) {
  if (message.size() <= k_max_message_label_bytes) return message;
  std::size_t end = k_max_message_label_bytes - 3;
  while (end > 0 && (static_cast<unsigned char>(message[end]) & 0xC0) == 0x80) --end;
  return message.substr(0, end) + "...";
}

class Writer {
 public:
  Writer(std::ostream& out, const std::string& cluster) : m_out(out), m_cluster(label(cluster)) {}

  void family(const std::string& name, const char* type, const std::string& help) {
    m_out << "# HELP " << name << " " << help << "\n# TYPE " << name << " " << type << "\n";
  }
  // `labels`: `name="escaped",` pairs, each followed by a comma, or "".
  void sample(const std::string& name, const std::string& labels, const std::string& value) {
    m_out << name << "{" << labels << "cluster=\"" << m_cluster << "\"} " << value << "\n";
  }

 private:
  std::ostream& m_out;
  std::string m_cluster;
};

}  // namespace

void render_service_metrics(const StateView& view, const BuildInfo& build, const std::string& cluster,
                            std::uint64_t now_ms, std::ostream& out) {
  Writer w(out, cluster);
  w.family("moonquota_build_info", "gauge", "The build of quota-reconcile serve (the value is always 1)");
  w.sample("moonquota_build_info",
           "version=\"" + label(build.version) + "\",git=\"" + label(build.git) + "\",upstream_commit=\"" +
               label(build.upstream_commit) + "\",",
           "1");
  w.family("moonquota_reconcile_runs_total", "counter", "Audits finished since the service started, by result");
  for (int r = 0; r < app::k_run_result_count; ++r) {
    w.sample("moonquota_reconcile_runs_total",
             std::string("result=\"") + app::run_result_name(static_cast<app::RunResult>(r)) + "\",",
             std::to_string(view.runs_total[static_cast<std::size_t>(r)]));
  }
  w.family("moonquota_reconcile_running", "gauge", "1 while an audit is in progress");
  w.sample("moonquota_reconcile_running", "", view.running ? "1" : "0");
  if (view.last) {
    const app::RunOutcome& last = *view.last;
    const bool success = last.result != app::RunResult::error;
    w.family("moonquota_reconcile_last_run_timestamp_seconds", "gauge",
             "When the newest audit finished (Unix seconds)");
    w.sample("moonquota_reconcile_last_run_timestamp_seconds", "",
             report::prom_seconds(static_cast<std::int64_t>(last.finished_ms)));
    w.family("moonquota_reconcile_last_run_success", "gauge",
             "1 when the newest audit compared metadata with the live master (and recorded it with --db), 0 when it "
             "failed");
    w.sample("moonquota_reconcile_last_run_success", "", success ? "1" : "0");
    w.family("moonquota_reconcile_last_run_duration_seconds", "gauge", "Wall time of the newest audit (seconds)");
    w.sample("moonquota_reconcile_last_run_duration_seconds", "",
             report::prom_seconds(static_cast<std::int64_t>(last.duration_ms)));
    w.family("moonquota_reconcile_last_run_exit_code", "gauge",
             "The exit code the one-shot audit would have returned for the newest audit (cli-contract.md)");
    w.sample("moonquota_reconcile_last_run_exit_code", "", std::to_string(last.exit_code));
    if (!success) {
      w.family("moonquota_reconcile_last_error_info", "gauge",
               "The error of the newest audit while it failed (the value is always 1)");
      w.sample(
          "moonquota_reconcile_last_error_info",
          "exit_code=\"" + std::to_string(last.exit_code) + "\",message=\"" + label(cut_message(last.error)) + "\",",
          "1");
    }
  }
  if (view.last_success_ms) {
    w.family("moonquota_reconcile_last_success_timestamp_seconds", "gauge",
             "When the newest successful audit finished (Unix seconds): the age of the per-tenant series");
    w.sample("moonquota_reconcile_last_success_timestamp_seconds", "",
             report::prom_seconds(static_cast<std::int64_t>(*view.last_success_ms)));
  }
  if (view.ha) {
    if (view.ha->report) {
      report::render_lag_prom(*view.ha->report, cluster, out);
    } else {
      report::render_lag_prom_failure(view.ha->at_ms, view.ha->exit_code, view.ha->error, cluster, out);
    }
  }
  if (!view.compared) return;
  const auto& report = view.compared->report;
  if (report.metadata_point_ms) {
    w.family("moonquota_reconcile_snapshot_age_seconds", "gauge",
             "Now minus the created_at of the snapshot the newest comparison read (seconds)");
    w.sample("moonquota_reconcile_snapshot_age_seconds", "",
             report::prom_seconds(static_cast<std::int64_t>(now_ms) - *report.metadata_point_ms));
  }
  report::render_reconcile_prom_tenants(report, view.compared->trends ? &*view.compared->trends : nullptr, cluster,
                                        out);
}

}  // namespace moonquota::service
