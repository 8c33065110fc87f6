// The promotion-path parts of the quota-rebuild report: the "promotion" JSON block and the text
// header lines (standby bootstrap, OpLog replay, restore validation, failover capacity).
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

#include "quota/rebuild.hpp"

namespace moonquota::report {

// The additive "promotion" block of quota-rebuild/1 (only when result.promote is set).
[[nodiscard]] nlohmann::ordered_json promotion_json(const quota::RebuildResult& result);

// The text lines above the table for the promotion path.
void render_promotion_header(const quota::RebuildResult& result, std::ostream& out);

// Tenants reading over_quota in the table (right after failover when capacity is 0).
[[nodiscard]] std::vector<std::string> over_quota_tenants(const quota::RebuildResult& result);

}  // namespace moonquota::report
