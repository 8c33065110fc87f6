// TEST SUPPORT: a stand-in for a Mooncake master's admin HTTP port (live-master-api.md), used by
// the quota-reconcile tests because the real master cannot run here. It is a real cpp-httplib
// server bound to 127.0.0.1 on a port chosen at run time, serving exactly the documented surface:
//   GET /api/v1/tenant_quotas            list (§5.1): 503 gate, 409 -1011 when multi-tenancy is off
//   GET /api/v1/tenant_quotas?tenant_id= one tenant (§5.2): 400 -600 invalid id, 404 -704, empty = list
//   GET /metrics                         master section, then the tenant block laid out like a real
//                                        master (§11.1: HELP/TYPE first, samples grouped by tenant)
//   PUT /api/v1/tenant_quotas?tenant_id= upsert a policy (§5.3): 400 checks first, the 503 gate, 409
//                                        mode off, 500 -1503 when persisting fails (state unchanged)
//   DELETE /api/v1/tenant_quotas?tenant_id= (§5.4): 404 without a policy, 409 -1702 TENANT_NOT_EMPTY
//                                        while charged or holding objects, 500 -1503, then data null
//   POST /api/v1/remove_all?tenant_id=&force= the tenant's objects removed (the id is not URL-decoded;
//                                        an empty id removes every tenant's); {"success":true,
//                                        "removed_count":N}. The stand-in has no leases: force or not,
//                                        every object of the tenant goes; a --drift (a leak) stays
// The admin routes recompute the table from the state a restore rebuilt (usage, policy, capacity)
// as the master does (quota::build_account_table).
// Bodies are byte-compatible with ylt struct_json (compact, declaration order, non-ASCII as
// uppercase \uXXXX). The state comes from an account table our library computed from a store;
// knobs inject drift and faults. Nothing here is part of the product.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "quota/account_table.hpp"
#include "reconcile/live_types.hpp"
#include "restore/restored_state.hpp"

namespace moonquota::test {

struct StandInKnobs {
  std::map<std::string, std::int64_t> drift_bytes;      // tenant -> signed bytes added to its charge
  std::map<std::string, std::uint64_t> inflight_bytes;  // added on odd-numbered requests of each route
  std::set<std::string> hidden;                         // tenants the master does not list
  std::vector<reconcile::LiveTenant> extra;             // tenants only the master lists
  std::set<std::string> flip_admission;                 // tenants whose admission_closed is inverted
  std::uint32_t unavailable_first = 0;  // first N list/one requests: 503 (and /metrics without the block)
  bool multi_tenancy_off = false;       // 409 -1011 on the list; /metrics without the block
  std::uint32_t slow_ms = 0;            // delay before every answer
  std::uint32_t reset_first = 0;        // first N requests (any route): headers, then the connection drops
  std::string malformed;                // "" | "json" (truncated) | "negative" | "float" | "metrics"
  bool omit_tenant_block = false;       // /metrics without the tenant block while the list answers
  // Faults of the network between us and the master (not the master's API): a reverse proxy's
  // HTML error page, and a body cut short.
  std::uint32_t proxy_error_first = 0;  // first N requests (any route): an HTML page with proxy_status
  int proxy_status = 502;
  std::uint32_t truncate_first = 0;  // first N requests: the full Content-Length, half the body, then close
  // An older or newer master: /metrics lacks the gauge mooncake_tenant_quota_<family> of a tenant.
  std::map<std::string, std::string> omit_series;  // tenant -> family (e.g. "over_quota")
  // The HA section (always served, as a master at 3b5a5941 does): a standby's applied sequence
  // and state; the perf-build gauges of a primary's writer only when `ha_perf_durable_sequence`
  // is set (docs/design/failover-positions.md).
  std::uint64_t ha_applied_sequence = 0;
  std::uint64_t ha_standby_state = 0;
  std::optional<std::uint64_t> ha_perf_durable_sequence;
  std::uint64_t ha_perf_last_batch_id = 0;
  std::uint64_t ha_perf_committed_queue_depth = 0;
  std::uint32_t persist_fail_first = 0;  // first N PUT/DELETE: the connector save fails (500 -1503)
};

// What the admin routes change: per-tenant usage, the policy, the capacity.
struct StandInAdminState {
  std::map<std::string, restore::TenantTally> usage;
  std::map<std::string, std::uint64_t> policy;
  std::uint64_t capacity_bytes = 0;
};

// Visible rows of an account table as the master lists them (explicit policy or charged > 0).
[[nodiscard]] std::vector<reconcile::LiveTenant> live_tenants_from(const quota::AccountTable& table);

class MasterStandIn {
 public:
  MasterStandIn(std::vector<reconcile::LiveTenant> tenants, std::uint64_t capacity_bytes, StandInKnobs knobs);
  // With the admin routes (PUT, DELETE, remove_all): the table is recomputed from `admin`.
  MasterStandIn(StandInAdminState admin, StandInKnobs knobs);
  ~MasterStandIn();
  MasterStandIn(const MasterStandIn&) = delete;
  MasterStandIn& operator=(const MasterStandIn&) = delete;

  // Binds 127.0.0.1:`port` (0: any free port) and serves on a thread. Returns the port, or -1.
  int start(int port = 0);
  void stop();

  // The bodies as served now (exposed for tests of the stand-in itself).
  [[nodiscard]] std::string list_body(std::uint64_t request_number) const;
  [[nodiscard]] std::string metrics_body(std::uint64_t request_number, bool with_tenant_block) const;

 private:
  struct Server;
  [[nodiscard]] std::vector<reconcile::LiveTenant> tenants_now(std::uint64_t request_number) const;
  void recompute();            // m_tenants from m_admin (holding m_mutex)
  mutable std::mutex m_mutex;  // m_tenants and m_admin: the admin routes change them
  std::optional<StandInAdminState> m_admin;
  std::atomic<std::uint32_t> m_persist_attempts{0};
  std::vector<reconcile::LiveTenant> m_tenants;
  std::uint64_t m_capacity_bytes;
  StandInKnobs m_knobs;
  std::unique_ptr<Server> m_server;
  std::thread m_thread;
  std::atomic<std::uint64_t> m_list_requests{0};
  std::atomic<std::uint64_t> m_metrics_requests{0};
  std::atomic<std::uint64_t> m_gated_requests{0};
  std::atomic<std::uint64_t> m_all_requests{0};
};

// JSON string escaping as ylt struct_json writes it: \" \\ control bytes as \u00XX, and every
// non-ASCII code point as \uXXXX with uppercase hex (surrogate pairs above U+FFFF).
[[nodiscard]] std::string ylt_json_string(const std::string& raw);

}  // namespace moonquota::test
