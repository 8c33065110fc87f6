#include "report/reconcile/reconcile_report.hpp"

#include "report/reconcile/reconcile_html.hpp"
#include "report/reconcile/reconcile_json.hpp"
#include "report/reconcile/reconcile_markdown.hpp"
#include "report/reconcile/reconcile_prom.hpp"

namespace moonquota::report {

void render_reconcile(const reconcile::ReconcileReport& report, const history::TrendTable* trends, OutputFormat format,
                      const ReconcileRenderOptions& options, std::ostream& out) {
  switch (format) {
    case OutputFormat::json:
    case OutputFormat::ndjson: return write_reconcile_report_json(report, trends, out);
    case OutputFormat::markdown: return render_reconcile_markdown(report, trends, out);
    case OutputFormat::prom:
      return render_reconcile_prom(report, trends, options.run_at_ms, options.exit_code, options.cluster, out);
    case OutputFormat::html: return render_reconcile_html(report, trends, options.banner, out);
    case OutputFormat::text: return render_reconcile_text(report, trends, options.text, out);
  }
}

}  // namespace moonquota::report
