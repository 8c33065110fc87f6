// quota-reconcile's report as one self-contained HTML page: inline CSS, an inline SVG chart of the
// drift history (delta bytes over run time for the tenants with the largest drift, at most 8
// lines; just the current run without --db), a summary, a table row per tenant, the likely causes
// and the live findings. No script, no external reference; every element is closed and every text
// escaped, so the page is also well-formed XML.
#pragma once

#include <ostream>
#include <string>

#include "history/trend.hpp"
#include "reconcile/reconcile_run.hpp"

namespace moonquota::report {

// A non-empty `banner` is shown above the summary as a warning (serve: a stale comparison).
void render_reconcile_html(const reconcile::ReconcileReport& report, const history::TrendTable* trends,
                           const std::string& banner, std::ostream& out);

}  // namespace moonquota::report
