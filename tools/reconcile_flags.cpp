#include "reconcile_flags.hpp"

#include "store_flags.hpp"

namespace moonquota::tools {

namespace {

constexpr const char* k_serve_footer =
    "Every flag of the audit (quota-reconcile --help) applies too, given before or after 'serve', except --format, "
    "--output and --color.\n\nExit codes:\n  0  stopped by SIGTERM or SIGINT (failed audits are metrics, never the "
    "exit code)\n  2  usage error (a configuration that cannot audit is refused before it listens)\n  4  --listen "
    "cannot be bound\nExample:\n  quota-reconcile serve --store snapshots/live-audit/store --policy "
    "snapshots/live-audit/policy.yaml --master http://127.0.0.1:9003 --cluster cell-a --every 5m --listen "
    "127.0.0.1:9464";

constexpr const char* k_doctor_footer =
    "Every flag of the audit (quota-reconcile --help) applies too, given before or after 'doctor': each dependency "
    "it names is tried (the store and its cluster ids and snapshots, the catalog, each --master, --policy-etcd, "
    "--oplog-etcd). --format text or json.\n\nExit codes:\n  0  every check passed\n  2  usage error\n  3  a "
    "store, cluster or snapshot is missing or unreadable\n  4  a master, S3, etcd or Redis could not be used\n"
    "Example:\n  quota-reconcile doctor --store snapshots/live-audit/store --cluster-id mooncake_cluster";

constexpr const char* k_history_footer =
    "Exit codes:\n  0  success\n  2  usage error\n  3  no history store at --db, or one that cannot be read\n"
    "Example:\n  quota-reconcile --store snapshots/genuine-live/r1_quiescent_orphan/store --policy "
    "snapshots/genuine-live/r1_quiescent_orphan/policy.yaml --live-json "
    "snapshots/genuine-live/r1_quiescent_orphan/api_list.json --db /tmp/moonquota-history >/dev/null; "
    "quota-reconcile history --db /tmp/moonquota-history";

void add_live_flags(CLI::App& app, app::LiveArgs& live) {
  add_repeatable_option(app, "--master", live.master,
                        "Live master admin URL, http://HOST:PORT (metrics_port); repeat for the replicas of an HA "
                        "cell: a standby's 503 moves on to the next")
      ->type_name("URL");
  add_repeatable_option(app, "--live-json", live.live_json,
                        "Saved GET /api/v1/tenant_quotas body (repeatable: one sample each; excludes --master)");
  add_repeatable_option(app, "--live-metrics", live.live_metrics, "Saved /metrics body (repeatable)");
  app.add_flag("--no-metrics", live.no_metrics, "Do not fetch /metrics (list only; --master only)")->default_str("");
  app.add_option("--samples", live.samples, "Samples to take (min = settled charge, max reported)")
      ->check(CLI::Range(1u, 1000u));
  app.add_option("--interval-ms", live.interval_ms, "Pause between samples (ms; --master only; default 1000)")
      ->check(CLI::Range(0u, 3600000u));
  app.add_option("--retries", live.retries,
                 "Attempts per request in all, on a transport failure or a 5xx answer (--master only; default 4)")
      ->check(CLI::Range(1u, 100u));
  app.add_option("--retry-backoff-ms", live.retry_backoff_ms,
                 "First backoff, doubled each retry (ms; --master only; default 250)")
      ->check(CLI::Range(0u, 600000u));
  app.add_option("--retry-max-backoff-ms", live.retry_max_backoff_ms, "Backoff cap (ms; --master only; default 4000)")
      ->check(CLI::Range(0u, 600000u));
  app.add_option("--sampled-at", live.sampled_at_ms,
                 "Capture time of saved responses (ms since the epoch; not with --master)")
      ->transform(epoch_ms_check());
  app.add_option("--max-tenants", live.max_tenants,
                 "Most distinct tenants one live answer may hold; more is exit 3 (a bound on memory; default "
                 "100000, a real master serves thousands)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{100'000'000}));
}

void add_history_subcommand(CLI::App& app, ReconcileFlags& f) {
  f.history = app.add_subcommand("history", "Show the recorded drift trend (needs --db)");
  auto& h = f.history_args;
  f.history->add_option("--db", h.db, "History store directory")->required();
  f.history->add_option("--tenant", f.history_tenant, "Only this tenant, one row per run");
  f.history->add_option("--since", h.since, "Runs at or after: ms since the epoch, or an age like 24h, 7d");
  f.history
      ->add_option("--model", h.model,
                   "Runs of this model: live | restore | promote (default: the model of the newest run)")
      ->check(CLI::IsMember({"live", "restore", "promote"}));
  f.history->add_option("--persistence-runs", h.persistence_runs, "Consecutive runs for persistent")
      ->check(CLI::Range(1u, 1000u));
  add_common_flags(*f.history, f.history_common, {"text", "json", "html"});
  f.history->footer(k_history_footer);
}

}  // namespace

void add_reconcile_flags(CLI::App& app, ReconcileFlags& f) {
  app.require_subcommand(0, 1);
  auto& a = f.audit;
  add_rebuild_flags(app, a.metadata);
  app.add_option(
         "--model", a.model,
         "Expected side: live (what a running master holds for the metadata; the default) | restore (what a "
         "restore at --restore-time rebuilds; implied by --restore-time) | promote (what a standby bootstrapped at "
         "--restore-time that replayed the OpLog would serve once promoted; needs --oplog-etcd or --oplog-file)")
      ->check(CLI::IsMember({"live", "restore", "promote"}));
  add_live_flags(app, a.live);
  app.add_option("--tolerance-bytes", a.tolerance_bytes, "Largest |delta| still in balance");
  app.add_option("--fail-on", a.fail_on,
                 "Exit 1 on: delta (any tenant outside tolerance: the contract) | unexplained (only a remainder the "
                 "metadata's causes do not explain, a flags mismatch or a missing tenant)")
      ->check(CLI::IsMember({"delta", "unexplained"}));
  app.add_option("--db", a.db, "History store (RocksDB directory): record this run, report trends");
  app.add_option("--persistence-runs", a.persistence_runs,
                 "Consecutive same-sign runs outside tolerance that make a drift persistent (default 3; needs --db)")
      ->check(CLI::Range(1u, 1000u));
  app.add_option("--color", f.colour, "Colour the text report: auto (on a TTY, unless NO_COLOR is set), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  app.add_option("--cluster", f.cluster,
                 "The cluster label of every Prometheus series (prom, serve) (default: --cluster-id when given, "
                 "else default)")
      ->check([](const std::string& v) { return v.empty() ? std::string("must not be empty") : std::string(); });
  add_common_flags(app, f.common, {"text", "json", "markdown", "prom", "html"});
  // serve takes every audit flag above (given before or after it) and its own two.
  f.serve = app.add_subcommand("serve",
                               "Audit continuously: at start, every --every and on a new latest snapshot; serve "
                               "/metrics /healthz /report /report.json /history over HTTP until SIGTERM");
  f.serve->fallthrough(true);
  f.serve
      ->add_option("--listen", f.serve_flags.listen,
                   "HOST:PORT to serve on (loopback by default; 0.0.0.0:9464 or :9464 exposes it; port 0 picks a free "
                   "one, printed as 'listening on http://HOST:PORT', the first line on stderr)")
      ->type_name("ADDRESS");
  f.serve
      ->add_option("--every", f.serve_flags.every,
                   "Interval between audits: a number and ms, s, m, h or d (30s, 5m, 1d)")
      ->type_name("DURATION");
  f.serve->add_option("--standby", f.serve_flags.standby,
                      "With an OpLog: the hot standby's admin URL, sampled after every audit for the failover "
                      "gauges (moonquota_ha_*)");
  f.serve->add_option("--primary", f.serve_flags.primary,
                      "With an OpLog: the primary's admin URL, for its committed sequence (a perf-metrics build)");
  f.serve->footer(k_serve_footer);
  // doctor also takes every audit flag: it tries what they name.
  f.doctor =
      app.add_subcommand("doctor",
                         "Check each dependency the audit's flags name, one by one (store, cluster ids, catalog, "
                         "master, etcd, Redis), with hints; audits nothing");
  f.doctor->fallthrough(true);
  f.doctor->footer(k_doctor_footer);
  add_history_subcommand(app, f);
}

util::Status check_reconcile_subcommand_flags(const CLI::App& app, const ReconcileFlags& f) {
  using util::Status;
  if (f.history->parsed()) {
    for (const CLI::Option* option : app.get_options()) {
      if (option->count() > 0) {
        return Status::invalid_argument(
            option->get_name() +
            " is a flag of the audit, not of 'history': give history's own flags after it (quota-reconcile history "
            "--db DIR [--tenant ID] [--since AGE] [--format F])");
      }
    }
    return {};
  }
  if (f.serve->parsed()) {
    for (const char* name : {"--format", "--output", "--color"}) {
      if (app.get_option(name)->count() > 0) {
        return Status::invalid_argument(std::string(name) +
                                        " applies to the one-shot audit: serve answers /metrics (prom), /report "
                                        "(html) and /report.json (json) over HTTP");
      }
    }
    return {};
  }
  if (f.doctor->parsed() && f.common.format != "text" && f.common.format != "json") {
    return Status::invalid_argument("doctor writes --format text or json");
  }
  if (f.audit.metadata.explain && f.common.format != "text" && f.common.format != "json") {
    return Status::invalid_argument("--explain is shown by --format text and json");
  }
  if (app.get_option("--color")->count() > 0 && f.common.format != "text") {
    return Status::invalid_argument("--color applies to --format text only");
  }
  return {};
}

}  // namespace moonquota::tools
