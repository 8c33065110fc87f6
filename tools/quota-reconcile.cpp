// quota-reconcile: audit a live master's tenant quota charge against the table rebuilt from
// metadata; per-tenant verdicts, several report formats, and a drift history (--db).
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <iostream>
#include <sstream>

#include "app/audit_command.hpp"
#include "app/doctor_command.hpp"
#include "app/history_command.hpp"
#include "app/plan_command.hpp"
#include "reconcile_flags.hpp"
#include "reconcile_serve.hpp"
#include "report/reconcile/doctor_report.hpp"
#include "report/reconcile/plan_report.hpp"
#include "report/reconcile/reconcile_history.hpp"
#include "report/reconcile/reconcile_prom.hpp"
#include "report/reconcile/reconcile_report.hpp"
#include "service/duration.hpp"
#include "tool_common.hpp"
#include "util/elapsed.hpp"
#include "util/text_encoding.hpp"

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

int run_plan(const tools::ReconcileFlags& f, const std::string& cluster) {
  mq::app::PlanArgs args;
  args.audit = f.audit;
  args.adopt = f.adopt;
  args.adopt_policy = f.adopt_policy;
  args.retire_empty = f.retire_empty;
  args.allow_purge = f.allow_purge;
  args.cluster = cluster;
  auto outcome = mq::app::run_plan(args);
  if (!outcome.ok()) return tools::fail(k_tool, outcome.status());
  // With --output the plan file is the JSON a reviewer passes to apply; its text goes to stdout.
  auto written = tools::emit_report(f.common, [&](std::ostream& out) {
    const auto format = f.common.output.empty() ? tools::output_format(f.common) : mq::report::OutputFormat::json;
    mq::report::render_plan(outcome->plan, format, out);
    return mq::util::Status{};
  });
  if (!written.ok()) return tools::fail(k_tool, written);
  if (!f.common.output.empty() && f.common.verbosity >= 0) {
    mq::report::render_plan(outcome->plan, mq::report::OutputFormat::text, std::cout);
    std::cout << "written:   " << f.common.output << " (review it, then: quota-reconcile apply " << f.common.output
              << " --master URL --cluster " << cluster << ")\n";
  }
  return outcome->exit_code;
}

// Asks on the terminal (stdin): y or yes sends the step; anything else, or end of input, does not.
bool confirm_on_terminal(const mq::app::StepResult& s) {
  std::cout << "step " << s.index + 1 << ": " << mq::reconcile::repair_action_name(s.step.action) << " '"
            << mq::util::printable(s.step.tenant_id) << "': " << mq::util::printable(s.request) << "\nsend it? [y/N] "
            << std::flush;
  std::string answer;
  if (!std::getline(std::cin, answer)) return false;
  return answer == "y" || answer == "Y" || answer == "yes";
}

void print_step(const mq::app::StepResult& s) {
  const auto row = mq::report::tenant_row_text;
  std::cout << "step " << s.index + 1 << " " << mq::reconcile::repair_action_name(s.step.action) << " '"
            << mq::util::printable(s.step.tenant_id) << "': " << s.outcome << ": " << mq::util::printable(s.detail)
            << "\n";
  if (!s.request.empty() && s.outcome != "skipped")
    std::cout << "  request: " << mq::util::printable(s.request) << "\n";
  if (s.before) std::cout << "  before:  " << row(s.before) << "\n";
  if (s.outcome == "applied") std::cout << "  after:   " << row(s.after) << "\n";
}

int run_apply(tools::ReconcileFlags& f) {
  auto age = mq::service::parse_duration_ms(f.apply_max_age, "--max-age");
  if (!age.ok()) return tools::fail(k_tool, age.status());
  f.apply_args.max_age_ms = *age;
  f.apply_args.net_log = tools::net_log();
  auto report = mq::app::run_apply(f.apply_args, confirm_on_terminal, print_step, mq::util::epoch_ms_now());
  if (!report.ok()) return tools::fail(k_tool, report.status());
  std::cout << (report->stopped.empty() ? "done" : "stopped at " + mq::util::printable(report->stopped)) << ": "
            << report->steps.size() << " of " << report->plan.steps.size() << " steps taken\n";
  if (!report->stopped.empty()) return tools::fail(k_tool, report->exit_code, report->stopped);
  return report->exit_code;
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
  if (f.apply->parsed()) {
    if (auto s = tools::check_reconcile_subcommand_flags(app, f); !s.ok()) return tools::fail(k_tool, s);
    tools::setup_logging(f.apply_common);
    return run_apply(f);
  }
  if (f.plan->parsed()) {
    if (auto s = tools::check_reconcile_subcommand_flags(app, f); !s.ok()) return tools::fail(k_tool, s);
    tools::setup_logging(f.common);
    f.audit.metadata.threads = f.common.threads;
    return run_plan(f, cluster);
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
