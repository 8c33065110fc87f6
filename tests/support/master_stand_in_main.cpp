// TEST SUPPORT PROGRAM (not a tool): runs the master stand-in of master_stand_in.hpp over the
// account table that quota-rebuild's library computes from a store. Prints its URL
// ("http://127.0.0.1:PORT") as the first stdout line, then serves until SIGTERM or SIGINT.
#include <CLI/CLI.hpp>
#include <csignal>
#include <iostream>

#include "format/policy_yaml.hpp"
#include "quota/rebuild.hpp"
#include "source/local_object_store.hpp"
#include "support/master_stand_in.hpp"

namespace mq = moonquota;

namespace {

// "tenant=123" or "tenant=-5"; the last '=' splits, so ids may contain '='.
bool split_assignment(const std::string& text, std::string& tenant, std::int64_t& value) {
  auto eq = text.rfind('=');
  if (eq == std::string::npos || eq == 0) return false;
  tenant = text.substr(0, eq);
  try {
    std::size_t used = 0;
    value = std::stoll(text.substr(eq + 1), &used);
    return used == text.size() - eq - 1;
  } catch (const std::exception&) { return false; }
}

// What a running master charges beyond the committed value while operations are pending
// (quota-semantics.md §3, §16; live-master-api.md §11 item 8).
void charge_pending(const std::map<std::string, mq::restore::TenantTally>& tallies, mq::quota::AccountTable& table) {
  for (auto& row : table.rows) {
    auto it = tallies.find(row.tenant_id);
    if (it == tallies.end()) continue;
    const auto& e = it->second.evidence;
    const mq::util::u128 pending = e.in_flight_bytes + e.upserts.old_bytes + e.removed_bytes;
    const mq::util::u128 charged = pending + row.charged_bytes;
    row.charged_bytes = mq::util::saturated_charge(charged);
    row.over_quota = row.charged_bytes > row.effective_quota_bytes;
    row.visible = row.has_explicit_policy || row.charged_bytes > 0;
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"TEST SUPPORT: a stand-in for a Mooncake master's admin port (tenant quota API and /metrics)"};
  app.name("master-stand-in");
  mq::quota::RebuildRequest request;
  std::string policy, capacity = "auto";
  std::uint64_t restore_time_ms = 0;
  int port = 0;
  std::vector<std::string> drift, inflight, extra;
  std::vector<std::string> hidden, flips;
  std::optional<std::uint64_t> live_capacity;
  mq::test::StandInKnobs knobs;
  app.add_option("--store", request.selection.store_dir, "Snapshot store the state is computed from");
  app.add_option("--snapshot-dir", request.selection.snapshot_dir, "One snapshot directory instead");
  app.add_option("--policy", policy, "Policy YAML");
  app.add_option("--capacity", capacity, "auto | failover | BYTES");
  auto* restore_time = app.add_option("--restore-time", restore_time_ms, "Restore time (ms): the restore model");
  std::string model = "restore";
  app.add_option("--model", model,
                 "restore (default: serve what a restore at --restore-time rebuilt) | live (what a running master "
                 "holds for the metadata)")
      ->check(CLI::IsMember({"live", "restore"}));
  bool charge_in_flight = false;
  app.add_flag("--charge-in-flight", charge_in_flight,
               "Also charge what the metadata shows in flight (PROCESSING and REMOVED MEMORY replicas, old bytes of "
               "upserts in flight), as a running master does while those operations are pending");
  app.add_option("--port", port, "Loopback port (default 0: any free port)");
  app.add_option("--drift", drift, "TENANT=±BYTES added to the tenant's charge (repeatable)");
  app.add_option("--inflight", inflight, "TENANT=BYTES added on odd-numbered requests of each route (repeatable)");
  app.add_option("--hide", hidden, "Do not list TENANT (repeatable)");
  app.add_option("--extra", extra, "TENANT=BYTES: an orphan only the master lists (repeatable)");
  app.add_option("--flip-admission", flips, "Invert TENANT's admission_closed (repeatable)");
  app.add_option("--unavailable-first", knobs.unavailable_first, "Answer 503 to the first N list requests");
  app.add_flag("--mode-off", knobs.multi_tenancy_off, "Multi-tenancy off: 409 -1011 on the list");
  app.add_option("--slow-ms", knobs.slow_ms, "Delay every answer");
  app.add_option("--reset-first", knobs.reset_first, "Drop the connection after the headers for the first N requests");
  app.add_option("--malformed", knobs.malformed, "json | negative | float | metrics")
      ->check(CLI::IsMember({"json", "negative", "float", "metrics"}));
  app.add_flag("--no-tenant-block", knobs.omit_tenant_block, "Serve /metrics without the tenant block");
  app.add_option("--proxy-error-first", knobs.proxy_error_first,
                 "Answer the first N requests (any route) with a reverse proxy's HTML error page");
  app.add_option("--proxy-status", knobs.proxy_status, "HTTP status of that page (default 502)")
      ->check(CLI::Range(400, 599));
  app.add_option("--truncate-first", knobs.truncate_first,
                 "Send half the body of the first N answers under the full Content-Length, then close");
  std::vector<std::string> omit_series;
  app.add_option("--omit-series", omit_series,
                 "TENANT=FAMILY: /metrics lacks mooncake_tenant_quota_FAMILY for TENANT (repeatable)");
  app.add_option("--persist-fail-first", knobs.persist_fail_first,
                 "The first N PUT/DELETE requests fail to persist the policy: 500 -1503, nothing changed");
  app.add_option("--live-capacity", live_capacity, "Capacity gauge value (default: the rebuilt capacity)");
  app.add_option("--ha-applied-sequence", knobs.ha_applied_sequence,
                 "/metrics: ha_oplog_applied_sequence_id (a standby's applied sequence)");
  app.add_option("--ha-standby-state", knobs.ha_standby_state, "/metrics: ha_standby_state (0-8)");
  std::uint64_t perf_durable = 0;
  auto* perf = app.add_option("--ha-perf-durable-sequence", perf_durable,
                              "/metrics: a perf build's ha_batch_record_* gauges, with this durable sequence");
  app.add_option("--ha-perf-last-batch-id", knobs.ha_perf_last_batch_id, "ha_batch_record_last_batch_id")->needs(perf);
  app.add_option("--ha-perf-committed-queue-depth", knobs.ha_perf_committed_queue_depth,
                 "ha_batch_record_committed_queue_depth")
      ->needs(perf);
  CLI11_PARSE(app, argc, argv);
  if (perf->count() > 0) knobs.ha_perf_durable_sequence = perf_durable;

  auto cap = mq::quota::parse_capacity(capacity);
  if (!cap.ok()) {
    std::cerr << "master-stand-in: " << cap.status().message() << "\n";
    return 2;
  }
  request.capacity = *cap;
  if (model == "restore" && restore_time->count() == 0) {
    std::cerr << "master-stand-in: --restore-time is required with --model restore\n";
    return 2;
  }
  request.restore.restore_time_ms = restore_time_ms;
  request.restore.charge_model = model == "live" ? mq::restore::ChargeModel::live : mq::restore::ChargeModel::restore;
  if (!policy.empty()) request.policy_file = policy;
  mq::source::LocalObjectStore files;
  auto rebuilt = mq::quota::run_rebuild(files, request);
  if (!rebuilt.ok()) {
    std::cerr << "master-stand-in: " << rebuilt.status().message() << "\n";
    return 3;
  }
  if (charge_in_flight && rebuilt->outcome.state) charge_pending(rebuilt->outcome.state->tenants, rebuilt->table);
  for (const auto& d : drift) {
    std::string t;
    std::int64_t v = 0;
    if (!split_assignment(d, t, v)) return std::cerr << "master-stand-in: bad --drift " << d << "\n", 2;
    knobs.drift_bytes[t] = v;
  }
  for (const auto& d : inflight) {
    std::string t;
    std::int64_t v = 0;
    if (!split_assignment(d, t, v) || v < 0) return std::cerr << "master-stand-in: bad --inflight " << d << "\n", 2;
    knobs.inflight_bytes[t] = static_cast<std::uint64_t>(v);
  }
  for (const auto& d : extra) {
    std::string t;
    std::int64_t v = 0;
    if (!split_assignment(d, t, v) || v <= 0) return std::cerr << "master-stand-in: bad --extra " << d << "\n", 2;
    knobs.extra.push_back({t, 0, 0, static_cast<std::uint64_t>(v), true, true, false});
  }
  for (const auto& o : omit_series) {
    const auto eq = o.rfind('=');
    if (eq == std::string::npos || eq == 0) return std::cerr << "master-stand-in: bad --omit-series " << o << "\n", 2;
    knobs.omit_series[o.substr(0, eq)] = o.substr(eq + 1);
  }
  knobs.hidden.insert(hidden.begin(), hidden.end());
  knobs.flip_admission.insert(flips.begin(), flips.end());

  // Block the stop signals before any thread starts, so every thread inherits the mask.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  // The admin routes recompute from what the restore rebuilt: its usage, the policy, the capacity.
  mq::test::StandInAdminState admin;
  if (rebuilt->outcome.state) admin.usage = rebuilt->outcome.state->tenants;
  if (rebuilt->promote) admin.usage = rebuilt->promote->validation.tenants;
  if (!policy.empty()) {
    auto loaded = mq::format::load_policy_file(policy);
    if (!loaded.ok()) return std::cerr << "master-stand-in: " << loaded.status().message() << "\n", 3;
    admin.policy = loaded->quotas;
  }
  admin.capacity_bytes = live_capacity.value_or(rebuilt->table.capacity_bytes);
  mq::test::MasterStandIn stand_in =
      charge_in_flight
          ? mq::test::MasterStandIn(mq::test::live_tenants_from(rebuilt->table), admin.capacity_bytes, knobs)
          : mq::test::MasterStandIn(std::move(admin), knobs);
  const int bound = stand_in.start(port);
  if (bound < 0) {
    std::cerr << "master-stand-in: cannot bind 127.0.0.1:" << port << "\n";
    return 4;
  }
  std::cout << "http://127.0.0.1:" << bound << std::endl;
  int signal_number = 0;
  sigwait(&stop_signals, &signal_number);
  stand_in.stop();
  return 0;
}
