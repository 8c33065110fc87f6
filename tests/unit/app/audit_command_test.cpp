#include "app/audit_command.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "report/reconcile/reconcile_report.hpp"
#include "source/embedded_catalog.hpp"
#include "source/memory_object_store.hpp"
#include "support/local_store.hpp"
#include "support/snapshot_test_support.hpp"

namespace moonquota::app {
namespace {

const std::string k_r1 = "snapshots/genuine-live/r1_quiescent_orphan/";

// One audit of serve over the r1 store and its saved live reading (no master, no --db).
AuditConfig r1_audit() {
  AuditConfig config;
  auto& request = config.request;
  request.metadata.selection.store_dir = test::source_path(k_r1 + "store");
  request.metadata.policy_file = test::source_path(k_r1 + "policy.yaml");
  request.metadata.restore.restore_time_ms = 1795956296529;
  request.live.sampled_at_ms = 1795956295488;
  request.live.list_files = {test::source_path(k_r1 + "api_list.json")};
  return config;
}

std::string json_report(const RunOutcome& outcome) {
  std::ostringstream out;
  report::render_reconcile(outcome.audit->report, nullptr, report::OutputFormat::json, {}, out);
  return out.str();
}

// serve's audit reads the metadata through the store it is handed: the store's files loaded into
// memory give the audit the files give.
TEST(AuditCommand, AnAuditOfAStoreInMemoryIsTheAuditOfItsFiles) {
  const AuditConfig config = r1_audit();
  source::MemoryObjectStore memory;
  ASSERT_TRUE(memory.load_directory(config.request.metadata.selection.store_dir).ok());
  const RunOutcome files = run_audit(test::local_files(), config);
  const RunOutcome in_memory = run_audit(memory, config);
  ASSERT_TRUE(files.audit) << files.error;
  ASSERT_TRUE(in_memory.audit) << in_memory.error;
  EXPECT_EQ(in_memory.result, files.result);
  EXPECT_EQ(in_memory.exit_code, files.exit_code);
  EXPECT_FALSE(in_memory.audit->report.tenants.empty());
  EXPECT_EQ(json_report(in_memory), json_report(files));
}

TEST(AuditCommand, AStoreInMemoryWithoutItsMetadataIsAnErrorOutcomeNamingTheRoot) {
  const AuditConfig config = r1_audit();
  source::MemoryObjectStore empty;
  const RunOutcome outcome = run_audit(empty, config);
  EXPECT_EQ(outcome.result, RunResult::error);
  EXPECT_FALSE(outcome.audit);
  EXPECT_NE(outcome.error.find("no snapshot root"), std::string::npos) << outcome.error;
}

}  // namespace
}  // namespace moonquota::app
