// The master's tenant admin routes a repair uses (live-master-api.md §5.2-§5.4, and remove_all):
//   GET    /api/v1/tenant_quotas?tenant_id=ID       one tenant (404: not visible)
//   PUT    /api/v1/tenant_quotas?tenant_id=ID       {"requested_quota_bytes": N}: upsert a policy
//   DELETE /api/v1/tenant_quotas?tenant_id=ID       remove a policy (409 TENANT_NOT_EMPTY)
//   POST   /api/v1/remove_all?tenant_id=ID&force=false   remove the tenant's objects
// The admin port has no authentication and no compare-and-set; callers re-read before a change.
// ID is percent-encoded (every byte outside the unreserved characters) for the tenant routes,
// which URL-decode it; remove_all does not decode it, so only unreserved ids are sent there.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "reconcile/live_types.hpp"
#include "reconcile/master_client.hpp"
#include "util/status.hpp"

namespace moonquota::reconcile {

struct AdminAnswer {
  int status = 0;
  std::optional<LiveTenant> tenant;        // the snapshot of a 200 on GET or PUT
  std::optional<std::int64_t> error_code;  // of a {"success":false,...} body
  std::string error_message;
  std::optional<std::int64_t> removed_count;  // remove_all
  [[nodiscard]] bool ok() const { return status == 200; }
  // "HTTP 409, error_code -1702 TENANT_NOT_EMPTY" or "HTTP 200".
  [[nodiscard]] std::string summary() const;
};

// Every byte outside A-Z a-z 0-9 - . _ ~ as %XX.
[[nodiscard]] std::string percent_encode(std::string_view raw);

// The request a step sends, as a line ("PUT /api/v1/tenant_quotas?tenant_id=a {...}").
[[nodiscard]] std::string admin_request_line(const std::string& method, const std::string& path,
                                             const std::string& body);

struct PlanStep;

// The request a plan step sends, as a line; "" for a step that sends nothing.
[[nodiscard]] std::string step_request_line(const PlanStep& step);

class MasterAdmin {
 public:
  explicit MasterAdmin(MasterClient& client) : m_client(client) {}

  [[nodiscard]] static std::string tenant_path(const std::string& id);
  [[nodiscard]] static std::string remove_all_path(const std::string& id);
  [[nodiscard]] static std::string policy_body(std::uint64_t bytes);

  // Errors: unavailable (transport, or 503: not the serving leader), corruption (a 200 whose body
  // is not a tenant snapshot), invalid_argument (remove_all of an id it cannot receive).
  [[nodiscard]] util::Result<AdminAnswer> get_tenant(const std::string& id);
  [[nodiscard]] util::Result<AdminAnswer> put_policy(const std::string& id, std::uint64_t bytes);
  [[nodiscard]] util::Result<AdminAnswer> delete_policy(const std::string& id);
  [[nodiscard]] util::Result<AdminAnswer> remove_all(const std::string& id);

 private:
  [[nodiscard]] util::Result<AdminAnswer> send(const std::string& method, const std::string& path,
                                               const std::string& body, bool tenant_body);
  MasterClient& m_client;
};

}  // namespace moonquota::reconcile
