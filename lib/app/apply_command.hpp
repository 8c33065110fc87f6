// `quota-reconcile apply PLAN --master URL` (docs/cli/quota-reconcile.md, "apply"): a reviewed
// repair plan applied step by step. Before each step the tenant is read again (the master has no
// compare-and-set) and a step whose preconditions moved is skipped, saying why; nothing is sent
// without --yes or a confirmation; after each change the tenant is read again, and with --db both
// readings are kept in the history. The first failure stops the run. A plan older than --max-age
// or made for another cluster is refused before any request.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "reconcile/live_types.hpp"
#include "reconcile/repair_plan.hpp"
#include "util/net_config.hpp"
#include "util/status.hpp"

namespace moonquota::app {

struct ApplyArgs {
  std::string plan_file;
  std::string master;                            // http://HOST[:PORT]
  std::string cluster = "default";               // --cluster: must be the plan's
  bool yes = false;                              // apply without asking
  bool dry_run = false;                          // read and check, print the requests, send none
  std::string db;                                // --db: record each step
  std::uint64_t max_age_ms = 60ULL * 60 * 1000;  // --max-age (1h)
  std::uint32_t timeout_ms = util::k_default_timeout_ms;
  util::NetLog net_log;
};

struct StepResult {
  std::size_t index = 0;
  reconcile::PlanStep step;
  std::string outcome;  // applied | skipped | declined | failed | informational | dry-run
  std::string detail;
  std::string request;  // the request line (sent, or that would be sent)
  std::optional<reconcile::LiveTenant> before, after;
};

struct ApplyReport {
  std::string plan_file;
  reconcile::RepairPlan plan;
  std::vector<StepResult> steps;
  std::string stopped;  // why the run stopped early ("" when every step was taken)
  int exit_code = 0;    // 0 every step applied (or nothing to send); 1 a step skipped, declined or
                        // refused by the master (4xx); 4 the master unreachable or failing (5xx)
};

// Asked before each request (unless --yes): true sends it.
using ConfirmStep = std::function<bool(const StepResult& pending)>;
// Told after each step, as it goes.
using StepDone = std::function<void(const StepResult& done)>;

// Errors (before any request): invalid_argument (usage), not_found / corruption (the plan file),
// refused (a plan too old or for another cluster), io_error (the history store).
[[nodiscard]] util::Result<ApplyReport> run_apply(const ApplyArgs& args, const ConfirmStep& confirm,
                                                  const StepDone& done, std::uint64_t now_ms);

}  // namespace moonquota::app
