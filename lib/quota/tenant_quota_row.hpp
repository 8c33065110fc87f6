// One row of a master's tenant quota table (HttpTenantQuotaSnapshot, live-master-api.md §4): what
// a live master lists (reconcile::LiveTenant) and what an expected table holds (quota-rebuild
// --expect, snapshot-golden), in the master's member order.
#pragma once

#include <cstdint>
#include <string>

namespace moonquota::quota {

struct TenantQuotaRow {
  std::string tenant_id;
  std::uint64_t requested_quota_bytes = 0;
  std::uint64_t effective_quota_bytes = 0;
  std::uint64_t charged_bytes = 0;
  bool admission_closed = false;
  bool over_quota = false;
  bool has_explicit_policy = false;
  bool operator==(const TenantQuotaRow&) const = default;
};

}  // namespace moonquota::quota
