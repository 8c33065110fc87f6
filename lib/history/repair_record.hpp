// One applied (or refused) step of a repair plan as the history keeps it (quota-reconcile apply
// --db): what was sent, and the tenant as the master showed it just before and just after, so the
// evidence outlives the fix.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "quota/tenant_quota_row.hpp"

namespace moonquota::history {

struct RepairRecord {
  std::uint64_t at_ms = 0;             // when the step ran
  std::string cluster;                 // the plan's
  std::uint64_t plan_audit_at_ms = 0;  // the audit the plan was made from
  std::uint32_t step = 0;              // its index in the plan
  std::string action;                  // reconcile::repair_action_name
  std::string tenant_id;
  std::string request;                                 // the request line sent ("" when nothing was sent)
  std::string outcome;                                 // applied | skipped | failed | declined | informational
  std::string detail;                                  // the answer, or why it was skipped
  std::optional<quota::TenantQuotaRow> before, after;  // none: not listed (404)
  bool operator==(const RepairRecord&) const = default;
};

}  // namespace moonquota::history
