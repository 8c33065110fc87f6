#include "report/golden/golden_report.hpp"

#include <sstream>
#include <string>

#include "report/escape.hpp"
#include "report/inspect/inspect_json.hpp"
#include "report/rebuild/expect_report.hpp"
#include "util/text_encoding.hpp"

namespace moonquota::report {

namespace {

constexpr std::size_t k_text_changes_shown = 50;

std::string plural(std::size_t n, const char* word) { return std::to_string(n) + " " + word + (n == 1 ? "" : "s"); }

std::string upper(const char* name) {
  std::string s = name;
  for (auto& c : s) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
  return s;
}

// The differences of one fixture as text lines (no indent), most telling first.
std::vector<std::string> difference_lines(const golden::FixtureResult& r) {
  std::vector<std::string> lines;
  if (!r.unreadable_reason.empty()) lines.push_back(util::printable(r.unreadable_reason));
  const auto table = [&](const std::optional<quota::TableComparison>& c, const char* file) {
    if (!c || c->matches()) return;
    std::ostringstream text;
    render_expect_text(*c, file, text);
    std::istringstream in(text.str());
    for (std::string line; std::getline(in, line);) {
      if (!line.empty()) lines.push_back(line);
    }
  };
  table(r.accounts, "expected.json");
  table(r.master, "master.json");
  if (r.format && !r.format->matches()) {
    lines.push_back("fingerprint: " + r.format->stored_id + " -> " + r.format->today_id + ": " +
                    plural(r.format->added.size(), "feature") + " added, " + std::to_string(r.format->removed.size()) +
                    " removed");
    for (const auto& f : r.format->added) {
      lines.push_back("  + " + f.section + "  " + f.feature + (f.unknown ? "  (UNKNOWN to the format)" : ""));
    }
    for (const auto& f : r.format->removed) lines.push_back("  - " + f.section + "  " + f.feature);
  }
  for (const auto& a : r.allowed) {
    lines.push_back("allowed (" + a.comparison + "): '" + util::printable(a.difference.tenant_id) + "' " +
                    a.difference.field + " " + a.difference.expected + " -> " + a.difference.rebuilt + ": " +
                    util::printable(a.change.reason));
  }
  return lines;
}

std::string summary_line(const GoldenCheckReport& r) {
  const auto& c = r.counts;
  return plural(c.total(), "fixture") + ": " + std::to_string(c.pass) + " pass, " + std::to_string(c.format_drift) +
         " format-drift, " + std::to_string(c.accounts_drift) + " accounts-drift, " +
         std::to_string(c.master_disagrees) + " master-disagrees, " + std::to_string(c.unreadable) + " unreadable" +
         (c.format_drift > 0 ? (r.strict ? " (--strict: format drift fails)" : " (format drift is a warning)") : "");
}

void render_text(const GoldenCheckReport& report, std::ostream& out) {
  for (const auto& set : report.sets) {
    out << util::printable(set.set.name) << " (" << util::printable(set.set.dir)
        << "): " << plural(set.fixtures.size(), "fixture") << "\n";
    for (const auto& r : set.fixtures) {
      out << "  " << upper(golden::verdict_name(r.verdict));
      out << std::string(18 - std::min<std::size_t>(17, std::string(golden::verdict_name(r.verdict)).size()), ' ')
          << util::printable(r.name);
      if (!r.snapshot_id.empty()) out << "  (snapshot " << util::printable(r.snapshot_id) << ")";
      out << "\n";
      const auto lines = difference_lines(r);
      for (std::size_t i = 0; i < lines.size() && i < k_text_changes_shown; ++i) out << "      " << lines[i] << "\n";
      if (lines.size() > k_text_changes_shown) {
        out << "      ... " << lines.size() - k_text_changes_shown << " more (--format json lists all)\n";
      }
    }
    for (const auto& c : set.unused_allowed_changes) {
      out << "  note: allowed-changes.yaml line " << c.line << " (" << util::printable(c.fixture) << ", '"
          << util::printable(c.tenant) << "' " << c.field << " " << c.old_value << " -> " << c.new_value
          << ") matched no difference: remove it once the change is recorded\n";
    }
  }
  out << "\n" << summary_line(report) << "\n";
}

Json changes_json(const std::vector<golden::FeatureChange>& changes) {
  Json a = Json::array();
  for (const auto& f : changes) a.push_back({{"section", f.section}, {"feature", f.feature}, {"unknown", f.unknown}});
  return a;
}

Json fixture_json(const golden::SetResult& set, const golden::FixtureResult& r) {
  Json j;
  j["set"] = set.set.name;
  j["name"] = r.name;
  j["dir"] = r.dir;
  j["verdict"] = golden::verdict_name(r.verdict);
  j["snapshot_id"] = r.snapshot_id.empty() ? Json() : Json(r.snapshot_id);
  j["unreadable_reason"] = r.unreadable_reason.empty() ? Json() : Json(r.unreadable_reason);
  if (r.format) {
    j["format"] = {{"stored_fingerprint_id", r.format->stored_id},
                   {"fingerprint_id", r.format->today_id},
                   {"matches", r.format->matches()},
                   {"added", changes_json(r.format->added)},
                   {"removed", changes_json(r.format->removed)}};
  } else {
    j["format"] = nullptr;
  }
  j["accounts"] = r.accounts ? Json(expect_json(*r.accounts, "expected.json")) : Json();
  j["master"] = r.master ? Json(expect_json(*r.master, "master.json")) : Json();
  Json allowed = Json::array();
  for (const auto& a : r.allowed) {
    allowed.push_back({{"comparison", a.comparison},
                       {"tenant_id", a.difference.tenant_id},
                       {"field", a.difference.field},
                       {"old", a.change.old_value},
                       {"new", a.change.new_value},
                       {"reason", a.change.reason},
                       {"line", a.change.line}});
  }
  j["allowed"] = std::move(allowed);
  return j;
}

Json counts_json(const golden::VerdictCounts& c, bool strict) {
  return {{"fixtures", c.total()},
          {"pass", c.pass},
          {"format-drift", c.format_drift},
          {"accounts-drift", c.accounts_drift},
          {"master-disagrees", c.master_disagrees},
          {"unreadable", c.unreadable},
          {"failures", c.failures(strict)}};
}

void render_json(const GoldenCheckReport& report, std::ostream& out) {
  Json j;
  j["schema"] = k_golden_check_schema;
  j["strict"] = report.strict;
  Json sets = Json::array();
  Json fixtures = Json::array();
  for (const auto& set : report.sets) {
    Json unused = Json::array();
    for (const auto& c : set.unused_allowed_changes) {
      unused.push_back({{"fixture", c.fixture},
                        {"tenant_id", c.tenant},
                        {"field", c.field},
                        {"old", c.old_value},
                        {"new", c.new_value},
                        {"line", c.line}});
    }
    const golden::VerdictCounts counts = golden::count_verdicts(set.fixtures);
    sets.push_back({{"name", set.set.name},
                    {"dir", set.set.dir},
                    {"fixtures", set.fixtures.size()},
                    {"counts", counts_json(counts, report.strict)},
                    {"unused_allowed_changes", std::move(unused)}});
    for (const auto& r : set.fixtures) fixtures.push_back(fixture_json(set, r));
  }
  j["sets"] = std::move(sets);
  j["fixtures"] = std::move(fixtures);
  j["counts"] = counts_json(report.counts, report.strict);
  j["exit_code"] = report.exit_code;
  write_inspect_json(j, out);
}

// GitHub workflow commands: data escaped as the runner decodes it (% CR LF; also : and , in
// properties).
std::string github_escape(const std::string& text, bool property) {
  std::string out;
  for (char c : text) {
    if (c == '%')
      out += "%25";
    else if (c == '\r')
      out += "%0D";
    else if (c == '\n')
      out += "%0A";
    else if (property && c == ':')
      out += "%3A";
    else if (property && c == ',')
      out += "%2C";
    else
      out += util::printable(std::string(1, c));
  }
  return out;
}

void render_github(const GoldenCheckReport& report, std::ostream& out) {
  for (const auto& set : report.sets) {
    for (const auto& r : set.fixtures) {
      if (r.verdict == golden::Verdict::pass) continue;
      const bool fails = golden::is_failure(r.verdict, report.strict);
      std::string message = std::string(golden::verdict_name(r.verdict)) + ": " + r.name;
      for (const auto& line : difference_lines(r)) message += "\n" + line;
      // The file to fix: the fixture's args when it cannot be read (whatever is missing is named in
      // the message), else the file whose comparison failed.
      const char* name = r.verdict == golden::Verdict::format_drift       ? "fingerprint.json"
                         : r.verdict == golden::Verdict::master_disagrees ? "master.json"
                         : r.verdict == golden::Verdict::unreadable       ? "args"
                                                                          : "expected.json";
      const std::string file = r.dir + "/" + name;
      out << (fails ? "::error " : "::warning ") << "file=" << github_escape(file, true)
          << ",title=" << github_escape("snapshot-golden " + set.set.name + "/" + r.name, true)
          << "::" << github_escape(message, false) << "\n";
    }
  }
  out << summary_line(report) << "\n";
}

// Text for XML attributes and character data: each line escaped as HTML text is (the five
// entities; control bytes, and the bytes of a line that is not UTF-8, as \xNN: XML 1.0 cannot hold
// them), the line ends kept (as &#10; inside an attribute).
std::string xml_escape(const std::string& text, bool attribute = false) {
  std::string out;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find('\n', start);
    out += html_escape(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) return out;
    out += attribute ? "&#10;" : "\n";
    start = end + 1;
  }
}

std::string seconds_text(double s) {
  std::ostringstream t;
  t.setf(std::ios::fixed);
  t.precision(3);
  t << s;
  return t.str();
}

}  // namespace

