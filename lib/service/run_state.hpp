// What `quota-reconcile serve` knows about its audits, shared between the audit thread (which
// records each outcome) and the HTTP threads (which read a consistent view). Only the newest
// outcome and the newest comparison are kept, so memory does not grow with the number of runs.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>

#include "app/audit_command.hpp"
#include "reconcile/lag_positions.hpp"

namespace moonquota::service {

// The newest sampling of the OpLog positions (serve with an OpLog).
struct HaSample {
  std::uint64_t at_ms = 0;
  int exit_code = 0;
  std::string error;                           // when it failed
  std::optional<reconcile::LagReport> report;  // when it succeeded
};

struct StateView {
  std::optional<app::RunOutcome> last;                              // the newest finished run
  std::shared_ptr<const app::AuditResult> compared;                 // the newest run that compared (may be older)
  std::optional<std::uint64_t> last_success_ms;                     // when the newest run of result ok/drift finished
  std::array<std::uint64_t, app::k_run_result_count> runs_total{};  // by app::RunResult
  bool running = false;                                             // an audit is in progress
  std::shared_ptr<const HaSample> ha;                               // with an OpLog, after the first audit
};

class RunState {
 public:
  void started();
  void record(app::RunOutcome outcome);
  void record_ha(HaSample sample);
  [[nodiscard]] StateView view() const;  // a copy: the reports are shared, never copied

 private:
  mutable std::mutex m_mutex;
  StateView m_view;
};

}  // namespace moonquota::service
