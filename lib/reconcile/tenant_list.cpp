#include "reconcile/tenant_list.hpp"

#include <nlohmann/json.hpp>

#include <array>
#include <limits>

#include "source/http_call.hpp"
#include "util/checked_math.hpp"

namespace moonquota::reconcile {

namespace {

using nlohmann::json;

constexpr std::int64_t k_unavailable_in_current_mode = -1011;
constexpr std::string_view k_inactive_message = "service plane is not active";
// A genuine list nests 3 deep (body, data, row); nothing legitimate comes near this. Checked on
// the raw bytes before parsing, so no later step (a message, a copy) ever meets hostile depth.
constexpr std::size_t k_max_nesting_depth = 64;
// Input quoted in an error message is cut to this many bytes (before escaping).
constexpr std::size_t k_max_excerpt_bytes = 40;

std::string cut(std::string_view text, std::size_t max_bytes = k_max_excerpt_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  return std::string(text.substr(0, max_bytes)) + "...";
}

// The type and a short excerpt of a value from the body: bounded and non-recursive (never dump()
// an array or object; a hostile one can be nested tens of thousands deep or megabytes long).
std::string describe(const json& v) {
  switch (v.type()) {
    case json::value_t::array: return "an array of " + std::to_string(v.size()) + " elements";
    case json::value_t::object: return "an object of " + std::to_string(v.size()) + " members";
    case json::value_t::string: {
      const auto& s = v.get_ref<const json::string_t&>();
      const std::string quoted =
          json(s.substr(0, k_max_excerpt_bytes)).dump(-1, ' ', false, json::error_handler_t::replace);
      return "a string " + quoted + (s.size() > k_max_excerpt_bytes ? "..." : "");
    }
    default: return std::string(v.type_name()) + " " + v.dump();  // a scalar: bounded
  }
}

// The byte offset where nesting first exceeds k_max_nesting_depth, if it does. Strings are
// skipped (brackets inside them do not count); malformed text is left to the parser.
std::optional<std::size_t> too_deep_at(std::string_view body) {
  std::size_t depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < body.size(); ++i) {
    const char c = body[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > k_max_nesting_depth) return i;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return std::nullopt;
}

util::Status bad_member(std::size_t row, const std::string& member, const std::string& what) {
  return util::Status::corruption("live tenant list: data[" + std::to_string(row) + "]." + member + " " + what);
}

// The last value a row gave one member (a repeated member keeps its last value, as in a DOM): a
// scalar (strings cut to an excerpt, except tenant_id) or the type and child count of a container.
struct MemberValue {
  bool present = false;
  json scalar;
  std::optional<json::value_t> container;  // array or object
  std::size_t children = 0;                // of the container
};

enum class RowMember { tenant_id, requested, effective, charged, admission_closed, over_quota, explicit_policy };
constexpr std::array<std::string_view, 7> k_row_members = {
    "tenant_id",  "requested_quota_bytes", "effective_quota_bytes", "charged_bytes", "admission_closed",
    "over_quota", "has_explicit_policy"};
using RowValues = std::array<MemberValue, k_row_members.size()>;

std::string describe(const MemberValue& v) {
  if (v.container == json::value_t::array) return "an array of " + std::to_string(v.children) + " elements";
  if (v.container == json::value_t::object) return "an object of " + std::to_string(v.children) + " members";
  return describe(v.scalar);
}

const MemberValue& member_of(const RowValues& row, RowMember m) { return row[static_cast<std::size_t>(m)]; }
std::string name_of(RowMember m) { return std::string(k_row_members[static_cast<std::size_t>(m)]); }

util::Status read_u64(const RowValues& row, std::size_t i, RowMember m, std::uint64_t& out) {
  const MemberValue& v = member_of(row, m);
  if (!v.present) return bad_member(i, name_of(m), "is missing");
  if (v.container || !v.scalar.is_number_unsigned()) {
    const bool negative = !v.container && v.scalar.is_number_integer();
    return bad_member(i, name_of(m), negative ? "is negative" : "is not an unsigned integer: " + describe(v));
  }
  out = v.scalar.get<std::uint64_t>();
  return {};
}

util::Status read_bool(const RowValues& row, std::size_t i, RowMember m, bool& out) {
  const MemberValue& v = member_of(row, m);
  if (!v.present) return bad_member(i, name_of(m), "is missing");
  if (v.container || !v.scalar.is_boolean()) return bad_member(i, name_of(m), "is not a boolean: " + describe(v));
  out = v.scalar.get<bool>();
  return {};
}

// The checks of one complete row, in member order (the first failing member is reported).
util::Result<LiveTenant> read_row(const RowValues& row, std::size_t i) {
  LiveTenant t;
  const MemberValue& id = member_of(row, RowMember::tenant_id);
  if (!id.present) return bad_member(i, "tenant_id", "is missing");
  if (id.container || !id.scalar.is_string()) return bad_member(i, "tenant_id", "is not a string: " + describe(id));
  t.tenant_id = id.scalar.get<std::string>();
  MQ_RETURN_IF_ERROR(read_u64(row, i, RowMember::requested, t.requested_quota_bytes));
  MQ_RETURN_IF_ERROR(read_u64(row, i, RowMember::effective, t.effective_quota_bytes));
  MQ_RETURN_IF_ERROR(read_u64(row, i, RowMember::charged, t.charged_bytes));
  if (t.charged_bytes > util::k_max_charged_bytes) return bad_member(i, "charged_bytes", "exceeds 2^63-1");
  MQ_RETURN_IF_ERROR(read_bool(row, i, RowMember::admission_closed, t.admission_closed));
  MQ_RETURN_IF_ERROR(read_bool(row, i, RowMember::over_quota, t.over_quota));
  MQ_RETURN_IF_ERROR(read_bool(row, i, RowMember::explicit_policy, t.has_explicit_policy));
  return t;
}

util::Status error_body_status(std::optional<int> http_status, std::int64_t code, const std::string& message) {
  const std::string detail = "error_code " + std::to_string(code) + ", error_message \"" + cut(message) + "\"";
  const bool inactive =
      http_status ? *http_status == 503
                  : (code == k_unavailable_in_current_mode && message.find(k_inactive_message) != std::string::npos);
  if (inactive) {
    return util::Status::unavailable(
        "the master answered 503 \"service plane is not active\": it is not the serving "
        "leader (an HA standby or a master mid-failover)");
  }
  const bool mode_off = (!http_status || *http_status == 409) && code == k_unavailable_in_current_mode;
  if (mode_off) {
    return util::Status::unsupported(
        "multi-tenancy disabled on the live master (409 UNAVAILABLE_IN_CURRENT_MODE): it keeps no tenant quota, "
        "there is nothing to reconcile");
  }
  return util::Status::corruption("unexpected live response" +
                                  (http_status ? " (" + source::http_status_text(*http_status) + ")" : std::string()) +
                                  ": " + detail);
}

// A SAX pass that reads the body straight into rows and never builds a DOM: nlohmann's DOM costs
// ~25x a list of empty arrays (a 30 MB body peaked at 778 MB; issue 11 item 26). Memory is the
// rows plus one row's members (and nlohmann's lexer, which keeps the structural characters between
// two scalars for its messages: at most the body again); everything else is checked and dropped.
// Nesting is bounded by too_deep_at before this runs. The outcome equals reading a DOM: the last
// repeated member wins, rows are checked in order and the first bad one is reported.
class ListReader : public nlohmann::json_sax<json> {
 public:
  explicit ListReader(std::size_t max_tenants) : m_max_tenants(max_tenants) {}

