#include "reconcile/repair_plan_json.hpp"

#include <nlohmann/json.hpp>

#include "util/text_encoding.hpp"

namespace moonquota::reconcile {

namespace {

using Json = nlohmann::ordered_json;

Json id_json(const std::string& id) {
  if (util::is_valid_utf8(id)) return id;
  return Json{{"hex", util::to_hex(id)}};
}

Json optional_json(const std::optional<std::uint64_t>& v) { return v ? Json(*v) : Json(); }

Json step_json(const PlanStep& s) {
  const auto& e = s.evidence;
  const auto& p = s.preconditions;
  Json j;
  j["action"] = repair_action_name(s.action);
  j["tenant_id"] = id_json(s.tenant_id);
  if (s.requested_quota_bytes) j["requested_quota_bytes"] = *s.requested_quota_bytes;
  j["reason"] = util::is_valid_utf8(s.reason) ? s.reason : util::printable(s.reason);
  j["evidence"] = {{"verdict", e.verdict},
                   {"expected_charged_bytes", e.expected_charged_bytes},
                   {"live_charged_bytes", e.live_charged_bytes},
                   {"delta_bytes", e.delta_bytes},
                   {"unexplained_bytes", e.unexplained_bytes},
                   {"metadata_objects", e.metadata_objects},
                   {"live_has_explicit_policy", e.live_has_explicit_policy},
                   {"live_admission_closed", e.live_admission_closed},
                   {"live_requested_quota_bytes", e.live_requested_quota_bytes},
                   {"restart_charged_bytes", optional_json(e.restart_charged_bytes)},
                   {"restart_lease_dropped_bytes", optional_json(e.restart_lease_dropped_bytes)}};
  j["preconditions"] = {{"listed", p.listed},
                        {"has_explicit_policy", p.has_explicit_policy ? Json(*p.has_explicit_policy) : Json()},
                        {"charged_bytes", p.charged_bytes},
                        {"charged_tolerance_bytes", p.charged_tolerance_bytes}};
  return j;
}

// Typed access with the member's path in every error.
class Reader {
 public:
  Reader(const Json& j, std::string path) : m_j(j), m_path(std::move(path)) {}
  const Json& at(const char* name) const {
    if (!m_j.is_object() || !m_j.contains(name)) throw std::runtime_error(where(name) + ": missing");
    return m_j.at(name);
  }
  std::string where(const char* name) const { return m_path.empty() ? name : m_path + "." + name; }
  std::uint64_t u64(const char* name) const {
    const Json& v = at(name);
    if (!v.is_number_unsigned()) throw std::runtime_error(where(name) + ": not a non-negative integer");
    return v.get<std::uint64_t>();
  }
  std::int64_t i64(const char* name) const {
    const Json& v = at(name);
    if (!v.is_number_integer()) throw std::runtime_error(where(name) + ": not an integer");
    if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX)) {
      throw std::runtime_error(where(name) + ": out of range");
    }
    return v.get<std::int64_t>();
  }
  std::optional<std::uint64_t> optional_u64(const char* name) const {
    if (m_j.contains(name) && m_j.at(name).is_null()) return std::nullopt;
    return u64(name);
  }
  bool boolean(const char* name) const {
    const Json& v = at(name);
    if (!v.is_boolean()) throw std::runtime_error(where(name) + ": not true or false");
    return v.get<bool>();
  }
  std::string text(const char* name) const {
    const Json& v = at(name);
    if (!v.is_string()) throw std::runtime_error(where(name) + ": not a string");
    return v.get<std::string>();
  }
  std::string id(const char* name) const {
    const Json& v = at(name);
    if (v.is_string()) return v.get<std::string>();
    if (v.is_object() && v.size() == 1 && v.contains("hex") && v.at("hex").is_string()) {
      auto bytes = util::from_hex(v.at("hex").get<std::string>());
      if (!bytes) throw std::runtime_error(where(name) + ".hex: not lowercase hex, two digits a byte");
      return std::move(*bytes);
    }
    throw std::runtime_error(where(name) + ": not a tenant id (a string, or {\"hex\": ...})");
  }

 private:
  const Json& m_j;
  std::string m_path;
};

