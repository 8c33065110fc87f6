#include "reconcile/expected_table_reader.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

#include "util/text_encoding.hpp"

namespace moonquota::reconcile {

namespace {

using nlohmann::json;
using quota::ExpectedForm;
using quota::ExpectedTable;
using quota::TenantQuotaRow;
using util::Status;

// A row's members; the three amounts also under the short names of a captured table
// ("charged", "requested", "effective", as the genuine stores' restored.json spells them).
constexpr const char* k_expected_row_members[] = {"tenant_id",
                                                  "charged_bytes",
                                                  "requested_quota_bytes",
                                                  "effective_quota_bytes",
                                                  "charged",
                                                  "requested",
                                                  "effective",
                                                  "admission_closed",
                                                  "over_quota",
                                                  "has_explicit_policy"};

bool row_member(const std::string& key) {
  return std::find(std::begin(k_expected_row_members), std::end(k_expected_row_members), key) !=
         std::end(k_expected_row_members);
}

Status bad_row(const std::string& where, const std::string& why) { return Status::corruption(where + ": " + why); }

util::Result<std::uint64_t> unsigned_member(const json& row, const char* member, const char* short_name,
                                            const std::string& where) {
  auto it = row.find(member);
  if (it == row.end()) it = row.find(short_name);
  if (it == row.end()) return bad_row(where, std::string("no ") + member);
  if (!it->is_number_unsigned()) {
    if (it->is_number_integer() && it->get<std::int64_t>() >= 0) return it->get<std::uint64_t>();
    return bad_row(where, std::string(member) + " is not an unsigned integer");
  }
  return it->get<std::uint64_t>();
}

util::Result<bool> bool_member(const json& row, const char* member, const std::string& where) {
  const auto it = row.find(member);
  if (it == row.end()) return bad_row(where, std::string("no ") + member);
  if (!it->is_boolean()) return bad_row(where, std::string(member) + " is not true or false");
  return it->get<bool>();
}

util::Result<TenantQuotaRow> row_of(const json& row, const std::string& where) {
  if (!row.is_object()) return bad_row(where, "not an object");
  TenantQuotaRow out;
  const auto id = row.find("tenant_id");
  if (id == row.end() || !id->is_string()) return bad_row(where, "no tenant_id string");
  out.tenant_id = id->get<std::string>();
  MQ_ASSIGN_OR_RETURN(out.charged_bytes, unsigned_member(row, "charged_bytes", "charged", where));
  MQ_ASSIGN_OR_RETURN(out.requested_quota_bytes, unsigned_member(row, "requested_quota_bytes", "requested", where));
  MQ_ASSIGN_OR_RETURN(out.effective_quota_bytes, unsigned_member(row, "effective_quota_bytes", "effective", where));
  MQ_ASSIGN_OR_RETURN(out.admission_closed, bool_member(row, "admission_closed", where));
  MQ_ASSIGN_OR_RETURN(out.over_quota, bool_member(row, "over_quota", where));
  MQ_ASSIGN_OR_RETURN(out.has_explicit_policy, bool_member(row, "has_explicit_policy", where));
  return out;
}

}  // namespace

util::Result<ExpectedTable> parse_expected_table(const std::string& text, const std::string& name) {
  // Only the document members that hold rows and the rows' own members are kept while parsing
  // (keys at depth 1: the document's; at depth 2: a bare array's rows'; at depth 3: the rows' under
  // "tenants" or "data"): what else the file holds is parsed and dropped.
  const json::parser_callback_t keep = [](int depth, json::parse_event_t event, json& parsed) {
    if (event != json::parse_event_t::key) return true;
    const auto& key = parsed.get_ref<const std::string&>();
    if (depth == 1) return key == "schema" || key == "success" || key == "tenants" || key == "data";
    return (depth == 2 || depth == 3) && row_member(key);
  };
  json doc = json::parse(text, keep, false);
  if (doc.is_discarded()) return Status::corruption(name + ": not JSON");
  ExpectedTable out;
  const json* rows = nullptr;
  std::string member;
  if (doc.is_array()) {
    out.form = ExpectedForm::bare_array;
    rows = &doc;
  } else if (doc.is_object() && doc.contains("schema")) {
    const auto& schema = doc["schema"];
    if (!schema.is_string() || schema.get<std::string>().rfind("quota-rebuild/", 0) != 0) {
      return Status::corruption(name + ": schema is not quota-rebuild/1");
    }
    out.form = ExpectedForm::rebuild_json;
    member = "tenants";
  } else if (doc.is_object() && doc.contains("success")) {
    if (doc["success"] != true) return Status::corruption(name + ": the master's response says success: false");
    out.form = ExpectedForm::master_response;
    member = "data";
  } else {
    return Status::corruption(name + ": neither quota-rebuild JSON, a master's tenant_quotas response nor an array");
  }
  if (!member.empty()) {
    const auto it = doc.find(member);
    if (it == doc.end() || !it->is_array()) return Status::corruption(name + ": no " + member + " array");
    rows = &*it;
  }
  if (rows->size() > quota::k_max_expected_rows) {
    return Status::limit_exceeded(name + ": more than " + std::to_string(quota::k_max_expected_rows) + " rows");
  }
  std::set<std::string> seen;
  for (std::size_t i = 0; i < rows->size(); ++i) {
    const std::string where = name + ": " + (member.empty() ? "" : member) + "[" + std::to_string(i) + "]";
    MQ_ASSIGN_OR_RETURN(TenantQuotaRow row, row_of((*rows)[i], where));
    if (!seen.insert(row.tenant_id).second) {
      return Status::corruption(where + ": tenant '" + util::printable(row.tenant_id) + "' twice");
    }
    out.rows.push_back(std::move(row));
  }
  return out;
}

}  // namespace moonquota::reconcile
