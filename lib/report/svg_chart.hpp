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

// The element id and the texts of a chart (the defaults are the drift chart's); a page with
// several charts gives each its own id.
struct ChartText {
  std::string id = "drift-chart";
  std::string title = "Drift history: live minus expected charged bytes per run";
  std::string aria_label = "delta bytes per run";
};

void render_svg_chart(const std::vector<ChartSeries>& series, std::ostream& out, const ChartText& text = {});

}  // namespace moonquota::report