PlanStep step_from(const Json& j, const std::string& path) {
  const Reader r(j, path);
  PlanStep s;
  const std::string action = r.text("action");
  const auto parsed = parse_repair_action(action);
  if (!parsed) throw std::runtime_error(r.where("action") + ": '" + util::printable(action) + "' is not an action");
  s.action = *parsed;
  s.tenant_id = r.id("tenant_id");
  if (s.tenant_id.empty()) throw std::runtime_error(r.where("tenant_id") + ": empty");
  if (s.action == RepairAction::purge_tenant && !url_unreserved(s.tenant_id)) {
    throw std::runtime_error(r.where("tenant_id") +
                             ": a purge sends the id to remove_all, which does not URL-decode it: only A-Z a-z 0-9 "
                             "- . _ ~");
  }
  if (s.action == RepairAction::adopt_orphan) {
    s.requested_quota_bytes = r.u64("requested_quota_bytes");
    if (*s.requested_quota_bytes == 0 || *s.requested_quota_bytes > static_cast<std::uint64_t>(INT64_MAX)) {
      throw std::runtime_error(r.where("requested_quota_bytes") + ": outside [1, 2^63-1] (the master refuses it)");
    }
  } else if (j.contains("requested_quota_bytes")) {
    throw std::runtime_error(r.where("requested_quota_bytes") + ": only adopt-orphan sets a quota");
  }
  s.reason = r.text("reason");
  const Reader e(r.at("evidence"), r.where("evidence"));
  s.evidence.verdict = e.text("verdict");
  s.evidence.expected_charged_bytes = e.u64("expected_charged_bytes");
  s.evidence.live_charged_bytes = e.u64("live_charged_bytes");
  s.evidence.delta_bytes = e.i64("delta_bytes");
  s.evidence.unexplained_bytes = e.i64("unexplained_bytes");
  s.evidence.metadata_objects = e.u64("metadata_objects");
  s.evidence.live_has_explicit_policy = e.boolean("live_has_explicit_policy");
  s.evidence.live_admission_closed = e.boolean("live_admission_closed");
  s.evidence.live_requested_quota_bytes = e.u64("live_requested_quota_bytes");
  s.evidence.restart_charged_bytes = e.optional_u64("restart_charged_bytes");
  s.evidence.restart_lease_dropped_bytes = e.optional_u64("restart_lease_dropped_bytes");
  const Reader p(r.at("preconditions"), r.where("preconditions"));
  s.preconditions.listed = p.boolean("listed");
  if (!p.at("has_explicit_policy").is_null()) s.preconditions.has_explicit_policy = p.boolean("has_explicit_policy");
  s.preconditions.charged_bytes = p.u64("charged_bytes");
  s.preconditions.charged_tolerance_bytes = p.u64("charged_tolerance_bytes");
  return s;
}

}  // namespace

std::string plan_json(const RepairPlan& plan) {
  Json j;
  j["schema"] = k_plan_schema;
  j["cluster"] = plan.cluster;
  j["model"] = plan.model;
  j["audit_at_ms"] = plan.audit_at_ms;
  j["master"] = plan.master;
  j["tolerance_bytes"] = plan.tolerance_bytes;
  Json steps = Json::array();
  for (const auto& s : plan.steps) steps.push_back(step_json(s));
  j["steps"] = std::move(steps);
  j["notes"] = plan.notes;
  return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

util::Result<RepairPlan> parse_plan_json(std::string_view text, const std::string& source) {
  try {
    const Json j = Json::parse(text);
    const Reader r(j, "");
    const std::string schema = r.text("schema");
    if (schema != k_plan_schema) {
      return util::Status::corruption(source + ": schema '" + util::printable(schema) + "', expected " + k_plan_schema);
    }
    RepairPlan plan;
    plan.cluster = r.text("cluster");
    plan.model = r.text("model");
    plan.audit_at_ms = r.u64("audit_at_ms");
    plan.master = r.text("master");
    plan.tolerance_bytes = r.u64("tolerance_bytes");
    const Json& steps = r.at("steps");
    if (!steps.is_array()) return util::Status::corruption(source + ": steps: not an array");
    for (std::size_t i = 0; i < steps.size(); ++i) {
      plan.steps.push_back(step_from(steps[i], "steps[" + std::to_string(i) + "]"));
    }
    const Json& notes = r.at("notes");
    if (!notes.is_array()) return util::Status::corruption(source + ": notes: not an array");
    for (const auto& n : notes) {
      if (!n.is_string()) return util::Status::corruption(source + ": notes: not strings");
      plan.notes.push_back(n.get<std::string>());
    }
    return plan;
  } catch (const std::exception& e) {
    return util::Status::corruption(source + ": not a " + std::string(k_plan_schema) + " plan: " + e.what());
  }
}

}  // namespace moonquota::reconcile
