// Prometheus text exposition pieces shared by the textfile renderers (report/rebuild/rebuild_prom,
// report/reconcile/reconcile_prom).
#pragma once

#include <ostream>
#include <string_view>

namespace moonquota::report {

// The "# HELP <prefix><name> <help>" and "# TYPE <prefix><name> gauge" lines of one gauge family.
void gauge_family(std::ostream& out, std::string_view prefix, std::string_view name, std::string_view help);

}  // namespace moonquota::report
