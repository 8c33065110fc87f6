#include "quota/account_table.hpp"

#include "model/tenant_id.hpp"
#include "quota/effective_quota.hpp"
#include "util/checked_math.hpp"
#include "util/text_encoding.hpp"

namespace moonquota::quota {

namespace {

std::string u128_to_string(util::u128 v) {
  if (v == 0) return "0";
  std::string s;
  while (v > 0) {
    s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
    v /= 10;
  }
  return s;
}

}  // namespace

util::Result<AccountTable> build_account_table(const std::map<std::string, restore::TenantTally>& usage,
                                               const std::map<std::string, std::uint64_t>& policy,
                                               std::uint64_t capacity_bytes) {
  AccountTable table;
  table.capacity_bytes = capacity_bytes;
  std::map<std::string, AccountRow> rows;
  for (const auto& [tenant, tally] : usage) {
    if (tally.objects == 0) continue;  // no restored object: no usage entry
    if (tally.charged_bytes > util::k_max_charged_bytes) {
      return util::Status::refused("rebuilt tenant quota exceeds 2^63 - 1 bytes: tenant '" + util::printable(tenant) +
                                   "' would be charged " + u128_to_string(tally.charged_bytes) +
                                   " bytes; the master throws std::overflow_error and does not start");
    }
    AccountRow& row = rows[tenant];
    row.tenant_id = tenant;
    row.object_count = tally.objects;
    row.charged_bytes = static_cast<std::uint64_t>(tally.charged_bytes);
    row.shards = tally.shards;
    row.orphan = true;  // until a policy says otherwise
  }
  for (const auto& [tenant, requested] : policy) {
    AccountRow& row = rows[tenant];
    row.tenant_id = tenant;
    row.has_explicit_policy = true;
    row.requested_quota_bytes = requested;
    row.orphan = false;
  }
  const auto effective = compute_effective_quotas(policy, capacity_bytes);
  for (auto& [tenant, row] : rows) {
    auto it = effective.find(tenant);
    row.effective_quota_bytes = it == effective.end() ? 0 : it->second;
    row.admission_closed = !row.has_explicit_policy;
    row.over_quota = row.charged_bytes > row.effective_quota_bytes;
    row.visible = row.has_explicit_policy || row.charged_bytes > 0;
    row.valid_tenant_id = model::is_valid_tenant_id(tenant);
    table.total_objects += row.object_count;
    table.total_charged_bytes = util::saturating_add(table.total_charged_bytes, row.charged_bytes);
    table.rows.push_back(std::move(row));
  }
  return table;
}

}  // namespace moonquota::quota