  bool null() override { return scalar(json(nullptr)); }
  bool boolean(bool val) override { return scalar(json(val)); }
  bool number_integer(number_integer_t val) override { return scalar(json(val)); }
  bool number_unsigned(number_unsigned_t val) override { return scalar(json(val)); }
  bool number_float(number_float_t val, const string_t& /*text*/) override { return scalar(json(val)); }
  bool string(string_t& val) override {
    const bool whole = in(Level::row) && m_member == RowMember::tenant_id;
    if (!whole && val.size() > k_max_excerpt_bytes + 1) val.resize(k_max_excerpt_bytes + 1);  // describe() cuts
    return scalar(json(std::move(val)));
  }
  bool binary(binary_t& /*val*/) override { return scalar(json()); }  // never produced by the text parser

  bool start_object(std::size_t /*elements*/) override { return open(json::value_t::object); }
  bool start_array(std::size_t /*elements*/) override { return open(json::value_t::array); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }

  bool key(string_t& val) override {
    count_child(json::value_t::object);
    if (in(Level::root)) {
      m_root_key = val == "success"         ? RootKey::success
                   : val == "error_code"    ? RootKey::error_code
                   : val == "error_message" ? RootKey::error_message
                   : val == "data"          ? RootKey::data
                                            : RootKey::other;
    } else if (in(Level::row)) {
      m_member.reset();
      for (std::size_t m = 0; m < k_row_members.size(); ++m) {
        if (val == k_row_members[m]) m_member = static_cast<RowMember>(m);
      }
    }
    return true;
  }

