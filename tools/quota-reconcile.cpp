// quota-reconcile: audit a live master's tenant quota charge against the table rebuilt from
// metadata; per-tenant verdicts, several report formats, and a drift history (--db).
#include <pthread.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <sstream>

#include "history/history_store.hpp"
#include "history/trend.hpp"
#include "rebuild_flags.hpp"
#include "reconcile/reconcile_run.hpp"
#include "report/reconcile/reconcile_history.hpp"
#include "report/reconcile/reconcile_prom.hpp"
#include "report/reconcile/reconcile_report.hpp"
#include "service/audit_service.hpp"
#include "service/duration.hpp"
#include "tool_common.hpp"

namespace mq = moonquota;
namespace tools = moonquota::tools;

namespace {

constexpr const char* k_tool = "quota-reconcile";

// How long SIGTERM/SIGINT waits for the audit in progress before giving up on it.
constexpr std::uint64_t k_stop_bound_ms = 10'000;

std::uint64_t now_ms() {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count());
}

// The live-side options, kept to check which were given (a flag that would be ignored is exit 2).
struct LiveOptions {
  CLI::Option* master = nullptr;
  CLI::Option* json = nullptr;
  CLI::Option* metrics = nullptr;
  CLI::Option* no_metrics = nullptr;
  CLI::Option* interval = nullptr;
  CLI::Option* retries = nullptr;
  CLI::Option* backoff = nullptr;
  CLI::Option* max_backoff = nullptr;
  CLI::Option* sampled_at = nullptr;
};

LiveOptions add_live_flags(CLI::App& app, mq::reconcile::LiveRequest& live) {
  LiveOptions o;
  o.master = tools::add_repeatable_option(app, "--master", live.master_urls,
                                          "Live master admin URL, http://HOST:PORT (metrics_port); repeat for the "
                                          "replicas of an HA cell: a standby's 503 moves on to the next");
  o.json = tools::add_repeatable_option(app, "--live-json", live.list_files,
                                        "Saved GET /api/v1/tenant_quotas body (repeatable: one sample each)");
  o.metrics =
      tools::add_repeatable_option(app, "--live-metrics", live.metrics_files, "Saved /metrics body (repeatable)");
  o.master->excludes(o.json)->excludes(o.metrics);
  // A callback, not a negated bool flag: CLI11 shows a bool's default as "--no-metrics{false}".
  o.no_metrics = app.add_flag_callback(
      "--no-metrics", [&live] { live.use_metrics = false; }, "Do not fetch /metrics (list only; --master only)");
  app.add_option("--samples", live.samples, "Samples to take (min = settled charge, max reported)")
      ->check(CLI::Range(1u, 1000u));
  o.interval = app.add_option("--interval-ms", live.interval_ms, "Pause between samples (ms; --master only)")
                   ->check(CLI::Range(0u, 3600000u));
  o.retries = app.add_option("--retries", live.retry.attempts,
                             "Attempts per request in all, on a transport failure or a 5xx answer (--master only)")
                  ->check(CLI::Range(1u, 100u));
  o.backoff = app.add_option("--retry-backoff-ms", live.retry.initial_backoff_ms,
                             "First backoff, doubled each retry (ms; --master only)")
                  ->check(CLI::Range(0u, 600000u));
  o.max_backoff = app.add_option("--retry-max-backoff-ms", live.retry.max_backoff_ms, "Backoff cap (ms; --master only)")
                      ->check(CLI::Range(0u, 600000u));
  o.sampled_at = app.add_option("--sampled-at", live.sampled_at_ms,
                                "Capture time of saved responses (ms since the epoch; not with --master)");
  return o;
}

// Flags that one kind of live source would silently ignore are usage errors (exit 2).
mq::util::Status check_live_flags(const LiveOptions& o) {
  using mq::util::Status;
  if (o.master->count() > 0 && o.sampled_at->count() > 0) {
    return Status::invalid_argument("--sampled-at applies to saved responses: --master samples are timed as taken");
  }
  const bool saved = o.json->count() > 0 || o.metrics->count() > 0;
  if (saved) {
    const std::string ignored = tools::first_given({o.no_metrics, o.interval, o.retries, o.backoff, o.max_backoff});
    if (!ignored.empty()) {
      return Status::invalid_argument(ignored +
                                      " applies to --master: saved responses (--live-json/--live-metrics) are read "
                                      "as given, without requests");
    }
  }
  return {};
}

// --model, and --restore-time, which implies the restore model (cli-contract.md).
mq::util::Result<mq::restore::ChargeModel> choose_model(const std::string& model, bool restore_time_given) {
  if (model == "live" && restore_time_given) {
    return mq::util::Status::invalid_argument(
        "--model live and --restore-time conflict: a running master erases nothing at a restore time (drop "
        "--restore-time, or use --model restore)");
  }
  if (model == "restore" || (model.empty() && restore_time_given)) return mq::restore::ChargeModel::restore;
  return mq::restore::ChargeModel::live;
}

