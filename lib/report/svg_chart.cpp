#include "report/svg_chart.hpp"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <vector>

#include "report/escape.hpp"
#include "util/text_encoding.hpp"

namespace moonquota::report {

namespace {

constexpr double k_width = 860, k_height = 320;
constexpr double k_left = 90, k_right = 190, k_top = 20, k_bottom = 40;
constexpr const char* k_palette[] = {"#0969da", "#cf222e", "#1a7f37", "#8250df",
                                     "#bc4c00", "#1b7c83", "#bf3989", "#6e7781"};

std::string utc_seconds(std::uint64_t ms) {
  std::time_t t = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm);
  return buf;
}

std::string one_decimal(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

// At most 24 bytes of a UTF-8 name, cut on a code point boundary; other names whole (html_escape
// turns their bytes into \xNN text).
std::string legend_name(const std::string& name) {
  if (name.size() <= 24 || !util::is_valid_utf8(name)) return name;
  std::size_t cut = 24;
  while (cut > 0 && (static_cast<unsigned char>(name[cut]) & 0xC0) == 0x80) --cut;
  return name.substr(0, cut) + "...";
}

}  // namespace

void render_svg_chart(const std::vector<ChartSeries>& series, std::ostream& out, const ChartText& text) {
  std::uint64_t t_min = UINT64_MAX, t_max = 0;
  std::int64_t d_min = 0, d_max = 0;
  for (const auto& s : series) {
    for (const auto& p : s.points) {
      t_min = std::min(t_min, p.at_ms);
      t_max = std::max(t_max, p.at_ms);
      d_min = std::min(d_min, p.delta_bytes);
      d_max = std::max(d_max, p.delta_bytes);
    }
  }
  if (t_min > t_max) t_min = t_max = 0;
  if (d_min == d_max) d_max = d_min + 1;
  const double plot_w = k_width - k_left - k_right, plot_h = k_height - k_top - k_bottom;
  auto x_of = [&](std::uint64_t t) {
    if (t_max == t_min) return k_left + plot_w / 2;
    return k_left + plot_w * static_cast<double>(t - t_min) / static_cast<double>(t_max - t_min);
  };
  auto y_of = [&](std::int64_t d) {
    // In double: d - d_min can exceed int64 when deltas of both signs are near 2^63.
    const double lo = static_cast<double>(d_min), hi = static_cast<double>(d_max);
    return k_top + plot_h * (1.0 - (static_cast<double>(d) - lo) / (hi - lo));
  };
  out << "<svg id=\"" << html_escape(text.id) << "\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" << k_width
      << "\" height=\"" << k_height << "\" viewBox=\"0 0 " << k_width << " " << k_height
      << "\" role=\"img\" aria-label=\"" << html_escape(text.aria_label) << "\">\n";
  out << "<title>" << html_escape(text.title) << "</title>\n";
  out << "<rect x=\"" << k_left << "\" y=\"" << k_top << "\" width=\"" << plot_w << "\" height=\"" << plot_h
      << "\" fill=\"#fafafa\" stroke=\"#999\"/>\n";
  out << "<line x1=\"" << k_left << "\" x2=\"" << k_left + plot_w << "\" y1=\"" << one_decimal(y_of(0)) << "\" y2=\""
      << one_decimal(y_of(0)) << "\" stroke=\"#666\" stroke-dasharray=\"4 3\"/>\n";
  // Labels for the top, the bottom and the zero line; the zero label only when it does not
  // overlap the others (a small negative range put "0 B" on top of "-400 B").
  std::vector<double> label_ys;
  for (std::int64_t tick : {d_max, d_min, std::int64_t{0}}) {
    const double y = y_of(tick);
    bool clear = true;
    for (double other : label_ys) clear = clear && (y - other > 13 || other - y > 13);
    if (!clear) continue;
    label_ys.push_back(y);
    out << "<text x=\"" << k_left - 6 << "\" y=\"" << one_decimal(y + 4) << "\" font-size=\"11\" text-anchor=\"end\">"
        << (tick > 0 ? "+" : "") << tick << " B</text>\n";
  }
  out << "<text x=\"" << k_left << "\" y=\"" << k_height - 12 << "\" font-size=\"11\">" << utc_seconds(t_min)
      << " UTC</text>\n";
  if (t_max != t_min) {
    out << "<text x=\"" << k_left + plot_w << "\" y=\"" << k_height - 12 << "\" font-size=\"11\" text-anchor=\"end\">"
        << utc_seconds(t_max) << " UTC</text>\n";
  }
  for (std::size_t i = 0; i < series.size(); ++i) {
    const char* colour = k_palette[i % (sizeof k_palette / sizeof k_palette[0])];
    const auto& s = series[i];
    out << "<g class=\"series\" stroke=\"" << colour << "\" fill=\"" << colour << "\">";
    if (s.points.size() > 1) {
      out << "<polyline fill=\"none\" stroke-width=\"2\" points=\"";
      for (const auto& p : s.points)
        out << one_decimal(x_of(p.at_ms)) << "," << one_decimal(y_of(p.delta_bytes)) << " ";
      out << "\"/>";
    }
    for (const auto& p : s.points) {
      out << "<circle cx=\"" << one_decimal(x_of(p.at_ms)) << "\" cy=\"" << one_decimal(y_of(p.delta_bytes))
          << "\" r=\"3\"/>";
    }
    const double ly = k_top + 14.0 * static_cast<double>(i) + 8;
    out << "<rect x=\"" << k_width - k_right + 12 << "\" y=\"" << ly - 8 << "\" width=\"10\" height=\"10\"/>"
        << "<text x=\"" << k_width - k_right + 28 << "\" y=\"" << ly + 1
        << "\" font-size=\"11\" stroke=\"none\" fill=\"#222\">" << html_escape(legend_name(s.name)) << "</text></g>\n";
  }
  out << "</svg>\n";
}

}  // namespace moonquota::report
