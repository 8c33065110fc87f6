// An inline SVG line chart of signed byte deltas over time (the HTML report's drift chart).
// Fixed 860x320 canvas; x = run time (UTC labels), y = delta bytes with a dashed zero line; one
// coloured polyline with point markers per series and a legend. Pure text, no script.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace moonquota::report {

struct ChartPoint {
  std::uint64_t at_ms = 0;
  std::int64_t delta_bytes = 0;
};

struct ChartSeries {
  std::string name;
  std::vector<ChartPoint> points;  // oldest first
};

void render_svg_chart(const std::vector<ChartSeries>& series, std::ostream& out);

}  // namespace moonquota::report