void render_golden_check(const GoldenCheckReport& report, GoldenCheckFormat format, std::ostream& out) {
  switch (format) {
    case GoldenCheckFormat::json: render_json(report, out); return;
    case GoldenCheckFormat::github: render_github(report, out); return;
    case GoldenCheckFormat::text: render_text(report, out); return;
  }
}

void render_golden_junit(const GoldenCheckReport& report, std::ostream& out) {
  // JUnit's failures are the failing verdicts but unreadable, which is an error.
  const auto failures = [&](const golden::VerdictCounts& c) { return c.failures(report.strict) - c.unreadable; };
  const auto seconds = [](const std::vector<golden::FixtureResult>& fixtures) {
    double total = 0;
    for (const auto& r : fixtures) total += r.seconds;
    return total;
  };
  double total = 0;
  for (const auto& set : report.sets) total += seconds(set.fixtures);
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << "<testsuites name=\"snapshot-golden\" tests=\"" << report.counts.total() << "\" failures=\""
      << failures(report.counts) << "\" errors=\"" << report.counts.unreadable << "\" time=\"" << seconds_text(total)
      << "\">\n";
  for (const auto& set : report.sets) {
    const golden::VerdictCounts counts = golden::count_verdicts(set.fixtures);
    out << "  <testsuite name=\"" << xml_escape(set.set.name) << "\" tests=\"" << counts.total() << "\" failures=\""
        << failures(counts) << "\" errors=\"" << counts.unreadable << "\" skipped=\"0\" time=\""
        << seconds_text(seconds(set.fixtures)) << "\">\n";
    for (const auto& r : set.fixtures) {
      out << "    <testcase classname=\"" << xml_escape(set.set.name) << "\" name=\"" << xml_escape(r.name)
          << "\" time=\"" << seconds_text(r.seconds) << "\"";
      std::string details;
      for (const auto& line : difference_lines(r)) details += line + "\n";
      const char* verdict = golden::verdict_name(r.verdict);
      if (r.verdict == golden::Verdict::pass) {
        out << "/>\n";
        continue;
      }
      out << ">\n";
      const std::string first = details.substr(0, details.find('\n'));
      if (r.verdict == golden::Verdict::unreadable) {
        out << "      <error type=\"unreadable\" message=\"unreadable: " << xml_escape(first, true) << "\">"
            << xml_escape(details) << "</error>\n";
      } else if (golden::is_failure(r.verdict, report.strict)) {
        out << "      <failure type=\"" << verdict << "\" message=\"" << verdict << ": " << xml_escape(first, true)
            << "\">" << xml_escape(details) << "</failure>\n";
      } else {
        out << "      <system-out>" << verdict << " (a warning): " << xml_escape(details) << "</system-out>\n";
      }
      out << "    </testcase>\n";
    }
    out << "  </testsuite>\n";
  }
  out << "</testsuites>\n";
}

