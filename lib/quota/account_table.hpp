// The account table a master serves after RebuildTenantQuotaUsageFromMetadata
// (quota-semantics.md §5, §6, §7.5): one stable account per tenant (every per-shard tenant
// state bound to it), charged = Σ size × COMPLETE MEMORY replicas, policies applied, orphans
// closed, effective quotas recomputed with the given capacity.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "restore/restored_state.hpp"
#include "util/status.hpp"

namespace moonquota::quota {

struct AccountRow {
  std::string tenant_id;
  std::uint64_t object_count = 0;
  std::uint64_t charged_bytes = 0;
  std::uint64_t requested_quota_bytes = 0;
  std::uint64_t effective_quota_bytes = 0;
  bool has_explicit_policy = false;
  bool admission_closed = true;
  bool over_quota = false;
  bool orphan = false;
  bool visible = false;
  bool valid_tenant_id = true;
  std::uint32_t shards = 0;  // metadata shards whose tenant state is bound to this account
};

struct AccountTable {
  std::vector<AccountRow> rows;  // bytewise by tenant id: tenants with objects or a policy
  std::uint64_t capacity_bytes = 0;
  std::uint64_t total_objects = 0;
  std::uint64_t total_charged_bytes = 0;  // saturating
};

// Builds the table. `usage` holds every tenant seen in restored metadata (objects may be 0:
// such tenants are left out unless they have a policy). `policy` maps tenant -> requested bytes.
// Errors: refused when a tenant's charge exceeds 2^63-1 (the master throws
// std::overflow_error("rebuilt tenant quota exceeds 2^63 - 1 bytes") and does not start).
[[nodiscard]] util::Result<AccountTable> build_account_table(const std::map<std::string, restore::TenantTally>& usage,
                                                             const std::map<std::string, std::uint64_t>& policy,
                                                             std::uint64_t capacity_bytes);

}  // namespace moonquota::quota
