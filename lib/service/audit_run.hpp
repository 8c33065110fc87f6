// One audit of `quota-reconcile serve`: the one-shot's work (reconcile::run_reconcile, then the
// history record of --db) as a value the service keeps, whatever happened. A failing master,
// store or history never escapes as an error: it is an outcome with result `error`.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "history/trend.hpp"
#include "reconcile/reconcile_run.hpp"
#include "restore/restore_path.hpp"
#include "util/status.hpp"

namespace moonquota::service {

struct AuditConfig {
  reconcile::ReconcileRequest request;
  std::string db;  // --db: empty means no history
  std::uint32_t persistence_runs = history::k_default_persistence_runs;
  bool fail_on_unexplained = false;  // --fail-on unexplained (default: delta)
  // The trend (and /history) covers the runs of this long before each run; 0: every run. A
  // service bounds it so that neither its memory nor each audit's read grows with the store.
  std::uint64_t trend_window_ms = 0;
  // The tools' mapping of a Status to an exit code (cli-contract.md), kept in one place
  // (tools/tool_common.cpp) and handed in. Empty: 5 for every error.
  std::function<int(const util::Status&)> exit_code_for;
};

// A run that compared metadata with the live master.
struct AuditResult {
  reconcile::ReconcileReport report;
  std::optional<history::TrendTable> trends;  // with --db, when the run was recorded
  std::uint64_t run_at_ms = 0;                // the first live sample (else the start of the run)
  int exit_code = 0;                          // what the one-shot would have exited with
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

// Runs one audit, its metadata read from `store` (the store of the request's selection). A comparison whose history
// record fails is result error (exit 3, the message says the run was not recorded) and still carries its fresh `audit`.
[[nodiscard]] RunOutcome run_audit(source::ObjectStore& store, const AuditConfig& config);

// Whether the selection follows the catalog's latest snapshot (--snapshot latest from a store),
// so that probing the latest pointer means something.
[[nodiscard]] bool follows_latest(const restore::StoreSelection& selection);

// The id the catalog names as latest, read cheaply: the embedded catalog's latest.txt (one small
// object of `store`), or Redis' catalog. nullopt when there is no latest pointer. Errors: those of the store
// or of Redis (unavailable, io_error).
[[nodiscard]] util::Result<std::optional<std::string>> read_latest_snapshot_id(
    source::ObjectStore& store, const restore::StoreSelection& selection);

[[nodiscard]] std::uint64_t wall_clock_ms();

}  // namespace moonquota::service