struct HistoryFlags {
  std::string db;
  std::uint32_t persistence_runs = mq::history::k_default_persistence_runs;
};

int run_history(const tools::CommonFlags& common, const HistoryFlags& h, const std::optional<std::string>& tenant,
                const std::string& since, const std::string& model) {
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
  auto trends =
      mq::history::analyse_trends(*runs, h.persistence_runs, model.empty() ? mq::history::latest_model(*runs) : model);
  const auto format = mq::tools::output_format(common);
  auto written = tools::emit_report(common, [&](std::ostream& out) {
    mq::report::render_history(trends, tenant, format, out);
    return mq::util::Status{};
  });
  if (!written.ok()) return tools::fail(k_tool, written);
  return tools::k_exit_ok;
}

// With --format prom, a textfile that says the audit failed (exits 2-5), so alerts still fire.
void write_prom_failure(const tools::CommonFlags& common, int rc, const std::string& message,
                        const std::string& cluster) {
  if (common.format != "prom") return;
  std::ostringstream text;
  mq::report::render_reconcile_prom_failure(now_ms(), rc, message, cluster, text);
  (void)tools::emit_report(common, text.str());
}

// --cluster, else an explicitly given --cluster-id, else "default".
std::string cluster_label(const CLI::App& app, const std::string& cluster, const std::string& cluster_id) {
  if (!cluster.empty()) return cluster;
  const CLI::Option* id = app.get_option_no_throw("--cluster-id");
  if (id != nullptr && id->count() > 0 && !cluster_id.empty()) return cluster_id;
  return "default";
}

int report_failure(const tools::CommonFlags& common, const mq::util::Status& status, const std::string& cluster) {
  const int rc = tools::fail(k_tool, status);
  write_prom_failure(common, rc, status.message(), cluster);
  return rc;
}

// A command-line parse error (exit 2, already printed): the prom failure textfile is written
// when --format prom was parsed, to the --output path when that was parsed (stdout without
// --output; nothing when --output is there but its path was not taken).
void report_parse_failure(const CLI::App& app, int argc, char** argv, const std::string& message) {
  tools::CommonFlags target;
  target.format = tools::parsed_value(app, "--format").value_or("");
  auto output = tools::parsed_value(app, "--output");
  if (!output && tools::appears(argc, argv, "--output")) return;
  target.output = output.value_or("");
  const std::string cluster = tools::parsed_value(app, "--cluster").value_or("");
  write_prom_failure(target, tools::k_exit_usage, message,
                     cluster_label(app, cluster, tools::parsed_value(app, "--cluster-id").value_or("")));
}

// Options of the audit given with the history subcommand (which has its own flags): exit 2.
mq::util::Status check_history_alone(const CLI::App& app) {
  for (const CLI::Option* option : app.get_options()) {
    if (option->count() > 0) {
      return mq::util::Status::invalid_argument(
          option->get_name() + " is a flag of the audit, not of 'history': give history's own flags after it (" +
          std::string(k_tool) + " history --db DIR [--tenant ID] [--since AGE] [--format F])");
    }
  }
  return {};
}

struct ServeFlags {
  std::string listen = "127.0.0.1:9464";
  std::string every = "5m";
};

// The one-shot's report flags mean nothing to serve, which serves every format: exit 2.
mq::util::Status check_serve_flags(const CLI::App& app) {
  for (const char* name : {"--format", "--output", "--color"}) {
    if (app.get_option(name)->count() > 0) {
      return mq::util::Status::invalid_argument(
          std::string(name) +
          " applies to the one-shot audit: serve answers /metrics (prom), /report (html) and "
          "/report.json (json) over HTTP");
    }
  }
  return {};
}

void log_line(mq::service::LogLevel level, const std::string& message) {
  switch (level) {
    case mq::service::LogLevel::debug: spdlog::debug("{}", message); return;
    case mq::service::LogLevel::info: spdlog::info("{}", message); return;
    case mq::service::LogLevel::warn: spdlog::warn("{}", message); return;
    case mq::service::LogLevel::error: spdlog::error("{}", message); return;
  }
}

