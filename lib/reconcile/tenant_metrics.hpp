// The tenant quota block of a master's /metrics (live-master-api.md §6.2, §11.1), taken out of a
// parsed exposition by metric name and labels, never by position or family order.
//
// Per-tenant gauges (label tenant_id): mooncake_tenant_quota_{requested_bytes, effective_bytes,
// charged_bytes, admission_closed, over_quota, explicit_policy}; global gauges:
// mooncake_tenant_quota_{allocatable_capacity_bytes, requested_bytes_sum, effective_bytes_sum}.
// Other series (the master section, the reject/evict counters) are ignored.
#pragma once

#include "reconcile/live_types.hpp"
#include "reconcile/prometheus_text.hpp"
#include "util/status.hpp"

namespace moonquota::reconcile {

// The block is present when any tenant gauge, its TYPE/HELP line, or the capacity gauge appears.
// Errors (a bad live response, exit 3): corruption naming the metric, tenant and line when a value
// is not an exact unsigned integer (NaN, Inf, fractions, negatives), a flag is not 0 or 1, a
// charge exceeds 2^63-1, a series is duplicated, or a tenant gauge lacks tenant_id. A tenant that
// lacks one of the six gauges (an older or newer master) is not an error: it is listed in
// `incomplete` with the series it lacks, and the caller compares it with the tenant list.
// More than `max_tenants` distinct tenants is limit_exceeded, naming the line of the first one too
// many; reading stops there.
[[nodiscard]] util::Result<TenantMetrics> extract_tenant_metrics(const PromExposition& exposition,
                                                                 std::size_t max_tenants = k_default_max_tenants);

// parse_prometheus_text + extract_tenant_metrics, streamed: only the tenant block is kept, so
// memory follows the number of tenants, not the size of /metrics.
[[nodiscard]] util::Result<TenantMetrics> parse_tenant_metrics(std::string_view metrics_text,
                                                               std::size_t max_tenants = k_default_max_tenants);

}  // namespace moonquota::reconcile
