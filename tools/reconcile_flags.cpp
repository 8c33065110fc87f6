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

constexpr const char* k_plan_footer =
    "Every flag of the audit (quota-reconcile --help) applies too, given before or after 'plan'. With --output FILE "
    "the plan is written there as JSON (quota-reconcile-plan/1) and its text goes to stdout; nothing is sent to the "
    "master but the audit's GETs.\n\nExit codes:\n  0  nothing to repair\n  1  the plan has steps\n  2  usage error "
    "(a --adopt tenant that is not an orphan, a quota outside [1, 2^63-1], a --allow-purge tenant not listed)\n  3  "
    "bad "
    "input (store, policy, --adopt-policy file, live answer)\n  4  the master, S3, etcd or Redis unreachable\n"
    "Example:\n  quota-reconcile plan --store snapshots/genuine-live/r1_quiescent_orphan/store --policy "
    "snapshots/genuine-live/r1_quiescent_orphan/policy.yaml --restore-time 1795956296529 --master "
    "http://127.0.0.1:9003 --adopt gamma=1048576 --output /tmp/moonquota-plan.json";

constexpr const char* k_apply_footer =
    "Before each step the tenant is read again (GET ?tenant_id=) and the step skipped, saying why, when it no longer "
    "looks as the plan saw it; each request is confirmed on the terminal unless --yes; the first failure stops the "
    "run.\n\nExit codes:\n  0  every step applied (or nothing to send)\n  1  a step skipped, declined, or refused by "
    "the master (409, 404, 400)\n  2  usage error\n  3  the plan cannot be read, is older than --max-age or was made "
    "for another cluster (nothing sent)\n  4  the master unreachable, not the leader, or failing (5xx, e.g. its "
    "policy could not be persisted)\nExample:\n  quota-reconcile apply /tmp/moonquota-plan.json --master "
    "http://127.0.0.1:9003 --dry-run";

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
  // plan takes every audit flag, and its own.
  f.plan = app.add_subcommand("plan",
                              "Audit, then write a reviewable repair plan (adopt orphans, retire empty policies, "
                              "restarts, purges); sends nothing");
  f.plan->fallthrough(true);
  f.plan->add_option("--adopt", f.adopt, "TENANT=BYTES: adopt this orphan with this quota (repeatable)");
  f.plan->add_option("--adopt-policy", f.adopt_policy,
                     "A policy YAML file: adopt the orphans it names with its quotas");
  f.plan->add_flag("--retire-empty", f.retire_empty,
                   "Also plan to delete policies of tenants with nothing charged and no object");
  f.plan->add_option("--allow-purge", f.allow_purge,
                     "TENANT: plan to remove this tenant's objects (repeatable; never all tenants)");
  f.plan->footer(k_plan_footer);
  auto& ap = f.apply_args;
  f.apply = app.add_subcommand("apply", "Apply a repair plan to a master, step by step, re-reading each tenant first");
  f.apply->add_option("plan", ap.plan_file, "The plan (JSON, from quota-reconcile plan --output)")->required();
  f.apply->add_option("--master", ap.master, "http://HOST[:PORT] of the master's admin port")->required();
  f.apply->add_option("--cluster", ap.cluster, "The cluster you apply it to: must be the plan's (default: default)");
  f.apply->add_flag("--yes", ap.yes, "Send every step without asking");
  f.apply->add_flag("--dry-run", ap.dry_run, "Read and check every step, print the requests, send none");
  f.apply->add_option("--db", ap.db, "History store: record each step with the tenant before and after");
  f.apply->add_option("--max-age", f.apply_max_age, "Refuse a plan whose audit is older (default 1h)")
      ->type_name("DURATION");
  f.apply->add_option("--timeout-ms", ap.timeout_ms, "Connect and read timeout of each request");
  add_verbosity_flags(*f.apply, f.apply_common);  // apply prints each step as it goes: no --format, --output
  f.apply->footer(k_apply_footer);
  add_history_subcommand(app, f);
}

util::Status check_reconcile_subcommand_flags(const CLI::App& app, const ReconcileFlags& f) {
  using util::Status;
  if (f.history->parsed() || f.apply->parsed()) {
    const char* sub = f.history->parsed() ? "history" : "apply";
    for (const CLI::Option* option : app.get_options()) {
      if (option->count() > 0 && f.apply->parsed()) {
        return Status::invalid_argument(option->get_name() +
                                        " is a flag of the audit, not of 'apply': give apply's "
                                        "own flags after it (quota-reconcile apply PLAN --master URL [--cluster NAME] "
                                        "[--yes | --dry-run] [--db DIR])");
      }
      if (option->count() > 0) {
        return Status::invalid_argument(option->get_name() + " is a flag of the audit, not of '" + sub +
                                        "': give history's own flags after it (quota-reconcile history "
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
  if (f.plan->parsed() && f.common.format != "text" && f.common.format != "json") {
    return Status::invalid_argument("plan writes --format text or json (with --output: the JSON plan)");
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
