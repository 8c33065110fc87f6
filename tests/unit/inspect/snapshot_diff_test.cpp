// diff over the golden pair: two snapshots of one store, and two stores.
#include "inspect/snapshot_diff.hpp"

#include <gtest/gtest.h>

#include "support/local_store.hpp"
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
  const DiffSide sa{test::local_files(), test::source_path(a), a.substr(a.size() - 19)};
  const DiffSide sb{test::local_files(), test::source_path(b), b.substr(b.size() - 19)};
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

// ShardChanges keeps changes compact and gives them back as ObjectChange values equal to what
// building each one directly gives, whatever the previous change left in the reused value.
TEST(ShardChanges, GivesBackEachChangeWhateverTheReusedValueHeld) {
  const std::string shard_bytes =
      "acme"
      "k-removed"
      "k-added"
      "k-changed"
      "seg-1"
      "/disk/path"
      "seg-2";
  const std::string_view v = shard_bytes;
  const ReplicaRef ra[] = {{7, 0, 1, v.substr(29, 5), 4096}, {8, 1, 1, v.substr(34, 10), 4096}};
  const ReplicaRef rb[] = {{9, 0, 2, v.substr(44, 5), 4096}};
  const SideRef decoded_a{true, 4096, {}, ra, 2};
  const SideRef decoded_b{true, 8192, {}, rb, 1};
  const SideRef skipped{false, 0, "MEMORY replica on segment x, which is not in the segment table", nullptr, 0};
  ShardChanges changes;
  changes.add(ChangeKind::changed, v.substr(0, 4), v.substr(20, 9), k_field_size | k_field_replicas, &decoded_a,
              &decoded_b);
  changes.add(ChangeKind::removed, v.substr(0, 4), v.substr(4, 9), 0, &skipped, nullptr);
  changes.add(ChangeKind::added, v.substr(0, 4), v.substr(13, 7), 0, nullptr, &decoded_a);
  changes.add(ChangeKind::changed, v.substr(0, 4), v.substr(20, 9), k_field_decodable, &skipped, &decoded_b);
  changes.add(ChangeKind::changed, v.substr(0, 4), v.substr(20, 9), k_field_statuses, &decoded_b, &decoded_b);
  ASSERT_EQ(changes.size(), 5u);

  auto summary = [](const SideRef& s) {
    ObjectSummary o;
    o.shard = 17;
    o.decoded = s.decoded;
    o.skip_reason = std::string(s.skip_reason);
    o.size = s.size;
    for (std::size_t i = 0; i < s.replica_count; ++i) {
      const ReplicaRef& r = s.replicas[i];
      o.replicas.push_back({r.id, r.type, r.status, std::string(r.location), r.bytes});
    }
    return o;
  };

  struct Expected {
    ChangeKind kind;
    std::string key;
    std::vector<std::string> fields;
    std::optional<ObjectSummary> a;
    std::optional<ObjectSummary> b;
  };
  const std::vector<Expected> expected = {
      {ChangeKind::changed, "k-changed", {"size", "replicas"}, summary(decoded_a), summary(decoded_b)},
      {ChangeKind::removed, "k-removed", {}, summary(skipped), std::nullopt},
      {ChangeKind::added, "k-added", {}, std::nullopt, summary(decoded_a)},
      {ChangeKind::changed, "k-changed", {"decodable"}, summary(skipped), summary(decoded_b)},
      {ChangeKind::changed, "k-changed", {"statuses"}, summary(decoded_b), summary(decoded_b)},
  };
  ObjectChange reused;
  for (int pass = 0; pass < 2; ++pass) {  // forwards, then backwards: every kind follows every other
    for (std::size_t n = 0; n < expected.size(); ++n) {
      const std::size_t i = pass == 0 ? n : expected.size() - 1 - n;
      changes.get(i, 17, reused);
      const Expected& e = expected[i];
      EXPECT_EQ(reused.kind, e.kind) << i;
      EXPECT_EQ(reused.tenant_id, "acme") << i;
      EXPECT_EQ(reused.key, e.key) << i;
      EXPECT_EQ(reused.fields, e.fields) << i;
      EXPECT_TRUE(reused.a == e.a) << i;
      EXPECT_TRUE(reused.b == e.b) << i;
    }
  }
}

}  // namespace
}  // namespace moonquota::inspect
