// quota-reconcile: audit a live master's tenant quota charge against the table rebuilt from
// metadata; per-tenant verdicts, several report formats, and a drift history (--db).
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <sstream>

#include "app/audit_command.hpp"
#include "app/doctor_command.hpp"
#include "app/history_command.hpp"
#include "reconcile_flags.hpp"
#include "reconcile_serve.hpp"
#include "report/reconcile/doctor_report.hpp"
#include "report/reconcile/reconcile_history.hpp"
#include "report/reconcile/reconcile_prom.hpp"
#include "report/reconcile/reconcile_report.hpp"
#include "tool_common.hpp"
#include "util/elapsed.hpp"

namespace mq = moonquota;
namespace tools = moonquota::tools;

namespace {

constexpr const char* k_tool = "quota-reconcile";

// With --format prom, a textfile that says the audit failed (exits 2-5), so alerts still fire.
tools::FailureReport prom_failure(const std::string& cluster) {
  return [cluster](int rc, const std::string& message) {
    std::ostringstream text;
    mq::report::render_reconcile_prom_failure(mq::util::epoch_ms_now(), rc, message, cluster, text);
    return text.str();
  };
}

int run_doctor(const tools::ReconcileFlags& f) {
  auto report = mq::app::run_doctor(f.audit);
  if (!report.ok()) return tools::fail(k_tool, report.status());
  auto written = tools::emit_report(f.common, [&](std::ostream& out) {
    mq::report::render_doctor(*report, tools::output_format(f.common), out);
    return mq::util::Status{};
  });
  if (!written.ok()) return tools::fail(k_tool, written);
  return report->exit_code();
}

int run_history(const tools::ReconcileFlags& f) {
  auto trends = mq::app::run_history_command(f.history_args, mq::util::epoch_ms_now());
  if (!trends.ok()) return tools::fail(k_tool, trends.status());
  auto written = tools::emit_report(f.history_common, [&](std::ostream& out) {
    mq::report::render_history(*trends, f.history_tenant, tools::output_format(f.history_common), out);
    return mq::util::Status{};
  });
  if (!written.ok()) return tools::fail(k_tool, written);
  return tools::k_exit_ok;
}

int run_once(const tools::ReconcileFlags& f, const mq::app::AuditPlan& plan, const std::string& cluster) {
  const auto store = mq::app::open_selected_store(plan.store);
  const mq::app::RunOutcome outcome = mq::app::run_audit(*store, plan.config);
  // A history store that cannot be written does not discard the comparison: the report is
  // printed (without trends), then the run fails on the history write with its own message.
  if (!outcome.audit)
    return tools::fail_with_report(k_tool, f.common, outcome.exit_code, outcome.error, prom_failure(cluster));
  const auto& audit = *outcome.audit;
  mq::report::ReconcileRenderOptions options;
  options.text.colour = f.colour == "always" || (f.colour == "auto" && f.common.output.empty() && isatty(1) == 1 &&
                                                 tools::colour_allowed_by_environment());
  options.run_at_ms = audit.run_at_ms;
  options.exit_code = outcome.exit_code;
  options.cluster = cluster;
  auto written = tools::emit_report(f.common, [&](std::ostream& out) {
    mq::report::render_reconcile(audit.report, audit.trends ? &*audit.trends : nullptr, tools::output_format(f.common),
                                 options, out);
    return mq::util::Status{};
  });
  if (!written.ok()) return tools::fail(k_tool, written);
  if (audit.report.drift())
    spdlog::warn("{} of {} tenants drift", audit.report.counts.drift, audit.report.counts.tenants);
  if (outcome.result == mq::app::RunResult::error) return tools::fail(k_tool, outcome.exit_code, outcome.error);
  return outcome.exit_code;
}

int run(int argc, char** argv) {
  CLI::App app{"Audit a live Mooncake master's tenant quota charge against the table rebuilt from metadata"};
  tools::setup_app(app, k_tool,
                   {"a tenant drifts (live charge outside --tolerance-bytes of the rebuilt table)",
                    "a store, snapshot, OpLog, policy, live answer or saved response", "the master, S3, etcd or Redis"},
                   std::string(k_tool) +
                       " --store snapshots/genuine-live/r1_quiescent_orphan/store --policy "
                       "snapshots/genuine-live/r1_quiescent_orphan/policy.yaml "
                       "--live-json snapshots/genuine-live/r1_quiescent_orphan/api_list.json --live-metrics "
                       "snapshots/genuine-live/r1_quiescent_orphan/metrics.txt --sampled-at 1795956295488");
  tools::ReconcileFlags f;
  tools::add_reconcile_flags(app, f);
  std::string parse_error;
  if (int rc = tools::parse_command_line(app, argc, argv, &parse_error); rc >= 0) {
    if (rc == tools::k_exit_usage) {
      tools::report_parse_failure(app, argc, argv, parse_error, prom_failure(tools::cluster_label(app)));
    }
    return rc;
  }
  const std::string cluster = tools::cluster_label(app);
  if (f.history->parsed()) {
    if (auto s = tools::check_reconcile_subcommand_flags(app, f); !s.ok()) return tools::fail(k_tool, s);
    tools::setup_logging(f.history_common);
    return run_history(f);
  }
  if (f.doctor->parsed()) {  // writes no textfile: its usage errors are one line on stderr
    if (auto s = tools::check_reconcile_subcommand_flags(app, f); !s.ok()) return tools::fail(k_tool, s);
    tools::setup_logging(f.common);
    f.audit.metadata.threads = f.common.threads;
    return run_doctor(f);
  }
  // A service logs each audit: info by default (-q: warnings and errors only).
  tools::CommonFlags logging = f.common;
  if (f.serve->parsed()) ++logging.verbosity;
  tools::setup_logging(logging);
  const auto fail_run = [&](const mq::util::Status& status) {
    // serve writes no report: its failures before the first audit are one line on stderr.
    if (f.serve->parsed()) return tools::fail(k_tool, status);
    return tools::fail_with_report(k_tool, f.common, status, prom_failure(cluster));
  };
  if (auto s = tools::check_reconcile_subcommand_flags(app, f); !s.ok()) return fail_run(s);
  f.audit.metadata.threads = f.common.threads;
  f.audit.service = f.serve->parsed();
  // A service's per-request attempt lines are debug (-v): at info it logs one line per audit.
  if (f.audit.service) f.audit.metadata.net_log = tools::net_log(true);
  auto plan = mq::app::plan_audit(f.audit);
  if (!plan.ok()) return fail_run(plan.status());
  if (f.serve->parsed()) return tools::run_serve(f.serve_flags, f.audit.metadata, std::move(*plan), cluster);
  return run_once(f, *plan, cluster);
}

}  // namespace

int main(int argc, char** argv) { return tools::run_guarded(k_tool, argc, argv, run); }
