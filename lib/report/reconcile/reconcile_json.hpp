// quota-reconcile's report as `quota-reconcile/1` JSON (cli-contract.md): the contract's fields in
// the contract's order, then ours (additive). Integers exact; tenants bytewise; deterministic (no
// wall-clock time unless the live sample carries one).
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "history/trend.hpp"
#include "reconcile/reconcile_run.hpp"

namespace moonquota::report {

// `trends` may be null (no --db).
[[nodiscard]] nlohmann::ordered_json reconcile_report_json(const reconcile::ReconcileReport& report,
                                                           const history::TrendTable* trends);

// The JSON text as written by --format json (2-space indent, trailing newline).
// The same document written tenant by tenant (memory: one tenant's JSON, not the tree).
void write_reconcile_report_json(const reconcile::ReconcileReport& report, const history::TrendTable* trends,
                                 std::ostream& out);

[[nodiscard]] std::string reconcile_report_json_text(const reconcile::ReconcileReport& report,
                                                     const history::TrendTable* trends);

}  // namespace moonquota::report
