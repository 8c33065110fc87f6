// GET /api/v1/tenant_quotas (list) responses (live-master-api.md §2, §3, §5.1, §8, §9).
//
// Classification is by HTTP status first, then error_code; error_message text is only reported:
//   503                      -> unavailable: "service plane is not active" (not the serving leader)
//   409 with error_code -1011 -> unsupported: multi-tenancy disabled on the live master
//   200 {"success":true,"data":[snapshot...]} -> the rows
//   anything else            -> corruption (an unexpected or malformed live response)
// Rows: every member of §4 must be present with its type; integers must be exact non-negative
// integers (never floats; nlohmann keeps integers exact), charges at most 2^63-1. Member order and
// whitespace do not matter; unknown members are ignored.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "reconcile/live_types.hpp"
#include "util/status.hpp"

namespace moonquota::reconcile {

// `http_status` is empty for a saved body (--live-json): then a {"success":false} body is
// classified by error_code -1011 alone, its message telling a standby ("service plane is not
// active") from multi-tenancy off. A list of more than `max_tenants` rows is limit_exceeded,
// naming the first row too many; reading stops there.
[[nodiscard]] util::Result<std::vector<LiveTenant>> parse_tenant_list_response(
    std::optional<int> http_status, std::string_view body, std::size_t max_tenants = k_default_max_tenants);

}  // namespace moonquota::reconcile
