// diff over the golden pair: two snapshots of one store, and two stores.
#include "inspect/snapshot_diff.hpp"

#include <gtest/gtest.h>

#include "support/snapshot_test_support.hpp"

namespace moonquota::inspect {
namespace {

const std::string k_root_a = "snapshots/inspect-diff-a/store/mooncake_master_snapshot/mooncake_cluster/";
const std::string k_root_b = "snapshots/inspect-diff-b/store/mooncake_master_snapshot/mooncake_cluster/";

util::Result<DiffResult> diff(const std::string& a, const std::string& b, unsigned threads,
                              std::vector<ObjectChange>& changes) {
  DiffOptions options;
  options.scan.restore_time_ms = 1787375520123ULL;
  options.threads = threads;
  const DiffSide sa{test::source_path(a), a.substr(a.size() - 19)};
  const DiffSide sb{test::source_path(b), b.substr(b.size() - 19)};
  return diff_snapshots(sa, sb, options, [&](const ObjectChange& c) { changes.push_back(c); });
}

TEST(SnapshotDiff, TwoSnapshotsOfOneStore) {
  std::vector<ObjectChange> changes;
  auto r = diff(k_root_a + "20260822_050200_000", k_root_a + "20260822_051200_000", 2, changes);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_TRUE(r->differs());
  EXPECT_EQ(r->counts.added, 1u);      // acme/new-one
  EXPECT_EQ(r->counts.removed, 1u);    // acme/goes-away
  EXPECT_EQ(r->counts.changed, 3u);    // grows (size), finishes (statuses), offloaded (replicas)
  EXPECT_EQ(r->counts.unchanged, 1u);  // stays
  ASSERT_EQ(r->segments.size(), 1u);
  EXPECT_EQ(r->segments[0].kind, ChangeKind::added);
  std::map<std::string, std::vector<std::string>> fields;
  for (const auto& c : changes) fields[c.tenant_id + "/" + c.key] = c.fields;
  EXPECT_EQ(fields["acme/grows"], std::vector<std::string>{"size"});
  EXPECT_EQ(fields["acme/finishes"], std::vector<std::string>{"statuses"});
  EXPECT_EQ(fields["beta/offloaded"], std::vector<std::string>{"replicas"});
  const auto& acme = r->tenants.at("acme");
  EXPECT_EQ(acme.charged_bytes_a, 5000u);                 // grows + goes-away; finishes is in flight
  EXPECT_EQ(acme.charged_bytes_b, 2500u + 500u + 8000u);  // new-one has two MEMORY replicas
}

TEST(SnapshotDiff, SameSnapshotHasNoDifferenceAndThreadsDoNotMatter) {
  std::vector<ObjectChange> changes;
  auto r = diff(k_root_a + "20260822_051200_000", k_root_a + "20260822_051200_000", 3, changes);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_FALSE(r->differs());
  EXPECT_TRUE(changes.empty());
  std::vector<ObjectChange> one;
  std::vector<ObjectChange> four;
  ASSERT_TRUE(diff(k_root_a + "20260822_051200_000", k_root_b + "20260822_061200_000", 1, one).ok());
  ASSERT_TRUE(diff(k_root_a + "20260822_051200_000", k_root_b + "20260822_061200_000", 4, four).ok());
  ASSERT_EQ(one.size(), four.size());
  for (std::size_t i = 0; i < one.size(); ++i) EXPECT_EQ(one[i].key, four[i].key);
}

}  // namespace
}  // namespace moonquota::inspect
