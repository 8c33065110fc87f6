#include "service/audit_run.hpp"

#include <chrono>

#include "history/history_store.hpp"
#include "source/embedded_catalog.hpp"
#include "source/object_store.hpp"

namespace moonquota::service {

namespace {

// latest.txt holds one snapshot id: anything larger is not a pointer.
constexpr std::uint64_t k_latest_pointer_limit = 4096;

std::string trimmed(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return {};
  const auto last = text.find_last_not_of(" \t\r\n");
  return text.substr(first, last - first + 1);
}

}  // namespace

const char* run_result_name(RunResult result) {
  switch (result) {
    case RunResult::ok: return "ok";
    case RunResult::drift: return "drift";
    case RunResult::error: return "error";
  }
  return "error";
}

std::uint64_t wall_clock_ms() {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count());
}

RunOutcome run_audit(source::ObjectStore& store, const AuditConfig& config) {
  const auto started = std::chrono::steady_clock::now();
  const std::uint64_t started_ms = wall_clock_ms();
  RunOutcome outcome;
  const auto exit_code = [&](const util::Status& status) {
    return config.exit_code_for ? config.exit_code_for(status) : 5;
  };
  const auto finish = [&] {
    outcome.finished_ms = wall_clock_ms();
    outcome.duration_ms = static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count());
  };

  auto compared = reconcile::run_reconcile(store, config.request);
  if (!compared.ok()) {
    outcome.exit_code = exit_code(compared.status());
    outcome.error = compared.status().message();
    finish();
    return outcome;
  }
  auto audit = std::make_shared<AuditResult>();
  audit->report = std::move(*compared);
  audit->run_at_ms = audit->report.live.first_sample_ms.value_or(started_ms);
  const bool found = config.fail_on_unexplained ? audit->report.unexplained_drift() : audit->report.drift();
  audit->exit_code = found ? 1 : 0;
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
      const util::Status failure = analysed.status().with_context("--db: this run was not recorded");
      outcome.result = RunResult::error;
      outcome.exit_code = exit_code(failure);
      outcome.error = failure.message();
      audit->exit_code = outcome.exit_code;
    }
  }
  outcome.audit = std::move(audit);
  finish();
  return outcome;
}

bool follows_latest(const restore::StoreSelection& selection) {
  return selection.snapshot_dir.empty() && selection.snapshot == "latest" && !selection.store_dir.empty();
}

util::Result<std::optional<std::string>> read_latest_snapshot_id(source::ObjectStore& store,
                                                                 const restore::StoreSelection& selection) {
  if (!follows_latest(selection)) return std::optional<std::string>();
  if (selection.catalog == "redis") {
    MQ_ASSIGN_OR_RETURN(source::CatalogListing listing, restore::read_catalog(store, selection));
    return listing.latest;
  }
  const std::string root = source::snapshot_root(selection.store_dir, selection.cluster_id);
  auto text = store.get(root + "latest.txt", k_latest_pointer_limit);
  if (!text.ok()) {
    if (text.status().code() == util::StatusCode::not_found) return std::optional<std::string>();
    return text.status();
  }
  std::string id = trimmed(*text);
  if (id.empty()) return std::optional<std::string>();
  return std::optional<std::string>(std::move(id));
}

}  // namespace moonquota::service