void render_golden_record(const std::vector<golden::RecordedFixture>& fixtures, std::ostream& out) {
  std::size_t failed = 0;
  for (const auto& f : fixtures) {
    out << util::printable(f.name) << " (" << util::printable(f.dir) << "):";
    if (!f.error.empty() && f.expected != golden::FileChange::refused) {
      out << " NOT RECORDED: " << util::printable(f.error) << "\n";
      ++failed;
      continue;
    }
    out << " expected.json " << golden::file_change_name(f.expected) << ", fingerprint.json "
        << golden::file_change_name(f.fingerprint) << (f.args_created ? ", args created" : "") << "\n";
    if (f.accounts && !f.accounts->matches()) {
      std::ostringstream text;
      render_expect_text(*f.accounts, "expected.json (before)", text);
      std::istringstream in(text.str());
      for (std::string line; std::getline(in, line);) {
        if (!line.empty()) out << "    " << line << "\n";
      }
    }
    if (f.format && !f.format->matches()) {
      out << "    fingerprint " << f.format->stored_id << " -> " << f.format->today_id << "\n";
      for (const auto& c : f.format->added) out << "      + " << c.section << "  " << c.feature << "\n";
      for (const auto& c : f.format->removed) out << "      - " << c.section << "  " << c.feature << "\n";
    }
    if (f.expected == golden::FileChange::refused) {
      out << "    NOT RECORDED: " << util::printable(f.error) << "\n";
      ++failed;
    }
  }
  out << "\n" << plural(fixtures.size(), "fixture") << ", " << failed << " not recorded\n";
}

}  // namespace moonquota::report
