#include "reconcile/master_admin.hpp"

#include <nlohmann/json.hpp>

#include "reconcile/repair_plan.hpp"
#include "reconcile/tenant_list.hpp"

namespace moonquota::reconcile {

namespace {

using util::Status;

// The error members of a {"success":false,...} body, when it is one.
void read_error(const std::string& body, AdminAnswer& a) {
  const auto j = nlohmann::json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return;
  if (auto it = j.find("error_code"); it != j.end() && it->is_number_integer()) a.error_code = it->get<std::int64_t>();
  if (auto it = j.find("error_message"); it != j.end() && it->is_string()) a.error_message = it->get<std::string>();
  if (auto it = j.find("removed_count"); it != j.end() && it->is_number_integer()) {
    a.removed_count = it->get<std::int64_t>();
  }
}

// A 200 body {"success":true,"data":<snapshot>} read by the list's parser (the same member rules).
util::Result<LiveTenant> tenant_of(const std::string& body, const std::string& what) {
  const auto j = nlohmann::json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("data") || !j.at("data").is_object()) {
    return Status::corruption(what + ": the answer is not {\"success\":true,\"data\":<tenant>}");
  }
  nlohmann::json list = j;
  list["data"] = nlohmann::json::array({j.at("data")});
  auto rows = parse_tenant_list_response(200, list.dump(), 1);
  if (!rows.ok()) return rows.status().with_context(what);
  if (rows->size() != 1) return Status::corruption(what + ": no tenant in the answer");
  return rows->front();
}

}  // namespace

std::string AdminAnswer::summary() const {
  std::string s = "HTTP " + std::to_string(status);
  if (error_code) s += ", error_code " + std::to_string(*error_code);
  if (!error_message.empty()) s += " " + error_message;
  return s;
}

std::string percent_encode(std::string_view raw) {
  static constexpr char k_hex[] = "0123456789ABCDEF";
  std::string out;
  for (const char c : raw) {
    if (url_unreserved(std::string_view(&c, 1))) {
      out.push_back(c);
    } else {
      const auto b = static_cast<unsigned char>(c);
      out += {'%', k_hex[b >> 4], k_hex[b & 15]};
    }
  }
  return out;
}

std::string admin_request_line(const std::string& method, const std::string& path, const std::string& body) {
  return method + " " + path + (body.empty() ? "" : " " + body);
}

std::string step_request_line(const PlanStep& s) {
  switch (s.action) {
    case RepairAction::adopt_orphan:
      return admin_request_line("PUT", MasterAdmin::tenant_path(s.tenant_id),
                                MasterAdmin::policy_body(s.requested_quota_bytes.value_or(0)));
    case RepairAction::retire_empty_policy:
      return admin_request_line("DELETE", MasterAdmin::tenant_path(s.tenant_id), "");
    case RepairAction::purge_tenant: return admin_request_line("POST", MasterAdmin::remove_all_path(s.tenant_id), "");
    case RepairAction::resync_requires_restart: return "";
  }
  return "";
}

std::string MasterAdmin::tenant_path(const std::string& id) {
  return "/api/v1/tenant_quotas?tenant_id=" + percent_encode(id);
}

std::string MasterAdmin::remove_all_path(const std::string& id) {
  return "/api/v1/remove_all?tenant_id=" + id + "&force=false";
}

std::string MasterAdmin::policy_body(std::uint64_t bytes) {
  return "{\"requested_quota_bytes\":" + std::to_string(bytes) + "}";
}

util::Result<AdminAnswer> MasterAdmin::send(const std::string& method, const std::string& path, const std::string& body,
                                            bool tenant_body) {
  const std::string what = method + " " + m_client.address().display + path;
  MQ_ASSIGN_OR_RETURN(const HttpAnswer answer, m_client.request(method, path, body));
  if (answer.status == 503) {
    return Status::unavailable(what + ": 503, not the serving leader (service plane is not active)");
  }
  AdminAnswer a;
  a.status = answer.status;
  read_error(answer.body, a);
  if (a.ok() && tenant_body) { MQ_ASSIGN_OR_RETURN(a.tenant, tenant_of(answer.body, what)); }
  return a;
}

util::Result<AdminAnswer> MasterAdmin::get_tenant(const std::string& id) {
  return send("GET", tenant_path(id), "", true);
}

util::Result<AdminAnswer> MasterAdmin::put_policy(const std::string& id, std::uint64_t bytes) {
  return send("PUT", tenant_path(id), policy_body(bytes), true);
}

util::Result<AdminAnswer> MasterAdmin::delete_policy(const std::string& id) {
  return send("DELETE", tenant_path(id), "", false);
}

util::Result<AdminAnswer> MasterAdmin::remove_all(const std::string& id) {
  if (id.empty() || !url_unreserved(id)) {
    return Status::invalid_argument("remove_all of '" + id +
                                    "': only a non-empty id of unreserved characters can be sent (the master does not "
                                    "URL-decode it, and an empty id removes every tenant's objects)");
  }
  return send("POST", remove_all_path(id), "", false);
}

}  // namespace moonquota::reconcile
