#include "report/rebuild/rebuild_report.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace moonquota::report {
namespace {

quota::RebuildResult sample_result() {
  quota::RebuildResult r;
  r.selection.store_dir = "store";
  r.restore_time_ms = 42;
  r.outcome.attempts = {{"20260822_051200_123", false, "metadata: bad"}};
  r.outcome.empty_reason = "every snapshot candidate was rejected";
  quota::AccountRow row;
  row.tenant_id = "a\xff";  // not UTF-8
  row.has_explicit_policy = true;
  row.admission_closed = false;
  row.requested_quota_bytes = 10;
  row.visible = true;
  r.table.rows.push_back(row);
  return r;
}

TEST(RebuildReport, JsonFollowsTheContractForAnEmptyMaster) {
  auto j = rebuild_report_json(sample_result());
  EXPECT_EQ(j["schema"], "quota-rebuild/1");
  EXPECT_TRUE(j["source"]["snapshot_id"].is_null());
  EXPECT_EQ(j["source"]["path"], "restore");
  EXPECT_EQ(j["restore_time_ms"], 42u);
  EXPECT_EQ(j["master_starts_empty"], true);
  EXPECT_EQ(j["candidates"][0]["reason"], "metadata: bad");
  for (const char* key : {"non_complete", "lease_expired", "undecodable"}) EXPECT_EQ(j["dropped"][key], 0u);
  ASSERT_EQ(j["tenants"].size(), 1u);
  for (const char* key :
       {"tenant_id", "object_count", "charged_bytes", "requested_quota_bytes", "effective_quota_bytes",
        "has_explicit_policy", "admission_closed", "over_quota", "orphan", "visible"}) {
    EXPECT_TRUE(j["tenants"][0].contains(key)) << key;
  }
}

TEST(RebuildReport, NonUtf8TenantIdsKeepTheirBytesInHex) {
  std::string text = rebuild_report_json_text(sample_result());  // must not throw
  auto j = nlohmann::json::parse(text);
  EXPECT_EQ(j["tenants"][0]["tenant_id_hex"], "61ff");
  EXPECT_EQ(j["tenants"][0]["tenant_id"], "a\xef\xbf\xbd");
}

TEST(RebuildReport, TextSaysTheMasterStartsEmpty) {
  std::ostringstream out;
  render_rebuild_text(sample_result(), out);
  EXPECT_NE(out.str().find("PREDICTION: the master starts with EMPTY metadata"), std::string::npos);
  EXPECT_NE(out.str().find("rejected:  20260822_051200_123: metadata: bad"), std::string::npos);
}

}  // namespace
}  // namespace moonquota::report
