#include "history/tenant_row_json.hpp"

namespace moonquota::history {

nlohmann::ordered_json tenant_row_json(const std::optional<quota::TenantQuotaRow>& r) {
  if (!r) return nullptr;
  return {{"requested_quota_bytes", r->requested_quota_bytes},
          {"effective_quota_bytes", r->effective_quota_bytes},
          {"charged_bytes", r->charged_bytes},
          {"admission_closed", r->admission_closed},
          {"over_quota", r->over_quota},
          {"has_explicit_policy", r->has_explicit_policy}};
}

std::optional<quota::TenantQuotaRow> tenant_row_from(const nlohmann::json& j, const std::string& tenant_id) {
  if (j.is_null()) return std::nullopt;
  quota::TenantQuotaRow r;
  r.tenant_id = tenant_id;
  r.requested_quota_bytes = j.at("requested_quota_bytes").get<std::uint64_t>();
  r.effective_quota_bytes = j.at("effective_quota_bytes").get<std::uint64_t>();
  r.charged_bytes = j.at("charged_bytes").get<std::uint64_t>();
  r.admission_closed = j.at("admission_closed").get<bool>();
  r.over_quota = j.at("over_quota").get<bool>();
  r.has_explicit_policy = j.at("has_explicit_policy").get<bool>();
  return r;
}

}  // namespace moonquota::history
