#include "reconcile/prometheus_text.hpp"

#include <charconv>
#include <cmath>
#include <limits>
#include <unordered_set>

#include "util/text_encoding.hpp"

namespace moonquota::reconcile {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t'; }
bool is_name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':'; }
bool is_name_char(char c) { return is_name_start(c) || (c >= '0' && c <= '9'); }
bool is_label_start(char c) { return is_name_start(c) && c != ':'; }
bool is_label_char(char c) { return is_name_char(c) && c != ':'; }

std::optional<double> parse_float(std::string_view text) {
  if (text.empty()) return std::nullopt;
  std::string_view body = text;
  bool negative = false;
  if (body.front() == '+' || body.front() == '-') {
    negative = body.front() == '-';
    body.remove_prefix(1);
  }
  const std::string word = util::ascii_lower(body);
  if (word == "inf" || word == "infinity") {
    double inf = std::numeric_limits<double>::infinity();
    return negative ? -inf : inf;
  }
  if (word == "nan") return std::numeric_limits<double>::quiet_NaN();
  if (body.empty() || body.front() == '+' || body.front() == '-') return std::nullopt;
  double value = 0;
  auto [ptr, ec] = std::from_chars(body.data(), body.data() + body.size(), value);
  if (ec != std::errc() || ptr != body.data() + body.size()) return std::nullopt;
  return negative ? -value : value;
}

// Parses one line; `pos` walks through it. Errors carry the 1-based column.
class LineParser {
 public:
  LineParser(std::string_view line, std::size_t line_no) : m_line(line), m_line_no(line_no) {}

  util::Status parse_sample(PromSample& out) {
    out.line = m_line_no;
    out.name = read_name(is_name_start, is_name_char);
    if (out.name.empty()) return error("a metric name");
    if (m_pos < m_line.size() && m_line[m_pos] == '{') {
      ++m_pos;
      MQ_RETURN_IF_ERROR(parse_labels(out));
    }
    if (m_pos >= m_line.size() || !is_space(m_line[m_pos])) return error("whitespace before the value");
    skip_space();
    std::string_view value = read_token();
    auto v = parse_float(value);
    if (!v) return error("a float value, found '" + std::string(value) + "'");
    out.value_text = std::string(value);
    out.value = *v;
    skip_space();
    if (m_pos < m_line.size()) {
      std::string_view ts = read_token();
      std::int64_t ms = 0;
      auto [ptr, ec] = std::from_chars(ts.data(), ts.data() + ts.size(), ms);
      if (ec != std::errc() || ptr != ts.data() + ts.size())
        return error("an integer timestamp, found '" + std::string(ts) + "'");
      out.timestamp_ms = ms;
      skip_space();
      if (m_pos < m_line.size()) return error("the end of the line");
    }
    return {};
  }

 private:
  util::Status parse_labels(PromSample& out) {
    std::unordered_set<std::string_view> seen;  // views into m_line: label names have no escapes
    while (true) {
      skip_space();
      if (m_pos < m_line.size() && m_line[m_pos] == '}') {
        ++m_pos;
        return {};
      }
      const std::size_t name_begin = m_pos;
      std::string name = read_name(is_label_start, is_label_char);
      if (name.empty()) return error("a label name or '}'");
      if (out.labels.size() == k_max_labels_per_sample) {
        return util::Status::corruption("metrics line " + std::to_string(m_line_no) + ": sample " + out.name +
                                        " has more than " + std::to_string(k_max_labels_per_sample) +
                                        " labels (the limit per sample; a tenant series has 1 or 2)");
      }
      const std::string_view name_view = m_line.substr(name_begin, name.size());
      skip_space();
      if (m_pos >= m_line.size() || m_line[m_pos] != '=') return error("'=' after label " + name);
      ++m_pos;
      skip_space();
      if (m_pos >= m_line.size() || m_line[m_pos] != '"') return error("'\"' opening the value of label " + name);
      ++m_pos;
      std::string value;
      MQ_RETURN_IF_ERROR(read_label_value(value));
      if (!seen.insert(name_view).second) {
        return error("a label name not already used, found a second '" + name + "'");
      }
      out.labels.emplace_back(std::move(name), std::move(value));
      skip_space();
      if (m_pos < m_line.size() && m_line[m_pos] == ',') {
        ++m_pos;
        continue;
      }
      if (m_pos < m_line.size() && m_line[m_pos] == '}') {
        ++m_pos;
        return {};
      }
      return error("',' or '}' after a label");
    }
  }

