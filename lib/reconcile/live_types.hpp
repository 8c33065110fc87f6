// What a live master reports about tenant quota (live-master-api.md §4, §6.2), as plain data.
// Every number is an exact uint64 taken from the wire; ids are unescaped raw bytes.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "quota/tenant_quota_row.hpp"

namespace moonquota::reconcile {

// How many distinct tenants one live answer (a /metrics text or a tenant list) may hold before the
// readers refuse it (`--max-tenants` changes it). A real master serves thousands; the limit bounds
// what a hostile or broken answer costs: each tenant costs a few hundred bytes wherever it goes
// (reading, comparing, reporting), whatever the size of the answer.
inline constexpr std::size_t k_default_max_tenants = 100'000;

// One HttpTenantQuotaSnapshot (the JSON list row), or the six per-tenant gauges of /metrics.
using LiveTenant = quota::TenantQuotaRow;

// The six per-tenant gauges of /metrics (live-master-api.md §6.2), in the master's order.
inline constexpr std::array<std::string_view, 6> k_tenant_series_names = {
    "mooncake_tenant_quota_requested_bytes", "mooncake_tenant_quota_effective_bytes",
    "mooncake_tenant_quota_charged_bytes",   "mooncake_tenant_quota_admission_closed",
    "mooncake_tenant_quota_over_quota",      "mooncake_tenant_quota_explicit_policy"};

// A tenant of /metrics that lacks some of the six gauges (an older or newer master): the values
// it has (the missing ones 0/false) and which series are missing, as a bit mask over
// k_tenant_series_names (a mask, not names: a hostile /metrics can hold millions of such tenants).
struct IncompleteTenant {
  LiveTenant seen;
  std::uint8_t missing_mask = 0;
  [[nodiscard]] std::vector<std::string_view> missing_series() const {
    std::vector<std::string_view> names;
    for (std::size_t i = 0; i < k_tenant_series_names.size(); ++i) {
      if ((missing_mask >> i) & 1u) names.push_back(k_tenant_series_names[i]);
    }
    return names;
  }
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
