// quota-reconcile's report as text for people: a header (metadata point, live source, age,
// tolerance), one table row per tenant, then the likely causes of each drift and the live
// findings. With `colour`, verdicts are coloured with ANSI escapes (the tool enables it on a TTY).
#pragma once

#include <ostream>

#include "history/trend.hpp"
#include "reconcile/reconcile_run.hpp"

namespace moonquota::report {

struct TextOptions {
  bool colour = false;
  std::size_t max_findings = 20;
};

// `trends` may be null (no --db).
void render_reconcile_text(const reconcile::ReconcileReport& report, const history::TrendTable* trends,
                           const TextOptions& options, std::ostream& out);

}  // namespace moonquota::report