  util::Status read_label_value(std::string& value) {
    while (m_pos < m_line.size()) {
      char c = m_line[m_pos++];
      if (c == '"') return {};
      if (c != '\\') {
        value.push_back(c);
        continue;
      }
      if (m_pos >= m_line.size()) break;
      char e = m_line[m_pos++];
      if (e == '\\')
        value.push_back('\\');
      else if (e == '"')
        value.push_back('"');
      else if (e == 'n')
        value.push_back('\n');
      else
        return error("an escape \\\\, \\\" or \\n in a label value, found '\\" + std::string(1, e) + "'");
    }
    return error("a closing '\"' of a label value");
  }

  template <typename Start, typename Rest>
  std::string read_name(Start start, Rest rest) {
    std::size_t begin = m_pos;
    if (m_pos < m_line.size() && start(m_line[m_pos])) {
      ++m_pos;
      while (m_pos < m_line.size() && rest(m_line[m_pos])) ++m_pos;
    }
    return std::string(m_line.substr(begin, m_pos - begin));
  }

  std::string_view read_token() {
    std::size_t begin = m_pos;
    while (m_pos < m_line.size() && !is_space(m_line[m_pos])) ++m_pos;
    return m_line.substr(begin, m_pos - begin);
  }

  void skip_space() {
    while (m_pos < m_line.size() && is_space(m_line[m_pos])) ++m_pos;
  }

  util::Status error(const std::string& expected) const {
    return util::Status::corruption("metrics line " + std::to_string(m_line_no) + ", column " +
                                    std::to_string(m_pos + 1) + ": expected " + expected);
  }

  std::string_view m_line;
  std::size_t m_line_no;
  std::size_t m_pos = 0;
};

std::string unescape_help(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size() && (s[i + 1] == '\\' || s[i + 1] == 'n')) {
      out.push_back(s[i + 1] == 'n' ? '\n' : '\\');
      ++i;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

// "# HELP name doc" / "# TYPE name type"; other comments are ignored. `rest` is raw (HELP text
// still escaped, TYPE text with trailing blanks).
void parse_comment(std::string_view line, const PromCommentSink& on_comment) {
  std::size_t pos = 1;
  auto skip = [&] {
    while (pos < line.size() && is_space(line[pos])) ++pos;
  };
  auto token = [&] {
    std::size_t begin = pos;
    while (pos < line.size() && !is_space(line[pos])) ++pos;
    return line.substr(begin, pos - begin);
  };
  skip();
  std::string_view keyword = token();
  if (keyword != "HELP" && keyword != "TYPE") return;
  skip();
  std::string_view name = token();
  if (name.empty()) return;
  if (pos < line.size()) ++pos;  // the one separator before the rest
  on_comment(keyword, name, line.substr(std::min(pos, line.size())));
}

}  // namespace

const std::string* PromSample::label(std::string_view label_name) const {
  for (const auto& [k, v] : labels) {
    if (k == label_name) return &v;
  }
  return nullptr;
}

util::Status scan_prometheus_text(std::string_view text, const PromSampleSink& on_sample,
                                  const PromCommentSink& on_comment) {
  std::size_t line_no = 0;
  std::size_t begin = 0;
  while (begin < text.size()) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(begin, end - begin);
    begin = end + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    std::size_t first = 0;
    while (first < line.size() && is_space(line[first])) ++first;
    if (first == line.size()) continue;
    line.remove_prefix(first);
    if (line.front() == '#') {
      parse_comment(line, on_comment);
      continue;
    }
    PromSample sample;
    MQ_RETURN_IF_ERROR(LineParser(line, line_no).parse_sample(sample));
    MQ_RETURN_IF_ERROR(on_sample(std::move(sample)));
  }
  return {};
}

util::Result<PromExposition> parse_prometheus_text(std::string_view text) {
  PromExposition out;
  MQ_RETURN_IF_ERROR(scan_prometheus_text(
      text,
      [&](PromSample&& sample) {
        out.samples.push_back(std::move(sample));
        return util::Status();
      },
      [&](std::string_view keyword, std::string_view name, std::string_view rest) {
        if (keyword == "HELP") {
          out.help[std::string(name)] = unescape_help(rest);
        } else {
          std::size_t end = rest.size();
          while (end > 0 && is_space(rest[end - 1])) --end;
          out.types[std::string(name)] = std::string(rest.substr(0, end));
        }
      }));
  return out;
}

std::optional<std::uint64_t> parse_exact_u64(std::string_view text) {
  if (text.empty() || text.front() < '0' || text.front() > '9') return std::nullopt;
  std::uint64_t value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value, 10);
  if (ec != std::errc() || ptr != text.data() + text.size()) return std::nullopt;
  return value;
}

std::string escape_label_value(std::string_view raw) {
  std::string out;
  out.reserve(raw.size());
  for (char c : raw) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out.push_back(c);
    }
  }
  return out;
}

std::string label_value(std::string_view raw) {
  return util::is_valid_utf8(raw) ? escape_label_value(raw) : "0x" + util::to_hex(raw);
}

}  // namespace moonquota::reconcile
