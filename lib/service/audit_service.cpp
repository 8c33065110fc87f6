#include "service/audit_service.hpp"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "app/exit_codes.hpp"
#include "service/duration.hpp"
#include "service/latest_snapshot.hpp"
#include "util/elapsed.hpp"

namespace moonquota::service {

struct AuditService::Done {
  std::mutex mutex;
  std::condition_variable cv;
  bool done = false;
};

AuditService::AuditService(ServeConfig config, std::unique_ptr<source::ObjectStore> store)
    : m_config(std::move(config)), m_store(std::move(store)), m_done(std::make_shared<Done>()) {
  m_context.cluster = m_config.cluster;
  m_context.build = m_config.build;
  m_context.interval_ms = m_config.interval_ms;
  m_context.has_db = !m_config.audit.db.empty();
  m_config.audit.trend_window_ms = k_trend_window_intervals * m_config.interval_ms;
}

util::Result<std::unique_ptr<AuditService>> AuditService::start(ServeConfig config,
                                                                std::unique_ptr<source::ObjectStore> store) {
  std::unique_ptr<AuditService> service(new AuditService(std::move(config), std::move(store)));
  AuditService* self = service.get();
  MQ_ASSIGN_OR_RETURN(
      self->m_http, HttpServer::start(self->m_config.listen, [self](const std::string& path, const QueryParams& query) {
        return answer_request(path, query, self->m_state.view(), self->m_context, util::epoch_ms_now());
      }));
  self->m_url = listen_url(self->m_config.listen.host, self->m_http->port());

  ScheduleOptions schedule;
  schedule.interval_ms = self->m_config.interval_ms;
  schedule.probe_every_ms = std::min(self->m_config.interval_ms, k_max_probe_every_ms);
  AuditScheduler::ProbeFn probe;
  if (follows_latest(self->m_config.audit.request.metadata.selection)) probe = [self] { return self->probe_latest(); };
  self->m_scheduler = std::make_unique<AuditScheduler>(
      schedule, [self](RunTrigger trigger) { self->audit(trigger); }, std::move(probe));
  self->m_probing = static_cast<bool>(probe);
  self->m_probe_every_ms = schedule.probe_every_ms;
  return service;
}

void AuditService::begin_audits() {
  if (m_begun) return;
  m_begun = true;
  log(LogLevel::info,
      "auditing every " + duration_text(m_config.interval_ms) +
          (m_probing ? " and on a new latest snapshot (probed every " + duration_text(m_probe_every_ms) + ")" : ""));
  std::thread([this, done = m_done] {
    m_scheduler->run();
    std::lock_guard lock(done->mutex);
    done->done = true;
    done->cv.notify_all();
  }).detach();
}

AuditService::~AuditService() {
  // A day stands for "until it finishes" (the members the audit thread uses are destroyed next).
  if (!m_stopped) (void)stop(24ULL * 3600 * 1000);
}

bool AuditService::stop(std::uint64_t bound_ms) {
  m_stopped = true;
  if (!m_begun || !m_scheduler) {  // never audited (also: start() failed half way)
    if (m_http) m_http->stop();
    return true;
  }
  m_scheduler->stop();
  bool finished = false;
  {
    std::unique_lock lock(m_done->mutex);
    finished = m_done->cv.wait_for(lock, std::chrono::milliseconds(bound_ms), [this] { return m_done->done; });
  }
  if (!finished) {
    log(LogLevel::warn, "the audit in progress did not finish within " + duration_text(bound_ms) +
                            ": giving up on it (a history run is written whole or not at all)");
    // The detached thread still uses this object: leave the listener's and the scheduler's memory
    // alive (the process is about to exit).
    (void)m_scheduler.release();
    m_http->stop();
    return false;
  }
  m_http->stop();
  return true;
}

void AuditService::log(LogLevel level, const std::string& message) const {
  if (m_config.log) m_config.log(level, message);
}

std::optional<std::string> AuditService::probe_latest() {
  auto latest = read_latest_snapshot_id(*m_store, m_config.audit.request.metadata.selection);
  if (!latest.ok()) {
    log(LogLevel::debug, "probing the latest snapshot: " + latest.status().message());
    return std::nullopt;
  }
  return *latest;
}

void AuditService::audit(RunTrigger trigger) {
  log(LogLevel::debug, std::string("audit starts (") + run_trigger_name(trigger) + ")");
  m_state.started();
  app::RunOutcome outcome = app::run_audit(*m_store, m_config.audit);
  const std::string head =
      std::string("audit (") + run_trigger_name(trigger) + ", " + std::to_string(outcome.duration_ms) + " ms)";
  if (outcome.audit) {
    const auto& report = outcome.audit->report;
    const std::string snapshot =
        report.metadata.snapshot ? ", snapshot " + report.metadata.snapshot->snapshot_id : std::string();
    const std::string counts = std::to_string(report.counts.tenants) + " tenants, " +
                               std::to_string(report.counts.drift) + " drift" + snapshot;
    if (outcome.result == app::RunResult::ok) log(LogLevel::info, head + " ok: " + counts);
    if (outcome.result == app::RunResult::drift) log(LogLevel::warn, head + " found drift: " + counts);
  }
  if (outcome.result == app::RunResult::error) {
    log(LogLevel::error, head + " failed (exit " + std::to_string(outcome.exit_code) + "): " + outcome.error);
  }
  m_state.record(std::move(outcome));
  if (m_config.ha) sample_positions();
}

void AuditService::sample_positions() {
  HaSample sample;
  sample.at_ms = util::epoch_ms_now();
  auto lag = app::run_lag(*m_config.ha);
  if (lag.ok()) {
    sample.report = std::move(lag->report);
    const auto& w = sample.report->windows;
    log(LogLevel::debug,
        "OpLog positions sampled: catch-up " +
            (w.catch_up ? std::to_string(w.catch_up->entries) + " entries" : std::string("unknown")) +
            ", snapshot gap " +
            (w.snapshot_gap ? std::to_string(w.snapshot_gap->entries) + " entries" : std::string("unknown")));
  } else {
    sample.exit_code = app::exit_code_for(lag.status());
    sample.error = lag.status().message();
    log(LogLevel::warn, "OpLog positions not sampled (exit " + std::to_string(sample.exit_code) + "): " + sample.error);
  }
  m_state.record_ha(std::move(sample));
}

}  // namespace moonquota::service
