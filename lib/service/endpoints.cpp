#include "service/endpoints.hpp"

#include <nlohmann/json.hpp>
#include <sstream>

#include "report/reconcile/reconcile_history.hpp"
#include "report/reconcile/reconcile_json.hpp"
#include "report/reconcile/reconcile_report.hpp"
#include "service/duration.hpp"
#include "util/time_text.hpp"

namespace moonquota::service {

namespace {

constexpr const char* k_json = "application/json";

HttpAnswer text(int status, std::string body) { return {status, "text/plain; charset=utf-8", std::move(body) + "\n"}; }

HttpAnswer json_error(int status, const std::string& message) {
  nlohmann::ordered_json j;
  j["error"] = message;
  // A message may quote a query the client sent, which need not be UTF-8: its bad bytes become
  // U+FFFD rather than an exception (and cpp-httplib's 500).
  return {status, k_json, j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n"};
}

// "; the newest audit failed (exit N): ERROR" when it did, else empty: what /healthz and the
// 503 answers add to their reason.
std::string newest_failure_suffix(const StateView& view) {
  if (!view.last || view.last->result != app::RunResult::error) return {};
  return "; the newest audit failed (exit " + std::to_string(view.last->exit_code) + "): " + view.last->error;
}

// Why there is no comparison to show, as /healthz would say it.
std::string no_comparison_reason(const StateView& view) {
  if (!view.last) return "no audit has finished yet";
  return "no audit has compared the master yet" + newest_failure_suffix(view);
}

// The comparison shown is older than the newest audit, which failed.
bool is_stale(const StateView& view) {
  return view.last && view.last->result == app::RunResult::error && view.last->audit != view.compared;
}

// The stale comparison's banner, with its age; empty when it is not stale.
std::string stale_banner(const StateView& view, std::uint64_t now_ms) {
  if (!is_stale(view)) return {};
  const std::uint64_t at = view.compared->run_at_ms;
  const auto age = static_cast<std::int64_t>(now_ms > at ? now_ms - at : 0);
  return "stale: this comparison sampled the master at " + util::utc_iso8601(static_cast<std::int64_t>(at)) + ", " +
         util::hms_text(age) + " ago; the newest audit (finished " +
         util::utc_iso8601(static_cast<std::int64_t>(view.last->finished_ms)) + ") failed (exit " +
         std::to_string(view.last->exit_code) + "): " + view.last->error;
}

// /report.json's `service` member (an addition to quota-reconcile/1): when the comparison was
// made, how old it is, and how the newest audit ended.
nlohmann::ordered_json service_json(const StateView& view, std::uint64_t now_ms) {
  const std::uint64_t at = view.compared->run_at_ms;
  nlohmann::ordered_json j;
  j["compared_at_ms"] = at;
  j["age_ms"] = now_ms > at ? now_ms - at : 0;
  nlohmann::ordered_json newest;
  newest["result"] = app::run_result_name(view.last->result);
  newest["exit_code"] = view.last->exit_code;
  newest["finished_ms"] = view.last->finished_ms;
  if (view.last->result == app::RunResult::error) newest["error"] = view.last->error;
  j["newest_audit"] = std::move(newest);
  j["stale"] = is_stale(view);
  return j;
}

HttpAnswer report(const StateView& view, const EndpointContext& context, report::OutputFormat format,
                  std::uint64_t now_ms) {
  const bool json = format == report::OutputFormat::json;
  if (!view.compared) return json ? json_error(503, no_comparison_reason(view)) : text(503, no_comparison_reason(view));
  const app::AuditResult& audit = *view.compared;
  if (json) {
    auto j = report::reconcile_report_json(audit.report, audit.trends ? &*audit.trends : nullptr);
    if (view.last) j["service"] = service_json(view, now_ms);
    return {200, k_json, j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n"};
  }
  report::ReconcileRenderOptions options;
  options.run_at_ms = audit.run_at_ms;
  options.exit_code = audit.exit_code;
  options.cluster = context.cluster;
  options.banner = stale_banner(view, now_ms);
  std::ostringstream out;
  report::render_reconcile(audit.report, audit.trends ? &*audit.trends : nullptr, format, options, out);
  return {200, "text/html; charset=utf-8", out.str()};
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
  const std::string last_error = newest_failure_suffix(view);
  if (!view.last_success_ms) {
    return {false, (view.last ? "no audit has succeeded yet" : "no audit has finished yet") + last_error};
  }
  const std::uint64_t age_ms = now_ms > *view.last_success_ms ? now_ms - *view.last_success_ms : 0;
  if (age_ms >= limit_ms) {
    return {false, "the newest successful audit finished " + util::hms_text(static_cast<std::int64_t>(age_ms)) +
                       " ago, not less than " + std::to_string(k_healthy_intervals) + " intervals (" +
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
  if (path == "/report") return report(view, context, report::OutputFormat::html, now_ms);
  if (path == "/report.json") return report(view, context, report::OutputFormat::json, now_ms);
  if (path == "/history") return history(query, view, context);
  return text(404, "not found: " + path + " (endpoints: /metrics /healthz /report /report.json /history)");
}

}  // namespace moonquota::service
