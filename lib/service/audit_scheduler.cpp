#include "service/audit_scheduler.hpp"

#include <algorithm>
#include <utility>

namespace moonquota::service {

using Clock = std::chrono::steady_clock;

const char* run_trigger_name(RunTrigger trigger) {
  switch (trigger) {
    case RunTrigger::start: return "start";
    case RunTrigger::interval: return "interval";
    case RunTrigger::new_latest: return "new latest snapshot";
  }
  return "?";
}

AuditScheduler::AuditScheduler(ScheduleOptions options, RunFn run, ProbeFn probe)
    : m_options(options), m_run(std::move(run)), m_probe(std::move(probe)) {
  m_options.interval_ms = std::max<std::uint64_t>(m_options.interval_ms, 1);
  m_options.probe_every_ms = std::max<std::uint64_t>(m_options.probe_every_ms, 1);
}

void AuditScheduler::stop() {
  {
    std::lock_guard lock(m_mutex);
    m_stop = true;
  }
  m_wake.notify_all();
}

bool AuditScheduler::stopping() const {
  std::lock_guard lock(m_mutex);
  return m_stop;
}

bool AuditScheduler::probe_changed() {
  if (!m_probe) return false;
  std::optional<std::string> latest = m_probe();
  if (!latest) return false;
  const bool changed = latest != m_seen_latest;
  m_seen_latest = std::move(latest);
  return changed;
}

bool AuditScheduler::wait_for_next(Clock::time_point due, RunTrigger* trigger) {
  const auto probe_every = std::chrono::milliseconds(m_options.probe_every_ms);
  for (;;) {
    const auto now = Clock::now();
    if (now >= due) {
      *trigger = RunTrigger::interval;
      return !stopping();
    }
    const auto wake = m_probe ? std::min(due, now + probe_every) : due;
    {
      std::unique_lock lock(m_mutex);
      if (m_wake.wait_until(lock, wake, [this] { return m_stop; })) return false;
    }
    if (Clock::now() >= due) continue;
    if (probe_changed()) {
      *trigger = RunTrigger::new_latest;
      return !stopping();
    }
  }
}

void AuditScheduler::run() {
  const auto interval = std::chrono::milliseconds(m_options.interval_ms);
  RunTrigger trigger = RunTrigger::start;
  while (!stopping()) {
    // The id this audit reads (or a newer one): a later probe that sees it again starts nothing.
    // A new_latest trigger has just probed.
    if (trigger != RunTrigger::new_latest) (void)probe_changed();
    const auto started = Clock::now();
    m_run(trigger);
    // Due one interval after the start, never before the end: a slow audit drops the ticks it
    // missed instead of running them back to back.
    const auto due = std::max(started + interval, Clock::now());
    if (!wait_for_next(due, &trigger)) break;
  }
}

}  // namespace moonquota::service