// quota-reconcile serve: bind, audit in the background, and wait for SIGTERM or SIGINT.
int run_serve(const ServeFlags& flags, mq::service::ServeConfig config,
              std::unique_ptr<mq::source::ObjectStore> store) {
  auto every = mq::service::parse_duration_ms(flags.every, "--every");
  if (!every.ok()) return tools::fail(k_tool, every.status());
  auto listen = mq::service::parse_listen_address(flags.listen, "--listen");
  if (!listen.ok()) return tools::fail(k_tool, listen.status());
  config.interval_ms = *every;
  config.listen = *listen;
  const tools::BuildInfo build = tools::build_info();
  config.build = {build.version, build.git_describe, build.upstream_commit};
  config.audit.exit_code_for = [](const mq::util::Status& status) { return tools::exit_code_for(status); };
  config.log = log_line;
  // Every thread started from here on inherits the mask: the signals wait for sigwait below.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  std::signal(SIGPIPE, SIG_IGN);  // a scraper that hangs up mid-answer is its own problem

  auto service = mq::service::AuditService::start(std::move(config), std::move(store));
  if (!service.ok()) return tools::fail(k_tool, service.status());
  std::cerr << "listening on " << (*service)->url() << std::endl;
  spdlog::info("listening on {}", (*service)->url());
  (*service)->begin_audits();

  int signal_number = 0;
  while (sigwait(&stop_signals, &signal_number) != 0) {}
  spdlog::info("{}: no new audit; waiting up to {} for the one in progress", strsignal(signal_number),
               mq::service::duration_text(k_stop_bound_ms));
  if (!(*service)->stop(k_stop_bound_ms)) {
    spdlog::default_logger()->flush();
    std::_Exit(tools::k_exit_ok);
  }
  spdlog::info("stopped");
  return tools::k_exit_ok;
}

