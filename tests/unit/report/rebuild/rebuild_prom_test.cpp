#include "report/rebuild/rebuild_prom.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace moonquota::report {
namespace {

quota::RebuildResult empty_master() {
  quota::RebuildResult r;
  r.restore_time_ms = 1500;
  r.outcome.empty_reason = "every snapshot candidate was rejected";
  quota::AccountRow row;
  row.tenant_id = "a\xff";  // not UTF-8
  r.table.rows.push_back(row);
  quota::AccountRow quoted;
  quoted.tenant_id = "q\"\\\n";
  quoted.charged_bytes = 7;
  r.table.rows.push_back(quoted);
  return r;
}

std::string render(const quota::RebuildResult& r, int exit_code) {
  std::ostringstream out;
  render_rebuild_prom(r, "cell \"a\"", 1234567, exit_code, out);
  return out.str();
}

TEST(RebuildProm, AnEmptyMasterIsOneOnTheRestorePath) {
  const std::string text = render(empty_master(), 1);
  EXPECT_NE(text.find("moonquota_rebuild_master_starts_empty{path=\"restore\",cluster=\"cell \\\"a\\\"\"} 1\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("moonquota_rebuild_exit_code{cluster=\"cell \\\"a\\\"\"} 1\n"), std::string::npos);
  EXPECT_NE(text.find("moonquota_rebuild_last_run_timestamp_seconds{cluster=\"cell \\\"a\\\"\"} 1234.567\n"),
            std::string::npos);
  EXPECT_NE(text.find("moonquota_rebuild_restore_timestamp_seconds{cluster=\"cell \\\"a\\\"\"} 1.500\n"),
            std::string::npos);
  // No snapshot restored: no snapshot series.
  EXPECT_EQ(text.find("snapshot_age_seconds{"), std::string::npos);
}

TEST(RebuildProm, LabelValuesAreEscapedAndUtf8) {
  const std::string text = render(empty_master(), 1);
  EXPECT_NE(text.find("moonquota_rebuild_charged_bytes{tenant_id=\"0x61ff\","), std::string::npos) << text;
  EXPECT_NE(text.find("moonquota_rebuild_charged_bytes{tenant_id=\"q\\\"\\\\\\n\","), std::string::npos) << text;
}

TEST(RebuildProm, ASnapshotGivesItsCreationAndAge) {
  quota::RebuildResult r = empty_master();
  r.snapshot = quota::SnapshotPoint{"20260822_051200_123", 1000, -2500};
  const std::string text = render(r, 0);
  EXPECT_NE(text.find("moonquota_rebuild_snapshot_created_timestamp_seconds{cluster=\"cell \\\"a\\\"\"} 1.000\n"),
            std::string::npos);
  EXPECT_NE(text.find("moonquota_rebuild_snapshot_age_seconds{cluster=\"cell \\\"a\\\"\"} -2.500\n"),
            std::string::npos);
}

TEST(RebuildProm, AFailureSaysSoWithItsMessage) {
  std::ostringstream out;
  render_rebuild_prom_failure("c", 5000, 4, "etcd \xff unreachable", out);
  const std::string text = out.str();
  EXPECT_NE(text.find("moonquota_rebuild_run_success{cluster=\"c\"} 0\n"), std::string::npos);
  EXPECT_NE(text.find("moonquota_rebuild_exit_code{cluster=\"c\"} 4\n"), std::string::npos);
  EXPECT_NE(text.find("moonquota_rebuild_error{message=\"etcd ? unreachable\",cluster=\"c\"} 1\n"), std::string::npos)
      << text;
  EXPECT_EQ(text.find("master_starts_empty"), std::string::npos);
}

}  // namespace
}  // namespace moonquota::report
