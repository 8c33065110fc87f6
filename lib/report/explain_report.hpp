// One tenant's drill-down (restore::TenantExplanation, `--explain TENANT`) as the `explain`
// member of the JSON reports and as a text section, shared by quota-rebuild and quota-reconcile.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "restore/tenant_explain.hpp"

namespace moonquota::report {

// {"tenant_id", "model", "top", "charged", "in_flight", "dropped_non_complete",
//  "dropped_lease_expired": {"objects", "bytes", "largest": [{"key", "shard", "size",
//  "memory_replicas": {"complete", "processing", "removed"}, "all_complete", "lease_timeout_ms",
//  "put_start_time_ms", "bytes"}]}, "undecodable"}; `model` says which model made the numbers.
[[nodiscard]] nlohmann::ordered_json explain_json(const restore::TenantExplanation& e, const std::string& model);

// "EXPLAIN <tenant> (<model>)", the totals of each part (the live model: no drop parts), the
// `after_totals` lines, then each non-empty part's largest objects as a table. Starts with an
// empty line.
void render_explain_text(const restore::TenantExplanation& e, const std::string& model, std::ostream& out,
                         const std::string& after_totals = {});

}  // namespace moonquota::report
