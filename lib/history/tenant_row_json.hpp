// A master's tenant row (quota::TenantQuotaRow, its id aside) as the history keeps it beside a
// repair step and `quota-reconcile history --format json` shows it; null for a tenant not listed.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "quota/tenant_quota_row.hpp"

namespace moonquota::history {

[[nodiscard]] nlohmann::ordered_json tenant_row_json(const std::optional<quota::TenantQuotaRow>& row);

// The row of `j` (tenant_row_json's form) for `tenant_id`. Throws nlohmann's exceptions on a
// member missing or of another type (the history reader turns them into corruption).
[[nodiscard]] std::optional<quota::TenantQuotaRow> tenant_row_from(const nlohmann::json& j,
                                                                   const std::string& tenant_id);

}  // namespace moonquota::history
