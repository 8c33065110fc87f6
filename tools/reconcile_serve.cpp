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

}  // namespace

int run_serve(const ServeFlags& flags, app::AuditPlan plan, const std::string& cluster) {
  auto every = service::parse_duration_ms(flags.every, "--every");
  if (!every.ok()) return fail(k_serve_tool, every.status());
  auto listen = service::parse_listen_address(flags.listen, "--listen");
  if (!listen.ok()) return fail(k_serve_tool, listen.status());
  service::ServeConfig config;
  config.audit = std::move(plan.config);
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
