#include "inspect/survival_points.hpp"

#include <algorithm>
#include <charconv>
#include <limits>

#include "util/checked_math.hpp"
#include "util/span_text.hpp"
#include "util/text_encoding.hpp"

namespace moonquota::inspect {

namespace {

using util::Status;

constexpr std::uint64_t k_max_instant_ms = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());

constexpr const char* k_not_a_point = "is not a delay (0, 1500ms, 10s, 5m, 1h, 2d), +DELAY, @EPOCH_MS or now";

Status bad_point(const std::string& text, const std::string& why) {
  return Status::invalid_argument("--at '" + text + "' " + why);
}

Status too_many_points(const std::string& where) {
  return Status::invalid_argument(where + " has more than " + std::to_string(k_max_survival_points) + " points");
}

util::Result<std::uint64_t> digits(const std::string& whole, std::string_view text) {
  std::uint64_t v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v, 10);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size()) {
    return bad_point(whole, ec == std::errc::result_out_of_range ? "is too large" : k_not_a_point);
  }
  return v;
}

util::Result<std::uint64_t> span(const std::string& whole, std::string_view text) {
  const util::ParsedSpan parsed = util::parse_span_ms(text);
  switch (parsed.fault) {
    case util::SpanFault::none: return parsed.ms;
    case util::SpanFault::malformed: return bad_point(whole, k_not_a_point);
    case util::SpanFault::no_unit:
      return bad_point(whole, "needs a unit (ms, s, m, h, d); an absolute instant is written @EPOCH_MS");
    case util::SpanFault::too_long: return bad_point(whole, "is more than 100 years");
  }
  return bad_point(whole, "is not a delay");
}

util::Result<PointSpec> parse_one(const std::string& text) {
  PointSpec spec;
  spec.text = text;
  if (text == "now") {
    spec.kind = PointSpec::Kind::now;
    return spec;
  }
  if (!text.empty() && text[0] == '@') {
    spec.kind = PointSpec::Kind::absolute;
    MQ_ASSIGN_OR_RETURN(spec.value_ms, digits(text, std::string_view(text).substr(1)));
    if (spec.value_ms > k_max_instant_ms) return bad_point(text, "is too large");
    return spec;
  }
  if (!text.empty() && text[0] == '+') {  // "+30s": 30 s after now, whatever the snapshot's age
    spec.kind = PointSpec::Kind::after_now;
    MQ_ASSIGN_OR_RETURN(spec.value_ms, span(text, std::string_view(text).substr(1)));
    return spec;
  }
  MQ_ASSIGN_OR_RETURN(spec.value_ms, span(text, text));
  return spec;
}

}  // namespace

util::Result<std::vector<PointSpec>> parse_survival_points(const std::string& list) {
  std::vector<PointSpec> specs;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = list.find(',', start);
    const std::string item = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (item.empty()) return Status::invalid_argument("--at '" + list + "' has an empty item");
    MQ_ASSIGN_OR_RETURN(PointSpec spec, parse_one(item));
    specs.push_back(std::move(spec));
    if (specs.size() > k_max_survival_points) return too_many_points("--at");
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return specs;
}

util::Result<std::vector<PointSpec>> parse_survival_points_file(const std::string& text, const std::string& name) {
  std::vector<PointSpec> specs;
  const std::string where = "--at-file '" + name + "'";
  std::size_t line_start = 0;
  for (std::uint64_t line_no = 1; line_start < text.size(); ++line_no) {
    const std::size_t end = std::min(text.find('\n', line_start), text.size());
    std::string_view line(text.data() + line_start, end - line_start);
    line_start = end + 1;
    line = line.substr(0, line.find('#'));
    for (std::size_t from = 0; from <= line.size();) {
      const std::size_t comma = std::min(line.find(',', from), line.size());
      const std::string item(util::trim_ascii(std::string(line.substr(from, comma - from))));
      from = comma + 1;
      if (item.empty()) {
        if (util::trim_ascii(std::string(line)).empty()) break;  // a blank or comment-only line
        return Status::invalid_argument(where + " line " + std::to_string(line_no) + " has an empty item");
      }
      auto spec = parse_one(item);
      if (!spec.ok()) {
        std::string why = spec.status().message();
        if (why.rfind("--at ", 0) == 0) why.erase(0, 5);
        return Status::invalid_argument(where + " line " + std::to_string(line_no) + ": " + why);
      }
      specs.push_back(std::move(*spec));
      if (specs.size() > k_max_survival_points) return too_many_points(where);
    }
  }
  if (specs.empty()) return Status::invalid_argument(where + " holds no point");
  return specs;
}

util::Result<std::vector<SurvivalPoint>> resolve_survival_points(const std::vector<PointSpec>& specs,
                                                                 std::optional<std::int64_t> created_at_ms,
                                                                 std::uint64_t now_ms, const std::string& why) {
  if (!created_at_ms) {
    return Status::invalid_argument("delays after created_at need the snapshot's descriptor.txt, which is unusable (" +
                                    why + "): give absolute points only (--at @EPOCH_MS,...,now)");
  }
  if (*created_at_ms < 0) {
    return Status::invalid_argument("descriptor.txt has a negative created_at_ms (" + std::to_string(*created_at_ms) +
                                    "): give absolute points only (--at @EPOCH_MS,...,now)");
  }
  const auto created = static_cast<std::uint64_t>(*created_at_ms);
  if (now_ms > k_max_instant_ms) return Status::invalid_argument("--restore-time does not fit in 63 bits");
  std::vector<SurvivalPoint> points;
  bool have_zero = false;
  bool have_now = false;
  for (const auto& spec : specs) {
    SurvivalPoint p;
    p.label = spec.text;
    switch (spec.kind) {
      case PointSpec::Kind::now:
        p.at_ms = now_ms;
        p.is_now = true;
        have_now = true;
        break;
      case PointSpec::Kind::absolute: p.at_ms = spec.value_ms; break;
      case PointSpec::Kind::after_now: {
        const auto at = util::checked_add(now_ms, spec.value_ms);
        if (!at || *at > k_max_instant_ms) return bad_point(spec.text, "is too large after now");
        p.at_ms = *at;
        break;
      }
      case PointSpec::Kind::delay: {
        const auto at = util::checked_add(created, spec.value_ms);
        if (!at || *at > k_max_instant_ms) return bad_point(spec.text, "is too large after created_at");
        p.at_ms = *at;
        break;
      }
    }
    p.delay_ms = static_cast<std::int64_t>(p.at_ms) - *created_at_ms;
    have_zero = have_zero || p.delay_ms == 0;
    // An instant asked twice ("30s,30s", "1m,60s") is one point, labelled as first typed; `now`
    // keeps its own mark.
    const auto same = std::find_if(points.begin(), points.end(),
                                   [&](const SurvivalPoint& q) { return q.at_ms == p.at_ms && q.is_now == p.is_now; });
    if (same != points.end()) continue;
    points.push_back(std::move(p));
  }
  if (!have_zero) points.push_back({created, 0, "0", false, true});
  if (!have_now) { points.push_back({now_ms, static_cast<std::int64_t>(now_ms) - *created_at_ms, "now", true, true}); }
  std::stable_sort(points.begin(), points.end(),
                   [](const SurvivalPoint& a, const SurvivalPoint& b) { return a.at_ms < b.at_ms; });
  return points;
}

}  // namespace moonquota::inspect
