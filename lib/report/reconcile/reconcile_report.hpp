// quota-reconcile's report in the format the caller chose: one entry point over the text,
// JSON (quota-reconcile/1), Markdown, Prometheus textfile and HTML renderers.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "history/trend.hpp"
#include "reconcile/reconcile_run.hpp"
#include "report/output_format.hpp"
#include "report/reconcile/reconcile_text.hpp"

namespace moonquota::report {

struct ReconcileRenderOptions {
  TextOptions text;                 // text only
  std::uint64_t run_at_ms = 0;      // prom: the sample time of the run
  int exit_code = 0;                // prom: the run's exit code
  std::string cluster = "default";  // prom: the cluster label of every series
  std::string banner;               // html: a warning above the summary (serve: a stale comparison)
};

// `trends` may be null (no --db). ndjson writes json.
void render_reconcile(const reconcile::ReconcileReport& report, const history::TrendTable* trends, OutputFormat format,
                      const ReconcileRenderOptions& options, std::ostream& out);

}  // namespace moonquota::report
