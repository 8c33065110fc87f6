// quota-reconcile's report as Markdown for an incident ticket: a summary, a table of the tenants
// that drift (all tenants with `all_tenants`), the likely causes of each, and live findings.
// Every text from the report (tenant ids in cells and headings, causes, findings) goes through
// markdown_escape, so any legal id shows exactly; ids are plain text, never code spans.
#pragma once

#include <ostream>

#include "history/trend.hpp"
#include "reconcile/reconcile_run.hpp"

namespace moonquota::report {

void render_reconcile_markdown(const reconcile::ReconcileReport& report, const history::TrendTable* trends,
                               std::ostream& out);

}  // namespace moonquota::report
