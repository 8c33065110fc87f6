#include "quota/tenant_drops.hpp"

#include <algorithm>

#include "util/checked_math.hpp"

namespace moonquota::quota {

namespace {

// The account row's charge (rows are sorted bytewise by tenant id, account_table.hpp), then the
// charge without the drops.
void finish(TenantDrops& d, const AccountTable& table, const std::string& tenant, util::u128 dropped_bytes) {
  auto it = std::lower_bound(table.rows.begin(), table.rows.end(), tenant,
                             [](const AccountRow& row, const std::string& id) { return row.tenant_id < id; });
  d.has_account = it != table.rows.end() && it->tenant_id == tenant;
  d.charged_bytes = d.has_account ? it->charged_bytes : 0;
  d.charged_bytes_without_drops = util::saturated_charge(util::u128{d.charged_bytes} + dropped_bytes);
}

}  // namespace

DropTable restore_drop_table(const std::map<std::string, restore::TenantTally>& tallies, const AccountTable& table) {
  DropTable out;
  for (const auto& [tenant, tally] : tallies) {
    TenantDrops d;
    d.non_complete = {tally.dropped.non_complete, util::saturated_charge(tally.evidence.dropped_non_complete_bytes)};
    d.lease_expired = {tally.dropped.lease_expired, util::saturated_charge(tally.evidence.dropped_lease_expired_bytes)};
    d.undecodable = tally.dropped.undecodable;
    if (!d.any()) continue;
    finish(d, table, tenant, tally.evidence.dropped_non_complete_bytes + tally.evidence.dropped_lease_expired_bytes);
    out.tenants.emplace(tenant, d);
  }
  return out;
}

DropTable standby_drop_table(const restore::StandbyBootstrap& bootstrap, const AccountTable& table) {
  DropTable out;
  out.standby = true;
  for (const auto& [tenant, s] : bootstrap.tenants) {
    TenantDrops d;
    d.non_complete = {s.objects.non_complete, util::saturated_charge(s.non_complete_bytes)};
    d.lease_expired = {s.objects.lease_expired, util::saturated_charge(s.lease_expired_bytes)};
    d.size_zero = s.objects.size_zero;
    d.invalid_memory = s.objects.invalid_memory;
    if (!d.any()) continue;
    finish(d, table, tenant, s.non_complete_bytes + s.lease_expired_bytes);
    out.tenants.emplace(tenant, d);
  }
  return out;
}

}  // namespace moonquota::quota
