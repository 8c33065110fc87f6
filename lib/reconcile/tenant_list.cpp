#include "reconcile/tenant_list.hpp"

#include <nlohmann/json.hpp>

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

util::Status read_u64(const json& obj, std::size_t row, const char* member, std::uint64_t& out) {
  auto it = obj.find(member);
  if (it == obj.end()) return bad_member(row, member, "is missing");
  if (!it->is_number_unsigned()) {
    const bool negative = it->is_number_integer();
    return bad_member(row, member, negative ? "is negative" : "is not an unsigned integer: " + describe(*it));
  }
  out = it->get<std::uint64_t>();
  return {};
}

util::Status read_bool(const json& obj, std::size_t row, const char* member, bool& out) {
  auto it = obj.find(member);
  if (it == obj.end()) return bad_member(row, member, "is missing");
  if (!it->is_boolean()) return bad_member(row, member, "is not a boolean: " + describe(*it));
  out = it->get<bool>();
  return {};
}

util::Result<LiveTenant> read_row(const json& row, std::size_t i) {
  if (!row.is_object()) return bad_member(i, "", "is not an object");
  LiveTenant t;
  auto id = row.find("tenant_id");
  if (id == row.end()) return bad_member(i, "tenant_id", "is missing");
  if (!id->is_string()) return bad_member(i, "tenant_id", "is not a string: " + describe(*id));
  t.tenant_id = id->get<std::string>();
  MQ_RETURN_IF_ERROR(read_u64(row, i, "requested_quota_bytes", t.requested_quota_bytes));
  MQ_RETURN_IF_ERROR(read_u64(row, i, "effective_quota_bytes", t.effective_quota_bytes));
  MQ_RETURN_IF_ERROR(read_u64(row, i, "charged_bytes", t.charged_bytes));
  if (t.charged_bytes > util::k_max_charged_bytes) return bad_member(i, "charged_bytes", "exceeds 2^63-1");
  MQ_RETURN_IF_ERROR(read_bool(row, i, "admission_closed", t.admission_closed));
  MQ_RETURN_IF_ERROR(read_bool(row, i, "over_quota", t.over_quota));
  MQ_RETURN_IF_ERROR(read_bool(row, i, "has_explicit_policy", t.has_explicit_policy));
  return t;
}

util::Status error_body_status(std::optional<int> http_status, const json& body) {
  std::int64_t code = 0;
  std::string message;
  if (auto it = body.find("error_code"); it != body.end() && it->is_number_integer()) code = it->get<std::int64_t>();
  if (auto it = body.find("error_message"); it != body.end() && it->is_string()) message = it->get<std::string>();
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

}  // namespace

util::Result<std::vector<LiveTenant>> parse_tenant_list_response(std::optional<int> http_status,
                                                                 std::string_view body) {
  if (http_status && *http_status != 200) {
    // Lead with the status: an error page from a proxy is not "invalid JSON at byte 0".
    const bool inactive = *http_status == 503 && body.find(k_inactive_message) != std::string_view::npos;
    if (inactive) return error_body_status(http_status, json::object());
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
  json doc;
  try {
    doc = json::parse(body.begin(), body.end());
  } catch (const json::parse_error& e) {
    // e.byte is 1-based and points just past the offending character; report a 0-based offset.
    const std::size_t offset = e.byte > 0 ? e.byte - 1 : 0;
    return util::Status::corruption(what + ": body is not valid JSON at byte offset " + std::to_string(offset) +
                                    " of " + std::to_string(body.size()));
  } catch (const json::exception& e) {  // e.g. out_of_range 406: a number too large even for a double
    return util::Status::corruption(what + ": body is not usable JSON (" + cut(e.what(), 120) + ")");
  }
  if (!doc.is_object()) return util::Status::corruption("live tenant list: body is not a JSON object");
  auto success = doc.find("success");
  if (success == doc.end() || !success->is_boolean()) {
    return util::Status::corruption("live tenant list: member success is missing or not a boolean");
  }
  if (!success->get<bool>() || (http_status && *http_status != 200)) return error_body_status(http_status, doc);
  auto data = doc.find("data");
  if (data == doc.end() || !data->is_array()) return util::Status::corruption("live tenant list: data is not an array");
  std::vector<LiveTenant> rows;
  rows.reserve(data->size());
  for (std::size_t i = 0; i < data->size(); ++i) {
    MQ_ASSIGN_OR_RETURN(auto row, read_row((*data)[i], i));
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace moonquota::reconcile