  bool parse_error(std::size_t /*position*/, const std::string& /*last_token*/,
                   const nlohmann::detail::exception& ex) override {
    if (const auto* parse = dynamic_cast<const json::parse_error*>(&ex)) {
      m_parse_error_offset = parse->byte > 0 ? parse->byte - 1 : 0;  // 1-based, just past the fault
    } else {
      m_other_error = cut(ex.what(), 120);  // e.g. out_of_range 406: a number too large for a double
    }
    return false;
  }

  // The outcome of a complete parse, in the DOM reader's order of checks.
  util::Result<std::vector<LiveTenant>> finish(std::optional<int> http_status) {
    if (!m_root_is_object) return util::Status::corruption("live tenant list: body is not a JSON object");
    if (!m_success) return util::Status::corruption("live tenant list: member success is missing or not a boolean");
    if (!*m_success || (http_status && *http_status != 200)) {
      return error_body_status(http_status, m_code, m_message);
    }
    if (!m_data_is_array) return util::Status::corruption("live tenant list: data is not an array");
    if (!m_row_error.ok()) return m_row_error;
    return std::move(m_rows);
  }

  [[nodiscard]] const std::optional<std::size_t>& parse_error_offset() const { return m_parse_error_offset; }
  [[nodiscard]] const std::optional<std::size_t>& limit_row() const { return m_limit_row; }
  [[nodiscard]] const std::optional<std::string>& other_error() const { return m_other_error; }

 private:
  // What each open container is: the root object, the data array, a row, or anything else.
  enum class Level { root, data, row, other };
  enum class RootKey { success, error_code, error_message, data, other };

  [[nodiscard]] bool in(Level level) const {
    const std::size_t depth = level == Level::root ? 1 : level == Level::data ? 2 : 3;
    return m_stack.size() == depth && m_stack.back() == level;
  }

  // Counts a direct child of the container being described: a key of an object, a value of an array.
  void count_child(json::value_t counted_in) {
    if (m_stack.size() == m_count_depth && m_described->container == counted_in) ++m_count;
  }

  // A scalar at the current position.
  bool scalar(json value) {
    count_child(json::value_t::array);
    if (in(Level::root)) {
      root_value(value);
    } else if (in(Level::data)) {
      element_not_object();
    } else if (in(Level::row) && m_member) {
      m_row[static_cast<std::size_t>(*m_member)] = MemberValue{true, std::move(value), std::nullopt, 0};
    }
    return true;  // a scalar document leaves m_root_is_object false
  }

  void root_value(const json& value) {
    switch (m_root_key) {
      case RootKey::success:
        m_success = value.is_boolean() ? std::optional<bool>(value.get<bool>()) : std::nullopt;
        break;
      case RootKey::error_code: m_code = value.is_number_integer() ? value.get<std::int64_t>() : 0; break;
      case RootKey::error_message: m_message = value.is_string() ? value.get<std::string>() : std::string(); break;
      case RootKey::data: m_data_is_array = false; break;
      case RootKey::other: break;
    }
  }

  void element_not_object() {
    if (m_row_error.ok()) m_row_error = bad_member(m_row_index, "", "is not an object");
    ++m_row_index;
  }

  bool open(json::value_t type) {
    const bool is_object = type == json::value_t::object;
    count_child(json::value_t::array);
    Level level = Level::other;
    if (m_stack.empty()) {
      m_root_is_object = is_object;
      level = is_object ? Level::root : Level::other;
    } else if (in(Level::root)) {
      if (m_root_key == RootKey::data && !is_object) {
        // A repeated "data" replaces the earlier one, as in a DOM.
        m_data_is_array = true;
        m_rows.clear();
        m_row_error = {};
        m_row_index = 0;
        level = Level::data;
      } else {
        root_value(json(type));  // a container where a scalar is read
      }
    } else if (in(Level::data)) {
      if (is_object) {
        m_row = {};
        m_member.reset();
        level = Level::row;
      } else {
        element_not_object();
      }
    } else if (in(Level::row) && m_member) {
      // A member holding a container: only its type and direct child count are kept.
      m_described = &m_row[static_cast<std::size_t>(*m_member)];
      *m_described = MemberValue{true, json(), type, 0};
      m_count_depth = m_stack.size() + 1;
      m_count = 0;
    }
    m_stack.push_back(level);
    return true;
  }

