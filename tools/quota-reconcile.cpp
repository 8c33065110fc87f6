// quota-reconcile: audit a live master's tenant quota charge against the table rebuilt from
// metadata; per-tenant verdicts, several report formats, and a drift history (--db).
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <chrono>
#include <sstream>

#include "history/history_store.hpp"
#include "history/trend.hpp"
#include "rebuild_flags.hpp"
#include "reconcile/reconcile_run.hpp"
#include "report/reconcile_history.hpp"
#include "report/reconcile_prom.hpp"
#include "report/reconcile_report.hpp"
#include "tool_common.hpp"

namespace mq = moonquota;
namespace tools = moonquota::tools;

namespace {

constexpr const char* k_tool = "quota-reconcile";

std::uint64_t now_ms() {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count());
}

// The metadata flags, exactly quota-rebuild's (same names, defaults and checks), filling a
void add_live_flags(CLI::App& app, mq::reconcile::LiveRequest& live) {
  auto* master = app.add_option("--master", live.master_urls,
                                "Live master admin URL, http://HOST:PORT (metrics_port); repeat for the replicas of "
                                "an HA cell: a standby's 503 moves on to the next");
  auto* json = app.add_option("--live-json", live.list_files,
                              "Saved GET /api/v1/tenant_quotas body (repeatable: one sample each)");
  auto* metrics = app.add_option("--live-metrics", live.metrics_files, "Saved /metrics body (repeatable)");
  master->excludes(json)->excludes(metrics);
  // A callback, not a negated bool flag: CLI11 shows a bool's default as "--no-metrics{false}".
  app.add_flag_callback(
      "--no-metrics", [&live] { live.use_metrics = false; }, "Do not fetch /metrics (list only)");
  app.add_option("--samples", live.samples, "Samples to take (min = settled charge, max reported)")
      ->check(CLI::Range(1u, 1000u));
  app.add_option("--interval-ms", live.interval_ms, "Pause between samples (ms, default 1000)")
      ->check(CLI::Range(0u, 3600000u));
  app.add_option("--retries", live.retry.attempts,
                 "Attempts per request in all, on a transport failure or a 5xx answer (default 4)")
      ->check(CLI::Range(1u, 100u));
  app.add_option("--retry-backoff-ms", live.retry.initial_backoff_ms, "First backoff, doubled each retry (default 250)")
      ->check(CLI::Range(0u, 600000u));
  app.add_option("--retry-max-backoff-ms", live.retry.max_backoff_ms, "Backoff cap (default 4000)")
      ->check(CLI::Range(0u, 600000u));
  app.add_option("--sampled-at", live.sampled_at_ms, "Capture time of saved responses (ms since the epoch)");
}

struct HistoryFlags {
  std::string db;
  std::uint32_t persistence_runs = mq::history::k_default_persistence_runs;
};

int run_history(const tools::CommonFlags& common, const HistoryFlags& h, const std::optional<std::string>& tenant,
                const std::string& since) {
  std::uint64_t since_ms = 0;
  if (!since.empty()) {
    auto parsed = mq::history::parse_since(since, now_ms());
    if (!parsed.ok()) return tools::fail(k_tool, parsed.status());
    since_ms = *parsed;
  }
  auto store = mq::history::HistoryStore::open_existing(h.db);
  if (!store.ok()) return tools::fail(k_tool, store.status());
  auto runs = (*store)->runs(since_ms);
  if (!runs.ok()) return tools::fail(k_tool, runs.status());
  auto trends = mq::history::analyse_trends(*runs, h.persistence_runs);
  const auto format = mq::tools::output_format(common);
  auto written = tools::emit_report(common, [&](std::ostream& out) {
    mq::report::render_history(trends, tenant, format, out);
    return mq::util::Status{};
  });
  if (!written.ok()) return tools::fail(k_tool, written);
  return tools::k_exit_ok;
}

int report_failure(const tools::CommonFlags& common, const mq::util::Status& status) {
  const int rc = tools::fail(k_tool, status);
  if (common.format == "prom") {  // a textfile that says the audit failed, so alerts still fire
    std::ostringstream text;
    mq::report::render_reconcile_prom_failure(now_ms(), rc, status.message(), text);
    (void)tools::emit_report(common, text.str());
  }
  return rc;
}

