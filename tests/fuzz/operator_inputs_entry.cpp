#include "fuzz/operator_inputs_entry.hpp"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>

#include "app/store_args.hpp"
#include "format/allowed_changes_yaml.hpp"
#include "fuzz/entry_checks.hpp"
#include "golden/fixture_set.hpp"
#include "inspect/survival_points.hpp"
#include "reconcile/repair_plan_json.hpp"
#include "report/inspect/fingerprint_report.hpp"
#include "report/reconcile/plan_report.hpp"
#include "service/duration.hpp"
#include "service/endpoints.hpp"
#include "service/http_server.hpp"
#include "source/s3_config.hpp"
#include "util/span_text.hpp"

namespace moonquota::fuzz {

namespace {

std::string as_string(const std::uint8_t* data, std::size_t size) {
  return size == 0 ? std::string() : std::string(reinterpret_cast<const char*>(data), size);
}

// --- --s3-env-file ------------------------------------------------------------------------------

void check_env_round_trip(const std::map<std::string, std::string>& vars) {
  std::string written;
  for (const auto& [name, value] : vars) {
    check(!name.empty() && name.find_first_of("= \t\r\n#") == std::string::npos);
    // Written quoted: the reader trims spaces, tabs and CRs around an unquoted value (a value read
    // from `B="\r x"` keeps its CR). A value holding '"' or a newline has no NAME="VALUE" form.
    if (value.find_first_of("\"\n") != std::string::npos) return;
    written += name + "=\"" + value + "\"\n";
  }
  auto again = source::parse_environment_text(written, "written");
  check(again.ok());
  check(*again == vars);
}

// --- durations, spans, instants, addresses --------------------------------------------------------

constexpr std::uint64_t k_created_ms = 1'787'375'520'123;
constexpr std::uint64_t k_now_ms = 1'796'000'000'000;

void check_duration(const std::string& text) {
  auto every = service::parse_duration_ms(text, "--every");
  check_error(every);
  if (!every.ok()) return;
  check(*every > 0 && *every <= service::k_max_duration_ms);
  auto again = service::parse_duration_ms(service::duration_text(*every), "--every");
  check(again.ok() && *again == *every);
}

void check_span(const std::string& text) {
  const util::ParsedSpan span = util::parse_span_ms(text);
  if (span.fault != util::SpanFault::none) {
    check(span.ms == 0);
    return;
  }
  check(span.ms <= util::k_max_span_ms);
}

void check_resolved(const std::vector<inspect::PointSpec>& specs);

void check_points(const std::string& text) {
  auto specs = inspect::parse_survival_points(text);
  check_error(specs);
  // The same text as an --at-file: what the list parser takes, the file parser takes alike.
  auto from_file = inspect::parse_survival_points_file(text, "points.txt");
  check_error(from_file);
  if (from_file.ok()) {
    check(from_file->size() <= inspect::k_max_survival_points);
    check_resolved(*from_file);
  }
  if (!specs.ok()) return;
  if (text.find_first_of("#\n \t\r\v\f") == std::string::npos) {
    check(from_file.ok() && from_file->size() == specs->size());
    for (std::size_t i = 0; from_file.ok() && i < specs->size(); ++i) check((*from_file)[i].text == (*specs)[i].text);
  }
  check_resolved(*specs);
}

void check_resolved(const std::vector<inspect::PointSpec>& specs) {
  auto points = inspect::resolve_survival_points(specs, static_cast<std::int64_t>(k_created_ms), k_now_ms, "");
  check_error(points);
  if (!points.ok()) return;
  bool zero = false;
  bool now = false;
  for (std::size_t i = 0; i < points->size(); ++i) {
    const auto& p = (*points)[i];
    zero = zero || p.delay_ms == 0;
    now = now || p.is_now;
    check(p.delay_ms == static_cast<std::int64_t>(p.at_ms) - static_cast<std::int64_t>(k_created_ms));
    if (i == 0) continue;
    const auto& q = (*points)[i - 1];
    check(q.at_ms <= p.at_ms);
    check(q.at_ms != p.at_ms || q.is_now != p.is_now);  // an instant asked twice is one point
  }
  check(zero && now);
}

void check_listen(const std::string& text) {
  auto address = service::parse_listen_address(text, "--listen");
  check_error(address);
  if (!address.ok()) return;
  check(!address->host.empty() && address->port >= 0 && address->port <= 65535);
}

// --- serve's requests ---------------------------------------------------------------------------

service::StateView state_for(std::uint8_t pick) {
  service::StateView view;
  if (pick % 5 == 0) return view;
  app::RunOutcome failed;
  failed.result = app::RunResult::error;
  failed.exit_code = 4;
  failed.error = "master GET /metrics: connection refused \xff";
  failed.finished_ms = k_now_ms;
  if (pick % 5 == 1) {
    view.last = failed;
    return view;
  }
  auto audit = std::make_shared<app::AuditResult>();
  audit->report.metadata.charge_model = restore::ChargeModel::live;
  audit->run_at_ms = k_now_ms - 60'000;
  if (pick % 5 >= 3) {
    history::TrendTable trends;
    trends.model = "live";
    trends.run_times_ms = {audit->run_at_ms};
    history::TenantTrend t;
    t.tenant_id = "alpha";
    t.points.push_back({audit->run_at_ms, {}});
    trends.tenants.push_back(t);
    audit->trends = trends;
  }
  app::RunOutcome ok;
  ok.result = app::RunResult::ok;
  ok.exit_code = 0;
  ok.audit = audit;
  ok.finished_ms = k_now_ms - 59'000;
  view.compared = audit;
  view.last = pick % 5 == 4 ? failed : ok;  // 4: the comparison is stale
  view.last_success_ms = ok.finished_ms;
  return view;
}

// "a=1&b&=c" -> {a,1} {b,""} {"",c}, as cpp-httplib hands them over (already decoded bytes).
service::QueryParams split_query(std::string_view query) {
  service::QueryParams params;
  while (!query.empty()) {
    const auto amp = query.find('&');
    const std::string_view item = query.substr(0, amp);
    const auto eq = item.find('=');
    params.emplace_back(std::string(item.substr(0, eq)),
                        eq == std::string_view::npos ? std::string() : std::string(item.substr(eq + 1)));
    if (amp == std::string_view::npos) break;
    query.remove_prefix(amp + 1);
  }
  return params;
}

}  // namespace

int run_s3_env_file(const std::uint8_t* data, std::size_t size) {
  const std::string text = as_string(data, size);
  auto vars = source::parse_environment_text(text, "fuzz.env");
  check_error(vars);
  if (!vars.ok()) return 0;
  check_env_round_trip(*vars);
  const std::map<std::string, std::string> env = *vars;
  auto config = source::s3_config_from_environment(
      source::layered_environment(env, [](const std::string&) -> std::optional<std::string> { return std::nullopt; }));
  check_error(config);
  return 0;
}

int run_durations(const std::uint8_t* data, std::size_t size) {
  const std::string text = as_string(data, size);
  check_duration(text);
  check_span(text);
  check_points(text);
  check_listen(text);
  if (!text.empty() && text[0] == '+') {  // a clock read: only that it parses or says why
    check_error(app::parse_restore_time(text));
  }
  return 0;
}

int run_service_request(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const service::StateView view = state_for(data[0]);
  const std::string rest = as_string(data + 1, size - 1);
  const auto question = rest.find('?');
  const std::string path = rest.substr(0, question);
  const service::QueryParams query =
      split_query(question == std::string::npos ? std::string_view() : std::string_view(rest).substr(question + 1));
  service::EndpointContext context;
  context.has_db = (data[0] & 0x80u) != 0;
  context.interval_ms = 60'000;
  const service::HttpAnswer answer = service::answer_request(path, query, view, context, k_now_ms);
  const int s = answer.status;
  check(s == 200 || s == 400 || s == 404 || s == 503);
  check(!answer.content_type.empty());
  if (answer.content_type == "application/json") { check(nlohmann::json::accept(answer.body)); }
  return 0;
}

int run_golden_inputs(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string text = as_string(data + 1, size - 1);
  switch (data[0] % 3) {
    case 0: {
      auto changes = format::parse_allowed_changes_yaml(text, "allowed-changes.yaml");
      check_error(changes);
      if (!changes.ok()) return 0;
      for (const auto& c : *changes) check(format::is_allowed_change_field(c.field) && !c.reason.empty());
      return 0;
    }
    case 1: {
      auto fp = report::parse_fingerprint_json(text, "fingerprint.json");
      check_error(fp);
      if (!fp.ok()) return 0;
      fp->fingerprint_id = inspect::fingerprint_id_of(fp->shape);
      std::ostringstream out;
      report::render_fingerprint(*fp, report::OutputFormat::json, out);
      auto back = report::parse_fingerprint_json(out.str(), "rendered");
      check(back.ok() && inspect::canonical_shape_text(back->shape) == inspect::canonical_shape_text(fp->shape) &&
            back->fingerprint_id == fp->fingerprint_id);
      return 0;
    }
    default: {
      for (const auto& word : golden::split_args_words(text)) {
        check(!word.empty() && word.find_first_of(" \t\r\n") == std::string::npos);
      }
      return 0;
    }
  }
}

int run_repair_plan(const std::uint8_t* data, std::size_t size) {
  const std::string text = as_string(data, size);
  auto plan = reconcile::parse_plan_json(text, "plan.json");
  check_error(plan);
  if (!plan.ok()) return 0;
  for (const auto& s : plan->steps) {
    check(!s.tenant_id.empty());
    if (s.action == reconcile::RepairAction::adopt_orphan) {
      check(s.requested_quota_bytes && *s.requested_quota_bytes >= 1 &&
            *s.requested_quota_bytes <= static_cast<std::uint64_t>(INT64_MAX));
    }
    if (s.action == reconcile::RepairAction::purge_tenant) check(reconcile::url_unreserved(s.tenant_id));
  }
  auto back = reconcile::parse_plan_json(reconcile::plan_json(*plan), "written");
  // A reason or note that is not UTF-8 is written printable: compare what survives a round trip.
  check(back.ok() && back->steps.size() == plan->steps.size() && back->cluster == plan->cluster);
  if (back.ok()) {
    for (std::size_t i = 0; i < plan->steps.size(); ++i) {
      check(back->steps[i].tenant_id == plan->steps[i].tenant_id && back->steps[i].action == plan->steps[i].action &&
            back->steps[i].preconditions == plan->steps[i].preconditions);
    }
  }
  std::ostringstream out;
  report::render_plan(*plan, report::OutputFormat::text, out);
  check(!out.str().empty());
  return 0;
}

}  // namespace moonquota::fuzz