  bool close() {
    if (m_stack.size() == m_count_depth) {
      m_described->children = m_count;
      m_described = nullptr;
      m_count_depth = k_not_counting;
    }
    const Level level = m_stack.back();
    m_stack.pop_back();
    if (level == Level::row && m_stack.size() == 2) {
      if (m_row_error.ok()) {
        auto row = read_row(m_row, m_row_index);
        if (row.ok()) {
          if (m_rows.size() >= m_max_tenants) {  // this row is one too many: stop reading here
            m_rows = {};
            m_limit_row = m_row_index;
            return false;
          }
          m_rows.push_back(std::move(*row));
        } else {
          m_row_error = row.status();
          m_rows = {};
        }
      }
      ++m_row_index;
    }
    return true;
  }

  static constexpr std::size_t k_not_counting = std::numeric_limits<std::size_t>::max();

  std::size_t m_max_tenants;
  std::optional<std::size_t> m_limit_row;  // the row past max_tenants, where reading stopped
  std::vector<Level> m_stack;              // bounded: too_deep_at ran first
  bool m_root_is_object = false;
  RootKey m_root_key = RootKey::other;
  std::optional<bool> m_success;
  std::int64_t m_code = 0;
  std::string m_message;
  bool m_data_is_array = false;
  std::vector<LiveTenant> m_rows;
  util::Status m_row_error;
  std::size_t m_row_index = 0;
  RowValues m_row;
  std::optional<RowMember> m_member;
  MemberValue* m_described = nullptr;          // the member whose container is being counted
  std::size_t m_count_depth = k_not_counting;  // stack size while inside that container
  std::size_t m_count = 0;
  std::optional<std::size_t> m_parse_error_offset;
  std::optional<std::string> m_other_error;
};

}  // namespace

util::Result<std::vector<LiveTenant>> parse_tenant_list_response(std::optional<int> http_status, std::string_view body,
                                                                 std::size_t max_tenants) {
  if (http_status && *http_status != 200) {
    // Lead with the status: an error page from a proxy is not "invalid JSON at byte 0".
    const bool inactive = *http_status == 503 && body.find(k_inactive_message) != std::string_view::npos;
    if (inactive) return error_body_status(http_status, 0, std::string());
    const std::string answered = "the master answered " + source::http_status_text(*http_status) + " (" +
                                 std::to_string(body.size()) + " bytes" +
                                 (body.empty() ? std::string() : ": \"" + source::body_excerpt(body) + "\"") + ")";
    if (*http_status >= 500) return util::Status::unavailable(answered);  // a proxy's 502/503/504: retried
    if (!json::accept(body.begin(), body.end())) return util::Status::corruption(answered);
  }
  const std::string what =
      "live tenant list" + (http_status ? " (HTTP " + std::to_string(*http_status) + ")" : std::string());
  if (auto at = too_deep_at(body)) {
    return util::Status::corruption(what + ": body nests arrays/objects deeper than " +
                                    std::to_string(k_max_nesting_depth) + " levels (at byte offset " +
                                    std::to_string(*at) + "; a tenant list needs 3)");
  }
  ListReader reader(max_tenants);
  json::sax_parse(body.begin(), body.end(), &reader);
  if (reader.limit_row()) {
    return util::Status::limit_exceeded(what + ": more than " + std::to_string(max_tenants) + " tenants (data[" +
                                        std::to_string(*reader.limit_row()) +
                                        "] is one too many; --max-tenants raises the limit, a real master "
                                        "serves thousands)");
  }
  if (reader.parse_error_offset()) {
    return util::Status::corruption(what + ": body is not valid JSON at byte offset " +
                                    std::to_string(*reader.parse_error_offset()) + " of " +
                                    std::to_string(body.size()));
  }
  if (reader.other_error()) {
    return util::Status::corruption(what + ": body is not usable JSON (" + *reader.other_error() + ")");
  }
  return reader.finish(http_status);
}

}  // namespace moonquota::reconcile
