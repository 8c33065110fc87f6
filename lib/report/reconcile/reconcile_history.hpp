// `quota-reconcile history`: the recorded trend, as text (one row per tenant, or one row per run
// with a tenant filter) or JSON (schema quota-reconcile-history/1), and as HTML with the chart.
#pragma once

#include <optional>
#include <ostream>
#include <string>

#include "history/trend.hpp"
#include "report/output_format.hpp"

namespace moonquota::report {

// `tenant`: show only that tenant, one row per run.
void render_history_text(const history::TrendTable& trends, const std::optional<std::string>& tenant,
                         std::ostream& out);
void render_history_json(const history::TrendTable& trends, const std::optional<std::string>& tenant,
                         std::ostream& out);
void render_history_html(const history::TrendTable& trends, const std::optional<std::string>& tenant,
                         std::ostream& out);

// The trend in `format`: json, html, or text for any other.
void render_history(const history::TrendTable& trends, const std::optional<std::string>& tenant, OutputFormat format,
                    std::ostream& out);

}  // namespace moonquota::report
