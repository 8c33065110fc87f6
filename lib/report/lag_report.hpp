// `oplog-inspect lag` as text or JSON (schema oplog-inspect-lag/1).
#pragma once

#include <ostream>

#include "reconcile/lag_positions.hpp"
#include "report/output_format.hpp"

namespace moonquota::report {

inline constexpr const char* k_lag_schema = "oplog-inspect-lag/1";

void render_lag(const reconcile::LagReport& report, OutputFormat format, std::ostream& out);

}  // namespace moonquota::report
