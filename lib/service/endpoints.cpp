#include "service/endpoints.hpp"

#include <nlohmann/json.hpp>
#include <sstream>

#include "report/reconcile/reconcile_history.hpp"
#include "report/reconcile/reconcile_report.hpp"
#include "service/duration.hpp"

namespace moonquota::service {

namespace {

constexpr const char* k_json = "application/json";

HttpAnswer text(int status, std::string body) { return {status, "text/plain; charset=utf-8", std::move(body) + "\n"}; }

HttpAnswer json_error(int status, const std::string& message) {
  nlohmann::ordered_json j;
  j["error"] = message;
  return {status, k_json, j.dump() + "\n"};
}

HttpAnswer report(const StateView& view, const EndpointContext& context, report::OutputFormat format,
                  const char* content_type) {
  if (!view.compared) return text(503, "no audit has finished yet");
  const app::AuditResult& audit = *view.compared;
  report::ReconcileRenderOptions options;
  options.run_at_ms = audit.run_at_ms;
  options.exit_code = audit.exit_code;
  options.cluster = context.cluster;
  std::ostringstream out;
  report::render_reconcile(audit.report, audit.trends ? &*audit.trends : nullptr, format, options, out);
  return {200, content_type, out.str()};
}

HttpAnswer history(const QueryParams& query, const StateView& view, const EndpointContext& context) {
  if (!context.has_db) return json_error(404, "no history: the service runs without --db");
  std::optional<std::string> tenant;
  for (const auto& [name, value] : query) {
    if (name != "tenant") return json_error(400, "unknown query parameter '" + name + "' (only tenant=ID)");
    if (tenant) return json_error(400, "tenant given more than once");
    if (value.empty()) return json_error(400, "tenant is empty");
    tenant = value;
  }
  if (!view.compared || !view.compared->trends) return json_error(503, "no audit has been recorded yet");
  const history::TrendTable& trends = *view.compared->trends;
  if (tenant && trends.find(*tenant) == nullptr) {
    return json_error(404, "tenant '" + *tenant + "' has no recorded point in the " + trends.model + " model");
  }
  std::ostringstream out;
  report::render_history_json(trends, tenant, out);
  return {200, k_json, out.str()};
}

}  // namespace

Health health_of(const StateView& view, std::uint64_t interval_ms, std::uint64_t now_ms) {
  const std::uint64_t limit_ms = k_healthy_intervals * interval_ms;
  std::string last_error;
  if (view.last && view.last->result == app::RunResult::error) {
    last_error = "; the newest audit failed (exit " + std::to_string(view.last->exit_code) + "): " + view.last->error;
  }
  if (!view.last_success_ms) {
    return {false, (view.last ? "no audit has succeeded yet" : "no audit has finished yet") + last_error};
  }
  const std::uint64_t age_ms = now_ms > *view.last_success_ms ? now_ms - *view.last_success_ms : 0;
  if (age_ms >= limit_ms) {
    return {false, "the newest successful audit finished " + seconds_text(static_cast<std::int64_t>(age_ms)) +
                       " s ago, not less than " + std::to_string(k_healthy_intervals) + " intervals (" +
                       duration_text(limit_ms) + ")" + last_error};
  }
  return {true, "ok"};
}

HttpAnswer answer_request(const std::string& path, const QueryParams& query, const StateView& view,
                          const EndpointContext& context, std::uint64_t now_ms) {
  if (path == "/metrics") {
    std::ostringstream out;
    render_service_metrics(view, context.build, context.cluster, now_ms, out);
    return {200, "text/plain; version=0.0.4; charset=utf-8", out.str()};
  }
  if (path == "/healthz") {
    const Health health = health_of(view, context.interval_ms, now_ms);
    return text(health.ok ? 200 : 503, health.reason);
  }
  if (path == "/report") return report(view, context, report::OutputFormat::html, "text/html; charset=utf-8");
  if (path == "/report.json") return report(view, context, report::OutputFormat::json, k_json);
  if (path == "/history") return history(query, view, context);
  return text(404, "not found: " + path + " (endpoints: /metrics /healthz /report /report.json /history)");
}

}  // namespace moonquota::service
