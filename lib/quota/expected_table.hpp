// `quota-rebuild --expect FILE`: the rebuilt account table compared with an expected one, field by
// field (the file is read by reconcile/expected_table_reader.hpp). An expected table comes in one
// of three forms:
//   our own `quota-rebuild --format json` (schema quota-rebuild/1: its "tenants", every row),
//   a master's `GET /api/v1/tenant_quotas` response ({"success": true, "data": [...]}: the rows a
//   master lists, so only the rebuilt table's visible rows are compared with it),
//   a bare array of such rows.
// A row needs tenant_id, charged_bytes, requested_quota_bytes, effective_quota_bytes (or the short
// names charged, requested, effective of a captured table), admission_closed, over_quota and
// has_explicit_policy; other members are ignored.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "quota/account_table.hpp"
#include "quota/tenant_quota_row.hpp"
#include "util/status.hpp"

namespace moonquota::quota {

inline constexpr std::uint64_t k_max_expected_file_bytes = 64ULL << 20;
inline constexpr std::size_t k_max_expected_rows = 1'000'000;

enum class ExpectedForm { rebuild_json, master_response, bare_array };
[[nodiscard]] const char* expected_form_name(ExpectedForm form);

struct ExpectedTable {
  ExpectedForm form = ExpectedForm::bare_array;
  std::vector<TenantQuotaRow> rows;  // as in the file
};

struct FieldDifference {
  std::string tenant_id;
  std::string field;  // charged_bytes, requested_quota_bytes, ..., as in the JSON
  std::string expected;
  std::string rebuilt;
};

struct TableComparison {
  ExpectedForm form = ExpectedForm::bare_array;
  std::uint64_t compared = 0;                    // tenants on both sides
  std::vector<FieldDifference> differences;      // by tenant id (bytewise), then field order
  std::vector<std::string> missing_in_rebuilt;   // expected, not rebuilt (sorted)
  std::vector<std::string> missing_in_expected;  // rebuilt (visible, for a master's list), not expected
  [[nodiscard]] bool matches() const {
    return differences.empty() && missing_in_rebuilt.empty() && missing_in_expected.empty();
  }
};

[[nodiscard]] TableComparison compare_with_expected(const AccountTable& rebuilt, const ExpectedTable& expected);

}  // namespace moonquota::quota
