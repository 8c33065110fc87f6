#include "service/run_state.hpp"

#include <utility>

namespace moonquota::service {

void RunState::started() {
  std::lock_guard lock(m_mutex);
  m_view.running = true;
}

void RunState::record(app::RunOutcome outcome) {
  std::lock_guard lock(m_mutex);
  m_view.running = false;
  ++m_view.runs_total[static_cast<std::size_t>(outcome.result)];
  if (outcome.result != app::RunResult::error) m_view.last_success_ms = outcome.finished_ms;
  if (outcome.audit) m_view.compared = outcome.audit;
  m_view.last = std::move(outcome);
}

void RunState::record_ha(HaSample sample) {
  auto shared = std::make_shared<const HaSample>(std::move(sample));
  std::lock_guard lock(m_mutex);
  m_view.ha = std::move(shared);
}

StateView RunState::view() const {
  std::lock_guard lock(m_mutex);
  return m_view;
}

}  // namespace moonquota::service
