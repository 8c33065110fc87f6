#include "app/audit_command.hpp"

#include "app/exit_codes.hpp"
#include "history/history_store.hpp"
#include "util/elapsed.hpp"

namespace moonquota::app {

namespace {

using util::Status;

// Flags that one kind of live source would silently ignore are usage errors.
Status check_live_args(const LiveArgs& l, bool service) {
  const bool saved = !l.live_json.empty() || !l.live_metrics.empty();
  if (service && l.master.empty()) {
    return Status::invalid_argument(
        saved ? "serve samples a master at every audit: saved responses (--live-json/--live-metrics) are one "
                "reading, a one-shot audit (drop 'serve', or give --master URL instead)"
              : "serve needs --master URL: every audit samples the live master");
  }
  if (l.master.empty() && !saved) {
    return Status::invalid_argument(
        "give either --master or saved responses (--master URL, or --live-json FILE / --live-metrics FILE)");
  }
  if (!l.master.empty() && saved) {
    return Status::invalid_argument(
        "--master excludes --live-json and --live-metrics: read the master, or its saved responses");
  }
  if (!l.master.empty() && l.sampled_at_ms) {
    return Status::invalid_argument("--sampled-at applies to saved responses: --master samples are timed as taken");
  }
  if (!saved) return {};
  const char* ignored = l.no_metrics             ? "--no-metrics"
                        : l.interval_ms          ? "--interval-ms"
                        : l.retries              ? "--retries"
                        : l.retry_backoff_ms     ? "--retry-backoff-ms"
                        : l.retry_max_backoff_ms ? "--retry-max-backoff-ms"
                                                 : nullptr;
  if (ignored == nullptr) return {};
  return Status::invalid_argument(std::string(ignored) +
                                  " applies to --master: saved responses (--live-json/--live-metrics) are read as "
                                  "given, without requests");
}

reconcile::LiveRequest live_request(const LiveArgs& l, const util::NetConfig& net) {
  reconcile::LiveRequest live;
  live.master_urls = l.master;
  live.list_files = l.live_json;
  live.metrics_files = l.live_metrics;
  live.use_metrics = !l.no_metrics;
  live.samples = l.samples;
  if (l.interval_ms) live.interval_ms = *l.interval_ms;
  if (l.retries) live.retry.attempts = *l.retries;
  if (l.retry_backoff_ms) live.retry.initial_backoff_ms = *l.retry_backoff_ms;
  if (l.retry_max_backoff_ms) live.retry.max_backoff_ms = *l.retry_max_backoff_ms;
  live.sampled_at_ms = l.sampled_at_ms;
  live.max_tenants = l.max_tenants;
  live.timeouts = {net.connect_timeout_ms, net.read_timeout_ms};
  live.log = net.log;
  return live;
}

// --model, and --restore-time, which implies the restore model; the live model has no lease filter.
// The promote model is the restore charge on the promote path (plan_audit sets the path).
util::Result<restore::ChargeModel> audit_charge_model(const AuditArgs& a, restore::LeaseModel lease_model) {
  if (a.model && *a.model == "promote") return restore::ChargeModel::restore;
  const bool restore_time_given = a.metadata.store.restore_time.has_value();
  if (a.model && *a.model == "live" && restore_time_given) {
    return Status::invalid_argument(
        "--model live and --restore-time conflict: a running master erases nothing at a restore time (drop "
        "--restore-time, or use --model restore)");
  }
  const bool restore = a.model ? *a.model == "restore" : restore_time_given;
  if (!restore && lease_model == restore::LeaseModel::keep) {
    return Status::invalid_argument(
        "--model live and --lease-model keep conflict: the live model (the default without --restore-time) applies "
        "no lease filter (use --model restore, or drop --lease-model keep)");
  }
  return restore ? restore::ChargeModel::restore : restore::ChargeModel::live;
}

// --model promote: what a promotion now would serve, so the promote path, which needs the OpLog.
util::Result<RebuildArgs> audit_metadata_args(const AuditArgs& a) {
  RebuildArgs m = a.metadata;
  if (!a.model || *a.model != "promote") return m;
  if (m.oplog_etcd.empty() && m.oplog_file.empty()) {
    return Status::invalid_argument(
        "--model promote replays the OpLog a standby replays: give --oplog-etcd HOST:PORT or --oplog-file FILE");
  }
  if (m.path && *m.path != "promote") {
    return Status::invalid_argument("--model promote and --path " + *m.path +
                                    " conflict: a promotion bootstraps a standby and replays the OpLog");
  }
  m.path = "promote";
  return m;
}

}  // namespace

util::Result<AuditPlan> plan_audit(const AuditArgs& a) {
  MQ_ASSIGN_OR_RETURN(const RebuildArgs metadata_args, audit_metadata_args(a));
  MQ_ASSIGN_OR_RETURN(RebuildPlan metadata, plan_rebuild(metadata_args));
  MQ_RETURN_IF_ERROR(check_live_args(a.live, a.service));
  if (a.service && a.metadata.explain) {
    return Status::invalid_argument("--explain is a one-shot drill-down: run it without 'serve'");
  }
  if (a.persistence_runs && !a.db) {
    return Status::invalid_argument("--persistence-runs applies to the trend of --db: give --db DIR or drop it");
  }
  if (a.fail_on != "delta" && a.fail_on != "unexplained") {
    return Status::invalid_argument("--fail-on '" + a.fail_on + "' is not delta or unexplained");
  }
  MQ_ASSIGN_OR_RETURN(metadata.request.restore.charge_model,
                      audit_charge_model(a, metadata.request.restore.lease_model));
  AuditPlan plan;
  auto& config = plan.config;
  config.request.metadata = std::move(metadata.request);
  config.request.live = live_request(a.live, metadata.net);
  config.request.tolerance_bytes = a.tolerance_bytes;
  config.db = a.db.value_or("");
  config.persistence_runs = a.persistence_runs.value_or(history::k_default_persistence_runs);
  config.fail_on_unexplained = a.fail_on == "unexplained";
  plan.store = std::move(metadata.store);
  return plan;
}

const char* run_result_name(RunResult result) {
  switch (result) {
    case RunResult::ok: return "ok";
    case RunResult::drift: return "drift";
    case RunResult::error: return "error";
  }
  return "error";
}

RunOutcome run_audit(source::ObjectStore& store, const AuditConfig& config) {
  const auto started = util::SteadyClock::now();
  const std::uint64_t started_ms = util::epoch_ms_now();
  RunOutcome outcome;
  const auto finish = [&] {
    outcome.finished_ms = util::epoch_ms_now();
    outcome.duration_ms = util::ms_since(started);
  };

  auto compared = reconcile::run_reconcile(store, config.request);
  if (!compared.ok()) {
    outcome.exit_code = exit_code_for(compared.status());
    outcome.error = compared.status().message();
    finish();
    return outcome;
  }
  auto audit = std::make_shared<AuditResult>();
  audit->report = std::move(*compared);
  audit->run_at_ms = audit->report.live.first_sample_ms.value_or(started_ms);
  const bool found = config.fail_on_unexplained ? audit->report.unexplained_drift() : audit->report.drift();
  audit->exit_code = found ? k_exit_found : k_exit_ok;
  outcome.result = found ? RunResult::drift : RunResult::ok;
  outcome.exit_code = audit->exit_code;
  if (!config.db.empty()) {
    const std::uint64_t since_ms = config.trend_window_ms != 0 && audit->run_at_ms > config.trend_window_ms
                                       ? audit->run_at_ms - config.trend_window_ms
                                       : 0;
    auto analysed = history::record_and_analyse(config.db, history::make_run_record(audit->report, audit->run_at_ms),
                                                config.persistence_runs, 10'000, since_ms);
    if (analysed.ok()) {
      audit->trends = std::move(*analysed);
    } else {
      const Status failure = analysed.status().with_context("--db: this run was not recorded");
      outcome.result = RunResult::error;
      outcome.exit_code = exit_code_for(failure);
      outcome.error = failure.message();
      audit->exit_code = outcome.exit_code;
    }
  }
  outcome.audit = std::move(audit);
  finish();
  return outcome;
}

}  // namespace moonquota::app
