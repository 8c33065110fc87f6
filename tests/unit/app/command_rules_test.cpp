// The rules of the command layer, decided once in app/ for every tool: which store flags exclude
// which, the defaults a rebuild takes from its path, and the conflicts of an audit's live side
// and model. Each case states the flags as given and what the rule makes of them.
#include <gtest/gtest.h>

#include "app/audit_command.hpp"
#include "app/inspect_command.hpp"
#include "app/rebuild_command.hpp"
#include "app/store_args.hpp"
#include "util/elapsed.hpp"

namespace moonquota::app {
namespace {

std::string usage_error(const util::Status& status) {
  EXPECT_EQ(status.code(), util::StatusCode::invalid_argument) << status.message();
  return status.message();
}

StoreArgs local_store() {
  StoreArgs args;
  args.store = "/srv/store";
  return args;
}

TEST(StoreArgs, TheDefaultsAreThoseOfAMasterReadingItsLatestSnapshot) {
  StoreArgs args = local_store();
  args.restore_time = "1700000000000";
  auto resolved = resolve_store_args(args, {}, {});
  ASSERT_TRUE(resolved.ok()) << resolved.status().message();
  EXPECT_EQ(resolved->selection.store_dir, "/srv/store");
  EXPECT_EQ(resolved->selection.cluster_id, "mooncake_cluster");
  EXPECT_EQ(resolved->selection.snapshot, "latest");
  EXPECT_EQ(resolved->selection.catalog, "embedded");
  EXPECT_EQ(resolved->restore_time_ms, 1700000000000U);
  EXPECT_FALSE(resolved->max_payload_bytes.has_value());
}

TEST(StoreArgs, ARestoreTimeOfPlusADelayCountsFromNow) {
  StoreArgs args = local_store();
  args.restore_time = "+30s";
  const std::uint64_t before = util::epoch_ms_now();
  auto resolved = resolve_store_args(args, {}, {});
  const std::uint64_t after = util::epoch_ms_now();
  ASSERT_TRUE(resolved.ok()) << resolved.status().message();
  EXPECT_GE(resolved->restore_time_ms, before + 30'000);
  EXPECT_LE(resolved->restore_time_ms, after + 30'000);
  for (const char* bad : {"+", "+30", "+x", "+-1s", "now+30s"}) {
    args.restore_time = bad;
    EXPECT_NE(usage_error(resolve_store_args(args, {}, {}).status()).find(std::string("--restore-time '") + bad),
              std::string::npos);
  }
  args.restore_time = "+36526d";
  EXPECT_NE(usage_error(resolve_store_args(args, {}, {}).status()).find("more than 100 years"), std::string::npos);
}

TEST(StoreArgs, EachConflictIsAUsageErrorNamingTheFlag) {
  struct Case {
    StoreArgs args;
    StoreRules rules;
    std::string flag;
  };
  std::vector<Case> cases;
  {
    StoreArgs a = local_store();
    a.snapshot_dir = "/srv/one";
    cases.push_back({a, {}, "--store and --snapshot-dir"});
  }
  for (const char* flag : {"--cluster-id", "--snapshot", "--catalog", "--redis"}) {
    StoreArgs a;
    a.snapshot_dir = "/srv/one";
    if (std::string(flag) == "--cluster-id") a.cluster_id = "c";
    if (std::string(flag) == "--snapshot") a.snapshot = "latest";
    if (std::string(flag) == "--catalog") a.catalog = "embedded";
    if (std::string(flag) == "--redis") a.redis = "127.0.0.1:6379";
    cases.push_back({a, {}, flag});
  }
  {
    StoreArgs a = local_store();
    a.redis = "127.0.0.1:6379";
    cases.push_back({a, {}, "--redis is read only with --catalog redis"});
  }
  {
    StoreArgs a = local_store();
    a.catalog = "redis";
    cases.push_back({a, {}, "--catalog redis needs --redis"});
  }
  cases.push_back({StoreArgs{}, {}, "one of --store or --snapshot-dir is required"});
  {
    StoreArgs a;
    a.store = "";
    cases.push_back({a, {}, "--store: value must not be empty"});
  }
  {
    StoreArgs a = local_store();
    a.restore_time = "yesterday";
    cases.push_back({a, {}, "--restore-time 'yesterday'"});
  }
  for (const auto& c : cases) {
    auto resolved = resolve_store_args(c.args, c.rules, {});
    ASSERT_FALSE(resolved.ok()) << c.flag;
    EXPECT_NE(usage_error(resolved.status()).find(c.flag), std::string::npos) << resolved.status().message();
  }
}

TEST(StoreArgs, ASnapshotDirTakesTheClusterIdOfAnOpLogAndNeedsNoSourceWhenNoneIsRequired) {
  StoreArgs args;
  args.snapshot_dir = "/srv/one";
  args.cluster_id = "prod-a";
  StoreRules rules;
  rules.cluster_names_oplog = true;
  auto resolved = resolve_store_args(args, rules, {});
  ASSERT_TRUE(resolved.ok()) << resolved.status().message();
  EXPECT_EQ(resolved->selection.cluster_id, "prod-a");
  rules.source_required = false;
  EXPECT_TRUE(resolve_store_args(StoreArgs{}, rules, {}).ok());
}

TEST(RebuildCommand, ThePathFollowsTheOpLogAndTheCapacityFollowsThePath) {
  RebuildArgs restore_args;
  restore_args.store = local_store();
  auto restore_plan = plan_rebuild(restore_args);
  ASSERT_TRUE(restore_plan.ok()) << restore_plan.status().message();
  EXPECT_EQ(restore_plan->request.path, quota::MasterPath::restore);
  EXPECT_EQ(restore_plan->request.capacity.mode, quota::parse_capacity("auto")->mode);

  RebuildArgs promote_args = restore_args;
  promote_args.oplog_file = "/srv/oplog.jsonl";
  promote_args.timeout_ms = 1234;
  auto promote_plan = plan_rebuild(promote_args);
  ASSERT_TRUE(promote_plan.ok()) << promote_plan.status().message();
  EXPECT_EQ(promote_plan->request.path, quota::MasterPath::promote);
  EXPECT_EQ(promote_plan->request.capacity.mode, quota::parse_capacity("failover")->mode);
  EXPECT_EQ(promote_plan->request.oplog.net.read_timeout_ms, 1234U);
  EXPECT_EQ(promote_plan->request.selection.net.connect_timeout_ms, 1234U);
}

TEST(RebuildCommand, APathThatContradictsTheOpLogIsAUsageError) {
  RebuildArgs args;
  args.store = local_store();
  args.path = "promote";
  EXPECT_NE(usage_error(plan_rebuild(args).status()).find("--path promote needs"), std::string::npos);
  args.path = "restore";
  args.until_seq = 7;
  EXPECT_NE(usage_error(plan_rebuild(args).status()).find("--path restore reads no OpLog"), std::string::npos);
  args.until_seq.reset();
  args.policy = "a.yaml";
  args.policy_etcd = "127.0.0.1:2379";
  EXPECT_NE(usage_error(plan_rebuild(args).status()).find("--policy and --policy-etcd"), std::string::npos);
}

AuditArgs saved_audit() {
  AuditArgs args;
  args.metadata.store = local_store();
  args.live.live_json = {"/srv/list.json"};
  return args;
}

TEST(AuditCommand, TheModelIsLiveUnlessARestoreTimeIsGiven) {
  auto live = plan_audit(saved_audit());
  ASSERT_TRUE(live.ok()) << live.status().message();
  EXPECT_EQ(live->config.request.metadata.restore.charge_model, restore::ChargeModel::live);
  AuditArgs at_time = saved_audit();
  at_time.metadata.store.restore_time = "now";
  auto restored = plan_audit(at_time);
  ASSERT_TRUE(restored.ok()) << restored.status().message();
  EXPECT_EQ(restored->config.request.metadata.restore.charge_model, restore::ChargeModel::restore);
  at_time.model = "live";
  EXPECT_NE(usage_error(plan_audit(at_time).status()).find("--model live and --restore-time"), std::string::npos);
  AuditArgs keep = saved_audit();
  keep.metadata.lease_model = "keep";
  EXPECT_NE(usage_error(plan_audit(keep).status()).find("--lease-model keep"), std::string::npos);
}

TEST(AuditCommand, AFlagTheLiveSourceWouldIgnoreIsAUsageErrorNamingIt) {
  AuditArgs retries = saved_audit();
  retries.live.retries = 2;
  EXPECT_NE(usage_error(plan_audit(retries).status()).find("--retries applies to --master"), std::string::npos);
  AuditArgs sampled = saved_audit();
  sampled.live.live_json.clear();
  sampled.live.master = {"http://127.0.0.1:9003"};
  sampled.live.sampled_at_ms = 1;
  EXPECT_NE(usage_error(plan_audit(sampled).status()).find("--sampled-at"), std::string::npos);
  AuditArgs both = saved_audit();
  both.live.master = {"http://127.0.0.1:9003"};
  EXPECT_NE(usage_error(plan_audit(both).status()).find("--master excludes"), std::string::npos);
  AuditArgs nothing = saved_audit();
  nothing.live.live_json.clear();
  EXPECT_NE(usage_error(plan_audit(nothing).status()).find("give either --master or saved responses"),
            std::string::npos);
  // serve audits again and again: it needs a master, never a saved response (audit item 1).
  AuditArgs service = saved_audit();
  service.service = true;
  EXPECT_NE(usage_error(plan_audit(service).status()).find("serve samples a master at every audit"), std::string::npos);
  service.live.live_json.clear();
  EXPECT_NE(usage_error(plan_audit(service).status()).find("serve needs --master URL"), std::string::npos);
  service.live.master = {"http://127.0.0.1:9003"};
  EXPECT_TRUE(plan_audit(service).ok());
  AuditArgs persistence = saved_audit();
  persistence.persistence_runs = 3;
  EXPECT_NE(usage_error(plan_audit(persistence).status()).find("--persistence-runs"), std::string::npos);
}

TEST(AuditCommand, ThePlanCarriesTheLiveSideAndTheHistoryAsGiven) {
  AuditArgs args = saved_audit();
  args.live.samples = 3;
  args.tolerance_bytes = 4096;
  args.fail_on = "unexplained";
  args.db = "/srv/db";
  args.persistence_runs = 5;
  args.metadata.timeout_ms = 777;
  auto plan = plan_audit(args);
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  EXPECT_EQ(plan->config.request.live.list_files, args.live.live_json);
  EXPECT_EQ(plan->config.request.live.samples, 3U);
  EXPECT_EQ(plan->config.request.live.max_tenants, reconcile::k_default_max_tenants);
  EXPECT_EQ(plan->config.request.live.timeouts.read_timeout_ms, 777U);
  EXPECT_EQ(plan->config.request.tolerance_bytes, 4096U);
  EXPECT_TRUE(plan->config.fail_on_unexplained);
  EXPECT_EQ(plan->config.db, "/srv/db");
  EXPECT_EQ(plan->config.persistence_runs, 5U);
  EXPECT_EQ(plan->store.selection.store_dir, "/srv/store");
}

InspectArgs inspect_args(const std::string& command) {
  InspectArgs args;
  args.store = local_store();
  args.command = command;
  return args;
}

TEST(InspectCommand, TheCommandsFlagsAreTypedOnce) {
  InspectArgs objects = inspect_args("objects");
  objects.filter.replica_type = "MEMORY";
  objects.filter.status = "4";
  auto plan = plan_inspect(objects);
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  EXPECT_EQ(plan->request.filter.replica_type, std::optional<std::int8_t>(0));
  EXPECT_EQ(plan->request.filter.status, std::optional<std::int16_t>(4));
  InspectArgs top = inspect_args("top");
  top.top_what = "tenants";
  top.top_by = "charge";
  auto top_plan = plan_inspect(top);
  ASSERT_TRUE(top_plan.ok()) << top_plan.status().message();
  EXPECT_EQ(top_plan->request.top_what, report::TopWhat::tenants);
  EXPECT_EQ(top_plan->request.top_by, inspect::RankBy::charge);
  InspectArgs diff = inspect_args("diff");
  diff.other_store = "/srv/other";
  diff.ids = {"20260101_000000_000"};
  auto diff_plan = plan_inspect(diff);
  ASSERT_TRUE(diff_plan.ok()) << diff_plan.status().message();
  EXPECT_EQ(diff_plan->request.snapshot_a, "20260101_000000_000");
  EXPECT_EQ(diff_plan->request.snapshot_b, "latest");
  InspectArgs survival = inspect_args("survival");
  survival.path = "promote";
  survival.oplog_file = "/srv/oplog.jsonl";
  survival.at = "0,10s";
  auto survival_plan = plan_inspect(survival);
  ASSERT_TRUE(survival_plan.ok()) << survival_plan.status().message();
  EXPECT_TRUE(survival_plan->request.promote);
  EXPECT_EQ(survival_plan->request.points.size(), 2U);
}

TEST(InspectCommand, AFlagItsCommandCannotHonourIsAUsageErrorNamingIt) {
  std::vector<std::pair<InspectArgs, std::string>> cases;
  InspectArgs bad_type = inspect_args("objects");
  bad_type.filter.replica_type = "TAPE";
  cases.emplace_back(bad_type, "--replica-type 'TAPE'");
  InspectArgs html = inspect_args("summary");
  html.format = report::OutputFormat::html;
  cases.emplace_back(html, "--format html is offered by survival only");
  InspectArgs one_id = inspect_args("diff");
  one_id.ids = {"a"};
  cases.emplace_back(one_id, "needs two snapshot ids");
  InspectArgs restore_oplog = inspect_args("survival");
  restore_oplog.oplog_file = "/srv/oplog.jsonl";
  cases.emplace_back(restore_oplog, "--path restore reads no OpLog");
  InspectArgs promote_snapshot = inspect_args("survival");
  promote_snapshot.path = "promote";
  promote_snapshot.oplog_file = "/srv/oplog.jsonl";
  promote_snapshot.store.snapshot = "20260101_000000_000";
  cases.emplace_back(promote_snapshot, "latest snapshot only");
  InspectArgs bad_points = inspect_args("survival");
  bad_points.at = "soon";
  cases.emplace_back(bad_points, "soon");
  for (const auto& [args, expected] : cases) {
    auto plan = plan_inspect(args);
    ASSERT_FALSE(plan.ok()) << expected;
    EXPECT_NE(usage_error(plan.status()).find(expected), std::string::npos) << plan.status().message();
  }
}

}  // namespace
}  // namespace moonquota::app