int run(int argc, char** argv) {
  CLI::App app{"Audit a live Mooncake master's tenant quota charge against the table rebuilt from metadata"};
  tools::setup_app(app, k_tool, "a tenant drifts (live charge outside --tolerance-bytes of the rebuilt table)",
                   std::string(k_tool) +
                       " --store STORE --policy policy.yaml --master http://127.0.0.1:9003 --samples 3 --format json");
  app.require_subcommand(0, 1);
  tools::CommonFlags common;
  tools::RebuildFlags metadata;
  mq::reconcile::ReconcileRequest request;
  HistoryFlags history;
  std::string colour = "auto";
  tools::add_rebuild_flags(app, metadata);
  std::string model;
  app.add_option("--model", model,
                 "Expected side: live (what a running master holds for the metadata; the default) | restore (what a "
                 "restore at --restore-time rebuilds; implied by --restore-time)")
      ->check(CLI::IsMember({"live", "restore"}));
  const LiveOptions live_options = add_live_flags(app, request.live);
  app.add_option("--tolerance-bytes", request.tolerance_bytes, "Largest |delta| still in balance");
  std::string fail_on = "delta";
  app.add_option("--fail-on", fail_on,
                 "Exit 1 on: delta (any tenant outside tolerance: the contract) | unexplained (only a remainder the "
                 "metadata's causes do not explain, a flags mismatch or a missing tenant)")
      ->check(CLI::IsMember({"delta", "unexplained"}));
  app.add_option("--db", history.db, "History store (RocksDB directory): record this run, report trends");
  auto* persistence = app.add_option("--persistence-runs", history.persistence_runs,
                                     "Consecutive same-sign runs outside tolerance that make a drift persistent")
                          ->check(CLI::Range(1u, 1000u));
  auto* colour_opt = app.add_option("--color", colour,
                                    "Colour the text report: auto (on a TTY, unless NO_COLOR is set), always, never")
                         ->check(CLI::IsMember({"auto", "always", "never"}));
  std::string cluster;
  app.add_option("--cluster", cluster,
                 "The cluster label of every Prometheus series (prom, serve) (default: --cluster-id when given, "
                 "else default)")
      ->check([](const std::string& v) { return v.empty() ? std::string("must not be empty") : std::string(); });
  tools::add_common_flags(app, common, {"text", "json", "markdown", "prom", "html"});

  // serve takes every audit flag above (given before or after it) and its own two.
  auto* serve = app.add_subcommand("serve",
                                   "Audit continuously: at start, every --every and on a new latest snapshot; serve "
                                   "/metrics /healthz /report /report.json /history over HTTP until SIGTERM");
  serve->fallthrough(true);
  ServeFlags serve_flags;
  serve->add_option("--listen", serve_flags.listen,
                    "HOST:PORT to serve on (loopback by default; 0.0.0.0:9464 exposes it; port 0 picks a free one, "
                    "logged as 'listening on http://HOST:PORT', the first line on stderr)");
  serve->add_option("--every", serve_flags.every, "Interval between audits: a number and ms, s, m or h (30s, 5m)");
  serve->footer(
      "Every flag of the audit (quota-reconcile --help) applies too, given before or after 'serve', except --format, "
      "--output and --color.\n\nExit codes:\n  0  stopped by SIGTERM or SIGINT (failed audits are metrics, never the "
      "exit code)\n  2  usage error\n  4  --listen cannot be bound\nExample:\n  quota-reconcile serve --store STORE "
      "--policy policy.yaml --master http://127.0.0.1:9003 --db DIR --cluster cell-a --every 5m");

  auto* hist = app.add_subcommand("history", "Show the recorded drift trend (needs --db)");
  tools::CommonFlags hist_common;
  HistoryFlags hist_flags;
  std::string tenant;
  std::string since;
  hist->add_option("--db", hist_flags.db, "History store directory")->required();
  hist->add_option("--tenant", tenant, "Only this tenant, one row per run");
  hist->add_option("--since", since, "Runs at or after: ms since the epoch, or an age like 24h, 7d");
  std::string hist_model;
  hist->add_option("--model", hist_model, "Runs of this model: live | restore (default: the model of the newest run)")
      ->check(CLI::IsMember({"live", "restore"}));
  hist->add_option("--persistence-runs", hist_flags.persistence_runs, "Consecutive runs for persistent")
      ->check(CLI::Range(1u, 1000u));
  tools::add_common_flags(*hist, hist_common, {"text", "json", "html"});

  std::string parse_error;
  if (int rc = tools::parse_command_line(app, argc, argv, &parse_error); rc >= 0) {
    if (rc == tools::k_exit_usage) report_parse_failure(app, argc, argv, parse_error);
    return rc;
  }
  if (hist->parsed()) {
    if (auto s = check_history_alone(app); !s.ok()) return tools::fail(k_tool, s);
    tools::setup_logging(hist_common);
    return run_history(hist_common, hist_flags, tenant.empty() ? std::nullopt : std::optional(tenant), since,
                       hist_model);
  }
  const std::string cluster_name = cluster_label(app, cluster, metadata.request.selection.cluster_id);
  const auto fail_run = [&](const mq::util::Status& status) { return report_failure(common, status, cluster_name); };
  if (serve->parsed()) {
    if (auto s = check_serve_flags(app); !s.ok()) return tools::fail(k_tool, s);
    // A service logs each audit: info by default (-q: warnings and errors only).
    tools::CommonFlags serve_logging = common;
    ++serve_logging.verbosity;
    tools::setup_logging(serve_logging);
  } else {
    tools::setup_logging(common);
  }
  if (auto s = tools::finish_rebuild_flags(metadata, common.threads); !s.ok()) return fail_run(s);
  if (auto s = check_live_flags(live_options); !s.ok()) return fail_run(s);
  if (persistence->count() > 0 && history.db.empty()) {
    return fail_run(mq::util::Status::invalid_argument(
        "--persistence-runs applies to the trend of --db: give --db DIR or drop it"));
  }
  if (colour_opt->count() > 0 && common.format != "text") {
    return fail_run(mq::util::Status::invalid_argument("--color applies to --format text only"));
  }
  auto charge_model = choose_model(model, app.get_option("--restore-time")->count() > 0);
  if (!charge_model.ok()) return fail_run(charge_model.status());
  metadata.request.restore.charge_model = *charge_model;
  // The live model has no lease filter: keeping leases means nothing there (docs/accounting.md).
  if (*charge_model == mq::restore::ChargeModel::live &&
      metadata.request.restore.lease_model == mq::restore::LeaseModel::keep) {
    return fail_run(mq::util::Status::invalid_argument(
        "--model live and --lease-model keep conflict: the live model (the default "
        "without --restore-time) applies no lease filter (use --model restore, or drop "
        "--lease-model keep)"));
  }
  request.metadata = metadata.request;
  request.live.timeouts = {metadata.net.connect_timeout_ms, metadata.net.read_timeout_ms};
  request.live.log = metadata.net.log;
  if (serve->parsed()) {
    mq::service::ServeConfig config;
    config.audit.request = request;
    config.audit.db = history.db;
    config.audit.persistence_runs = history.persistence_runs;
    config.audit.fail_on_unexplained = fail_on == "unexplained";
    config.cluster = cluster_name;
    return run_serve(serve_flags, std::move(config), tools::open_selected_store(metadata));
  }

  const auto store = tools::open_selected_store(metadata);
  auto result = mq::reconcile::run_reconcile(*store, request);
  if (!result.ok()) return fail_run(result.status());
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
  const bool found = fail_on == "unexplained" ? report.unexplained_drift() : report.drift();
  int rc = found ? tools::k_exit_found : tools::k_exit_ok;
  if (!history_failure.ok()) rc = tools::exit_code_for(history_failure);
  mq::report::ReconcileRenderOptions options;
  options.text.colour = colour == "always" || (colour == "auto" && common.output.empty() && isatty(1) == 1 &&
                                               tools::colour_allowed_by_environment());
  options.run_at_ms = run_at_ms;
  options.exit_code = rc;
  options.cluster = cluster_name;
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
