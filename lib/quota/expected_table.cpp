#include "quota/expected_table.hpp"

#include <map>
#include <set>

namespace moonquota::quota {

namespace {

std::string yes_no(bool v) { return v ? "true" : "false"; }

}  // namespace

const char* expected_form_name(ExpectedForm form) {
  switch (form) {
    case ExpectedForm::rebuild_json: return "quota-rebuild/1";
    case ExpectedForm::master_response: return "master tenant_quotas response";
    case ExpectedForm::bare_array: return "array of rows";
  }
  return "?";
}

TableComparison compare_with_expected(const AccountTable& rebuilt, const ExpectedTable& expected) {
  TableComparison out;
  out.form = expected.form;
  std::map<std::string, const TenantQuotaRow*> wanted;
  for (const auto& row : expected.rows) wanted.emplace(row.tenant_id, &row);
  // A master lists only the visible rows (an explicit policy, or a charge).
  const bool visible_only = expected.form != ExpectedForm::rebuild_json;
  std::set<std::string> rebuilt_ids;
  for (const auto& row : rebuilt.rows) {
    if (visible_only && !row.visible) continue;
    rebuilt_ids.insert(row.tenant_id);
    const auto it = wanted.find(row.tenant_id);
    if (it == wanted.end()) {
      out.missing_in_expected.push_back(row.tenant_id);
      continue;
    }
    ++out.compared;
    const TenantQuotaRow& e = *it->second;
    const auto differ = [&](const char* field, const std::string& want, const std::string& have) {
      if (want != have) out.differences.push_back({row.tenant_id, field, want, have});
    };
    differ("charged_bytes", std::to_string(e.charged_bytes), std::to_string(row.charged_bytes));
    differ("requested_quota_bytes", std::to_string(e.requested_quota_bytes), std::to_string(row.requested_quota_bytes));
    differ("effective_quota_bytes", std::to_string(e.effective_quota_bytes), std::to_string(row.effective_quota_bytes));
    differ("admission_closed", yes_no(e.admission_closed), yes_no(row.admission_closed));
    differ("over_quota", yes_no(e.over_quota), yes_no(row.over_quota));
    differ("has_explicit_policy", yes_no(e.has_explicit_policy), yes_no(row.has_explicit_policy));
  }
  for (const auto& [id, row] : wanted) {
    if (rebuilt_ids.count(id) == 0) out.missing_in_rebuilt.push_back(id);
  }
  return out;
}

}  // namespace moonquota::quota
