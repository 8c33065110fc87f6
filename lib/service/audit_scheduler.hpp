// When `quota-reconcile serve` audits: once at start, then every interval, and as soon as the
// catalog names a new latest snapshot. One thread runs everything (the audits and the probes of
// the latest snapshot), so two audits never overlap. The next scheduled audit is due one interval
// after the previous one STARTED, but never before it finished: a slow audit delays the next one,
// and the ticks it missed are dropped, never queued.
//
// Between audits the latest snapshot id is probed every `probe_every_ms` (a cheap read: the
// catalog's latest pointer) and once just before each audit; an id that differs from the one seen
// before starts an audit at once. A probe that cannot tell (nullopt: no catalog, a failed read)
// never starts one.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>

namespace moonquota::service {

enum class RunTrigger { start, interval, new_latest };
[[nodiscard]] const char* run_trigger_name(RunTrigger trigger);  // "start", "interval", "new latest snapshot"

struct ScheduleOptions {
  std::uint64_t interval_ms = 5 * 60 * 1000;
  std::uint64_t probe_every_ms = 10 * 1000;  // the caller passes min(interval, 10 s)
};

class AuditScheduler {
 public:
  using RunFn = std::function<void(RunTrigger)>;
  // The latest snapshot id, or nullopt when it cannot be told. May be empty: no probing.
  using ProbeFn = std::function<std::optional<std::string>()>;

  AuditScheduler(ScheduleOptions options, RunFn run, ProbeFn probe);
  AuditScheduler(const AuditScheduler&) = delete;
  AuditScheduler& operator=(const AuditScheduler&) = delete;

  // Audits until stop(); returns after the audit in progress (if any) returns. Call from one thread.
  void run();
  // From any thread: no audit starts after this; a waiting run() returns at once.
  void stop();
  [[nodiscard]] bool stopping() const;

 private:
  // Waits until `due` or a new latest id; false when stopped meanwhile. Sets *trigger.
  bool wait_for_next(std::chrono::steady_clock::time_point due, RunTrigger* trigger);
  // Probes (outside the lock) and returns true when the id differs from the one seen before.
  bool probe_changed();

  ScheduleOptions m_options;
  RunFn m_run;
  ProbeFn m_probe;
  std::optional<std::string> m_seen_latest;
  mutable std::mutex m_mutex;
  std::condition_variable m_wake;
  bool m_stop = false;
};

}  // namespace moonquota::service
