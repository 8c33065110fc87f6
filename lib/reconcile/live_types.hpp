// What a live master reports about tenant quota (live-master-api.md §4, §6.2), as plain data.
// Every number is an exact uint64 taken from the wire; ids are unescaped raw bytes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace moonquota::reconcile {

// One HttpTenantQuotaSnapshot (the JSON list row), or the six per-tenant gauges of /metrics.
struct LiveTenant {
  std::string tenant_id;
  std::uint64_t requested_quota_bytes = 0;
  std::uint64_t effective_quota_bytes = 0;
  std::uint64_t charged_bytes = 0;
  bool admission_closed = false;
  bool over_quota = false;
  bool has_explicit_policy = false;
  bool operator==(const LiveTenant&) const = default;
};

// A tenant of /metrics that lacks some of the six gauges (an older or newer master): the values
// it has (the missing ones 0/false) and the names of the missing series.
struct IncompleteTenant {
  LiveTenant seen;
  std::vector<std::string> missing_series;
};

// The tenant block of /metrics (§6.1, §11.1). `block_present` is false when the master omitted it
// (standby, multi-tenancy off, or listing/capacity sampling failed at scrape time).
struct TenantMetrics {
  bool block_present = false;
  std::vector<LiveTenant> tenants;           // complete tenants, in the order their first series appeared
  std::vector<IncompleteTenant> incomplete;  // tenants lacking a gauge: not in `tenants`
  std::optional<std::uint64_t> capacity_bytes;
  std::optional<std::uint64_t> requested_sum_bytes;
  std::optional<std::uint64_t> effective_sum_bytes;
};

}  // namespace moonquota::reconcile