int run(int argc, char** argv) {
  CLI::App app{"Audit a live Mooncake master's tenant quota charge against the table rebuilt from metadata"};
  app.name(k_tool);
  app.require_subcommand(0, 1);
  tools::CommonFlags common;
  tools::RebuildFlags metadata;
  mq::reconcile::ReconcileRequest request;
  HistoryFlags history;
  std::string colour = "auto";
  tools::add_rebuild_flags(app, metadata);
  add_live_flags(app, request.live);
  app.add_option("--tolerance-bytes", request.tolerance_bytes, "Largest |delta| still in balance (default 0)");
  app.add_option("--db", history.db, "History store (RocksDB directory): record this run, report trends");
  app.add_option("--persistence-runs", history.persistence_runs,
                 "Consecutive same-sign runs outside tolerance that make a drift persistent (default 3)")
      ->check(CLI::Range(1u, 1000u));
  app.add_option("--color", colour, "Colour the text report: auto (on a TTY), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  tools::add_common_flags(app, common, {"text", "json", "markdown", "prom", "html"});

  auto* hist = app.add_subcommand("history", "Show the recorded drift trend (needs --db)");
  tools::CommonFlags hist_common;
  HistoryFlags hist_flags;
  std::string tenant;
  std::string since;
  hist->add_option("--db", hist_flags.db, "History store directory")->required();
  hist->add_option("--tenant", tenant, "Only this tenant, one row per run");
  hist->add_option("--since", since, "Runs at or after: ms since the epoch, or an age like 24h, 7d");
  hist->add_option("--persistence-runs", hist_flags.persistence_runs, "Consecutive runs for persistent (default 3)")
      ->check(CLI::Range(1u, 1000u));
  tools::add_common_flags(*hist, hist_common, {"text", "json", "html"});

  if (int rc = tools::parse_command_line(app, argc, argv); rc >= 0) return rc;
  if (hist->parsed()) {
    tools::setup_logging(hist_common);
    return run_history(hist_common, hist_flags, tenant.empty() ? std::nullopt : std::optional(tenant), since);
  }
  tools::setup_logging(common);
  if (auto s = tools::finish_rebuild_flags(metadata, common.threads); !s.ok()) return tools::fail(k_tool, s);
  request.metadata = metadata.request;
  request.live.timeouts = {metadata.net.connect_timeout_ms, metadata.net.read_timeout_ms};
  request.live.log = metadata.net.log;

  auto result = mq::reconcile::run_reconcile(request);
  if (!result.ok()) return report_failure(common, result.status());
  const auto& report = *result;
  std::optional<mq::history::TrendTable> trends;
  const std::uint64_t run_at_ms = report.live.first_sample_ms.value_or(now_ms());
  // A history store that cannot be opened or written does not discard the comparison: the report
  // is printed (without trends), then the run fails on the history write with its own message.
  mq::util::Status history_failure;
  if (!history.db.empty()) {
    auto analysed = mq::history::record_and_analyse(history.db, mq::history::make_run_record(report, run_at_ms),
                                                    history.persistence_runs);
    if (analysed.ok()) {
      trends = std::move(*analysed);
    } else {
      history_failure = analysed.status().with_context("--db: this run was not recorded");
    }
  }
  const auto* trend_table = trends ? &*trends : nullptr;
  int rc = report.drift() ? tools::k_exit_found : tools::k_exit_ok;
  if (!history_failure.ok()) rc = tools::exit_code_for(history_failure);
  mq::report::ReconcileRenderOptions options;
  options.text.colour = colour == "always" || (colour == "auto" && common.output.empty() && isatty(1) == 1);
  options.run_at_ms = run_at_ms;
  options.exit_code = rc;
  const auto format = mq::tools::output_format(common);
  auto written = tools::emit_report(common, [&](std::ostream& out) {
    mq::report::render_reconcile(report, trend_table, format, options, out);
    return mq::util::Status{};
  });
  if (!written.ok()) return tools::fail(k_tool, written);
  if (report.drift()) spdlog::warn("{} of {} tenants drift", report.counts.drift, report.counts.tenants);
  if (!history_failure.ok()) return tools::fail(k_tool, history_failure);
  return rc;
}

}  // namespace

int main(int argc, char** argv) {
  // The library returns errors as values; an exception reaching here is a bug: exit 5, not abort.
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    return tools::fail(k_tool, mq::util::Status::internal(std::string("unexpected exception: ") + e.what()));
  }
}
