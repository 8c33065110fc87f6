// quota-reconcile doctor: each dependency the flags name is one check; a wrong --cluster-id names
// the clusters present with their snapshots; a refused port is exit 4, a missing store exit 3;
// against the real etcd and the master stand-in the checks pass.
#include "app/doctor_command.hpp"

#include <gtest/gtest.h>

#include "support/master_stand_in_process.hpp"
#include "support/service_env.hpp"
#include "support/snapshot_test_support.hpp"

namespace moonquota::app {
namespace {

AuditArgs store_args(const std::string& store, const std::string& cluster) {
  AuditArgs a;
  a.metadata.store.store = test::source_path(store);
  if (!cluster.empty()) a.metadata.store.cluster_id = cluster;
  a.metadata.timeout_ms = 500;
  return a;
}

const DoctorCheck* find(const DoctorReport& r, const std::string& name) {
  for (const auto& c : r.checks) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

TEST(Doctor, AGoodStoreNamesItsClusterAndSnapshots) {
  auto r = run_doctor(store_args("snapshots/live-audit/store", ""));
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->exit_code(), 0);
  ASSERT_NE(find(*r, "store"), nullptr);
  EXPECT_EQ(find(*r, "store")->detail, "cluster ids: mooncake_cluster");
  ASSERT_NE(find(*r, "catalog"), nullptr);
  EXPECT_NE(find(*r, "catalog")->detail.find("latest 20261130_113455_000"), std::string::npos);
}

TEST(Doctor, AWrongClusterIdNamesTheClustersPresentWithTheirSnapshots) {
  auto r = run_doctor(store_args("snapshots/survival-promote/store", ""));
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->exit_code(), 3);
  const DoctorCheck* cluster = find(*r, "cluster");
  ASSERT_NE(cluster, nullptr);
  EXPECT_FALSE(cluster->ok);
  EXPECT_EQ(cluster->detail, "no cluster 'mooncake_cluster' in the store");
  EXPECT_NE(cluster->hint.find("give --cluster-id prod-s (prod-s: 1 published snapshot"), std::string::npos)
      << cluster->hint;
  EXPECT_NE(cluster->hint.find("latest 20261129_120000_000"), std::string::npos) << cluster->hint;
}

TEST(Doctor, AMissingStoreIsBadInputAndARefusedServiceIsExit4) {
  AuditArgs a = store_args("snapshots/no-such-store", "");
  a.live.master = {"http://127.0.0.1:" + std::to_string(test::unused_loopback_port())};
  a.metadata.policy_etcd = "127.0.0.1:" + std::to_string(test::unused_loopback_port());
  auto r = run_doctor(a);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(find(*r, "store")->exit_code, 3);
  EXPECT_EQ(find(*r, "master")->exit_code, 4);
  EXPECT_NE(find(*r, "master")->detail.find("connection refused"), std::string::npos);
  EXPECT_EQ(find(*r, "etcd policy")->exit_code, 4);
  EXPECT_EQ(r->exit_code(), 4);  // a service failure outranks bad input
}

TEST(Doctor, NothingToCheckIsAUsageError) {
  auto r = run_doctor(AuditArgs{});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), util::StatusCode::invalid_argument);
}

TEST(Doctor, TheMasterStandInAndTheRealEtcdPass) {
  MQ_REQUIRE_SERVICE(etcd, "ETCD_PORT");
  test::StandInProcess master(test::genuine_r1_stand_in_args());
  ASSERT_TRUE(master.running());
  AuditArgs a;
  a.live.master = {master.url()};
  a.metadata.policy_etcd = etcd;
  a.metadata.oplog_etcd = etcd;
  a.metadata.store.cluster_id = "doctor-test-no-oplog";
  auto r = run_doctor(a);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_NE(find(*r, "master"), nullptr);
  EXPECT_TRUE(find(*r, "master")->ok) << find(*r, "master")->detail;
  EXPECT_EQ(find(*r, "master")->detail, "HTTP 200, 6 tenants");
  EXPECT_TRUE(find(*r, "master metrics")->ok) << find(*r, "master metrics")->detail;
  EXPECT_TRUE(find(*r, "etcd policy")->ok) << find(*r, "etcd policy")->detail;
  // No OpLog under that cluster: a failure naming it (the audit's promote path would find nothing).
  EXPECT_FALSE(find(*r, "etcd oplog")->ok);
  EXPECT_EQ(find(*r, "etcd oplog")->exit_code, 3);
  EXPECT_NE(find(*r, "etcd oplog")->detail.find("doctor-test-no-oplog"), std::string::npos);
}

}  // namespace
}  // namespace moonquota::app
