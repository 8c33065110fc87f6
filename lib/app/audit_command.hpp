// quota-reconcile's audit, the one command that both the one-shot run and each audit of
// `quota-reconcile serve` run: the flags as given -> the audit plan (model, live source and
// history rules decided here), then one audit (reconcile::run_reconcile, then the history record of
// --db) as a value, whatever happened. A failing master, store or history never escapes as an
// error: it is an outcome with result `error` and the contract's exit code.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/rebuild_command.hpp"
#include "history/trend.hpp"
#include "reconcile/reconcile_run.hpp"
#include "source/object_store.hpp"
#include "util/status.hpp"

namespace moonquota::app {

// The live side as given (nullopt: not given).
struct LiveArgs {
  std::vector<std::string> master;        // --master URL (repeatable: the replicas of an HA cell)
  std::vector<std::string> live_json;     // --live-json FILE (repeatable)
  std::vector<std::string> live_metrics;  // --live-metrics FILE (repeatable)
  bool no_metrics = false;
  std::uint32_t samples = 1;
  std::optional<std::uint32_t> interval_ms;
  std::optional<std::uint32_t> retries;
  std::optional<std::uint32_t> retry_backoff_ms;
  std::optional<std::uint32_t> retry_max_backoff_ms;
  std::optional<std::uint64_t> sampled_at_ms;
  std::size_t max_tenants = reconcile::k_default_max_tenants;  // --max-tenants, per live answer
};

struct AuditArgs {
  RebuildArgs metadata;
  LiveArgs live;
  std::optional<std::string> model;  // live | restore | promote (default: restore with --restore-time, else live)
  std::uint64_t tolerance_bytes = 0;
  std::string fail_on = "delta";  // delta | unexplained
  std::optional<std::string> db;  // --db: the history store
  std::optional<std::uint32_t> persistence_runs;
  bool service = false;  // serve: audits repeatedly, so it needs a master to sample each time
};

struct AuditConfig {
  reconcile::ReconcileRequest request;
  std::string db;  // --db: empty means no history
  std::uint32_t persistence_runs = history::k_default_persistence_runs;
  bool fail_on_unexplained = false;  // --fail-on unexplained (default: delta)
  // The trend (and serve's /history) covers the runs of this long before each run; 0: every run.
  // A service bounds it so that neither its memory nor each audit's read grows with the store.
  std::uint64_t trend_window_ms = 0;
};

struct AuditPlan {
  AuditConfig config;
  ResolvedStore store;  // where the metadata is read
};

// The rules: those of plan_rebuild; one live source (--master, or saved --live-json/--live-metrics);
// a flag the chosen source would ignore is a usage error (--sampled-at with --master; --no-metrics,
// --interval-ms and the --retry* flags with saved responses); --persistence-runs needs --db;
// --model live conflicts with --restore-time and with --lease-model keep. Errors: invalid_argument.
[[nodiscard]] util::Result<AuditPlan> plan_audit(const AuditArgs& args);

// A run that compared metadata with the live master.
struct AuditResult {
  reconcile::ReconcileReport report;
  std::optional<history::TrendTable> trends;  // with --db, when the run was recorded
  std::uint64_t run_at_ms = 0;                // the first live sample (else the start of the run)
  int exit_code = 0;                          // 1 on drift (--fail-on), 3 when the history write failed
};

enum class RunResult { ok, drift, error };
inline constexpr int k_run_result_count = 3;
[[nodiscard]] const char* run_result_name(RunResult result);  // "ok", "drift", "error"

struct RunOutcome {
  RunResult result = RunResult::error;
  int exit_code = 5;
  std::string error;                         // the message when result is error
  std::shared_ptr<const AuditResult> audit;  // null when nothing was compared
  std::uint64_t finished_ms = 0;             // wall clock, ms since the epoch
  std::uint64_t duration_ms = 0;
};

// Runs one audit, its metadata read from `store` (the store of the request's selection). A
// comparison whose history record fails is result error (exit 3, the message says the run was not
// recorded) and still carries its fresh `audit`.
[[nodiscard]] RunOutcome run_audit(source::ObjectStore& store, const AuditConfig& config);

}  // namespace moonquota::app
