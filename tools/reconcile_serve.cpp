#include "reconcile_serve.hpp"

#include <pthread.h>
#include <spdlog/spdlog.h>

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "service/audit_service.hpp"
#include "service/duration.hpp"

namespace moonquota::tools {

namespace {

constexpr const char* k_serve_tool = "quota-reconcile";

// How long SIGTERM/SIGINT waits for the audit in progress before giving up on it.
constexpr std::uint64_t k_stop_bound_ms = 10'000;

void log_serve_line(service::LogLevel level, const std::string& message) {
  switch (level) {
    case service::LogLevel::debug: spdlog::debug("{}", message); return;
    case service::LogLevel::info: spdlog::info("{}", message); return;
    case service::LogLevel::warn: spdlog::warn("{}", message); return;
    case service::LogLevel::error: spdlog::error("{}", message); return;
  }
}

// With an OpLog, every audit is followed by a sampling of the OpLog positions (oplog-inspect lag's,
// into the audit's --db): the failover gauges.
util::Result<std::optional<app::LagArgs>> serve_lag_args(const ServeFlags& flags, const app::RebuildArgs& metadata,
                                                         const std::string& db) {
  const bool oplog = !metadata.oplog_etcd.empty() || !metadata.oplog_file.empty();
  if (!oplog) {
    if (!flags.standby.empty() || !flags.primary.empty()) {
      return util::Status::invalid_argument(std::string(flags.standby.empty() ? "--primary" : "--standby") +
                                            " samples OpLog positions: give the OpLog (--oplog-etcd or --oplog-file)");
    }
    return std::optional<app::LagArgs>{};
  }
  app::LagArgs lag;
  if (metadata.store.cluster_id) lag.cluster_id = *metadata.store.cluster_id;
  lag.oplog_etcd = metadata.oplog_etcd;
  lag.oplog_file = metadata.oplog_file;
  lag.store = metadata.store;
  lag.store.restore_time.reset();  // the windows' promotions bootstrap at each sampling
  lag.standby = flags.standby;
  lag.primary = flags.primary;
  lag.db = db;
  lag.timeout_ms = metadata.timeout_ms;
  lag.net_log = metadata.net_log;
  return std::optional<app::LagArgs>(std::move(lag));
}

}  // namespace

int run_serve(const ServeFlags& flags, const app::RebuildArgs& metadata, app::AuditPlan plan,
              const std::string& cluster) {
  auto every = service::parse_duration_ms(flags.every, "--every");
  if (!every.ok()) return fail(k_serve_tool, every.status());
  auto lag = serve_lag_args(flags, metadata, plan.config.db);
  if (!lag.ok()) return fail(k_serve_tool, lag.status());
  auto listen = service::parse_listen_address(flags.listen, "--listen");
  if (!listen.ok()) return fail(k_serve_tool, listen.status());
  service::ServeConfig config;
  config.audit = std::move(plan.config);
  config.ha = std::move(*lag);
  config.cluster = cluster;
  config.interval_ms = *every;
  config.listen = *listen;
  const BuildInfo build = build_info();
  config.build = {build.version, build.git_describe, build.upstream_commit};
  config.log = log_serve_line;
  // Every thread started from here on inherits the mask: the signals wait for sigwait below.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  std::signal(SIGPIPE, SIG_IGN);  // a scraper that hangs up mid-answer is its own problem

  auto service = service::AuditService::start(std::move(config), app::open_selected_store(plan.store));
  if (!service.ok()) return fail(k_serve_tool, service.status());
  // Once, plain, and first on stderr at every verbosity: scripts and tests read the port from it.
  std::cerr << "listening on " << (*service)->url() << std::endl;
  (*service)->begin_audits();

  int signal_number = 0;
  while (sigwait(&stop_signals, &signal_number) != 0) {}
  spdlog::info("{}: no new audit; waiting up to {} for the one in progress", strsignal(signal_number),
               service::duration_text(k_stop_bound_ms));
  if (!(*service)->stop(k_stop_bound_ms)) {
    spdlog::default_logger()->flush();
    std::_Exit(k_exit_ok);
  }
  spdlog::info("stopped");
  return k_exit_ok;
}

}  // namespace moonquota::tools
