// `quota-reconcile serve` as one object: the HTTP listener (service/http_server.hpp), the audit
// thread driven by service/audit_scheduler.hpp running app/audit_command.hpp, and the run state
// they share (service/run_state.hpp). The tool parses flags, start()s it, waits for a signal and
// stop()s it. The library never prints: every line for the operator goes through `log`.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "app/audit_command.hpp"
#include "app/lag_command.hpp"
#include "service/audit_scheduler.hpp"
#include "service/endpoints.hpp"
#include "service/http_server.hpp"
#include "service/run_state.hpp"
#include "source/object_store.hpp"
#include "util/status.hpp"

namespace moonquota::service {

enum class LogLevel { debug, info, warn, error };
using Log = std::function<void(LogLevel, const std::string&)>;

struct ServeConfig {
  app::AuditConfig audit;
  ListenAddress listen;
  std::uint64_t interval_ms = 5 * 60 * 1000;
  std::string cluster = "default";
  BuildInfo build;
  Log log;  // may be empty
  // With an OpLog: the positions sampled after every audit (app/lag_command), as moonquota_ha_*.
  std::optional<app::LagArgs> ha;
};

// How often the catalog's latest pointer is read between audits: min(interval, 10 s).
inline constexpr std::uint64_t k_max_probe_every_ms = 10'000;

// With --db, the trend each audit computes (persistent, rate, /history) covers this many intervals
// back: at least the 1,000 runs --persistence-runs may ask for, and a bound on memory and on each
// audit's read of the store however long the service runs.
inline constexpr std::uint64_t k_trend_window_intervals = 1000;

class AuditService {
 public:
  // Binds the listener and serves (before the first audit: /report answers 503); every audit reads
  // its metadata from `store`, which the service keeps. Errors: those of HttpServer::start
  // (unavailable naming the address).
  [[nodiscard]] static util::Result<std::unique_ptr<AuditService>> start(ServeConfig config,
                                                                         std::unique_ptr<source::ObjectStore> store);
  // Starts the audit thread; the first audit starts at once. Separate from start() so that the
  // caller can announce the address before the first audit logs anything.
  void begin_audits();
  ~AuditService();  // stop()s when not stopped, waiting for the audit in progress however long it takes
  AuditService(const AuditService&) = delete;
  AuditService& operator=(const AuditService&) = delete;

  [[nodiscard]] const std::string& url() const { return m_url; }  // "http://HOST:PORT", the bound port
  [[nodiscard]] StateView state() const { return m_state.view(); }

  // No audit starts after this call; waits up to `bound_ms` for the audit in progress, then stops
  // the listener (which answers until then). Returns false when the audit was still running at the
  // bound: its thread is then left behind and still uses this object, so the caller must end the
  // process without destroying it (std::_Exit).
  bool stop(std::uint64_t bound_ms);

 private:
  AuditService(ServeConfig config, std::unique_ptr<source::ObjectStore> store);
  void audit(RunTrigger trigger);
  void sample_positions();  // after an audit, with an OpLog
  [[nodiscard]] std::optional<std::string> probe_latest();
  void log(LogLevel level, const std::string& message) const;

  ServeConfig m_config;
  std::unique_ptr<source::ObjectStore> m_store;  // outlives an audit thread left behind by stop()
  EndpointContext m_context;
  RunState m_state;
  std::string m_url;
  std::unique_ptr<HttpServer> m_http;
  std::unique_ptr<AuditScheduler> m_scheduler;
  // The audit thread signals its end here (a std::thread cannot be joined with a timeout).
  struct Done;
  std::shared_ptr<Done> m_done;
  bool m_probing = false;
  std::uint64_t m_probe_every_ms = 0;
  bool m_begun = false;
  bool m_stopped = false;
};

}  // namespace moonquota::service
