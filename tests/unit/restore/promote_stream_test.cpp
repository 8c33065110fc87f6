// The streaming promotion (restore/promote_stream) against the whole-map promotion it replaces:
// random snapshots and OpLog tails (cross-shard duplicates, NUL-scoped keys, "" and invalid
// tenants, size mismatches, capacity overflow, tied and untied overlaps, mounts and unmounts in
// the tail, lease points, PROCESSING and REMOVED replicas), both charge and lease models, one and
// two threads. Every outcome must be equal, field by field; the streaming engine must decide most
// cases itself.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "restore/promote_path.hpp"
#include "support/local_store.hpp"
#include "unit/restore/random_promotion_case.hpp"

namespace moonquota::restore {
namespace {

using differential::RandomCase;

void expect_same_findings(const model::Findings& a, const model::Findings& b, const std::string& what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].location, b[i].location) << what;
    EXPECT_EQ(a[i].message, b[i].message) << what;
  }
}

// Every field the reports read. `racy_bootstrap`: two threads and a failed bootstrap, where which
// of several errors the whole map names first is a race between the workers.
void expect_same(const PromoteOutcome& s, const PromoteOutcome& w, bool racy_bootstrap) {
  EXPECT_EQ(s.bootstrap.loaded, w.bootstrap.loaded);
  if (!racy_bootstrap) { EXPECT_EQ(s.bootstrap.failure, w.bootstrap.failure); }
  EXPECT_EQ(s.bootstrap.snapshot_id, w.bootstrap.snapshot_id);
  EXPECT_EQ(s.bootstrap.catalog_root, w.bootstrap.catalog_root);
  EXPECT_EQ(s.bootstrap.last_included_seq, w.bootstrap.last_included_seq);
  EXPECT_EQ(s.bootstrap.created_at_ms, w.bootstrap.created_at_ms);
  EXPECT_EQ(s.bootstrap.objects_loaded, w.bootstrap.objects_loaded);
  EXPECT_EQ(s.bootstrap.dropped.size_zero, w.bootstrap.dropped.size_zero);
  EXPECT_EQ(s.bootstrap.dropped.lease_expired, w.bootstrap.dropped.lease_expired);
  EXPECT_EQ(s.bootstrap.dropped.non_complete, w.bootstrap.dropped.non_complete);
  EXPECT_EQ(s.bootstrap.dropped.invalid_memory, w.bootstrap.dropped.invalid_memory);
  ASSERT_EQ(s.bootstrap.tenants.size(), w.bootstrap.tenants.size());
  for (auto i = s.bootstrap.tenants.begin(), j = w.bootstrap.tenants.begin(); i != s.bootstrap.tenants.end();
       ++i, ++j) {
    EXPECT_EQ(i->first, j->first);
    EXPECT_EQ(i->second.objects.lease_expired, j->second.objects.lease_expired);
    EXPECT_EQ(i->second.objects.non_complete, j->second.objects.non_complete);
    EXPECT_EQ(differential::u128_text(i->second.lease_expired_bytes),
              differential::u128_text(j->second.lease_expired_bytes));
    EXPECT_EQ(differential::u128_text(i->second.non_complete_size_bytes),
              differential::u128_text(j->second.non_complete_size_bytes));
  }
  if (!racy_bootstrap) { expect_same_findings(s.bootstrap.findings, w.bootstrap.findings, "bootstrap findings"); }
  EXPECT_EQ(s.replay.applied_seq, w.replay.applied_seq);
  EXPECT_EQ(s.replay.first_expected, w.replay.first_expected);
  EXPECT_EQ(s.replay.entries_seen, w.replay.entries_seen);
  EXPECT_EQ(s.replay.counters.applied_by_op, w.replay.counters.applied_by_op);
  EXPECT_EQ(s.replay.counters.skipped_already_applied, w.replay.counters.skipped_already_applied);
  EXPECT_EQ(s.replay.counters.empty_placeholders, w.replay.counters.empty_placeholders);
  expect_same_findings(s.replay.findings, w.replay.findings, "replay findings");
  const PromotionValidation& a = s.validation;
  const PromotionValidation& b = w.validation;
  EXPECT_EQ(a.ok, b.ok);
  EXPECT_EQ(a.failure, b.failure);
  EXPECT_EQ(a.objects, b.objects);
  EXPECT_EQ(a.placeholders, b.placeholders);
  EXPECT_EQ(a.registry_segments, b.registry_segments);
  EXPECT_EQ(a.registry_memory_segments, b.registry_memory_segments);
  EXPECT_EQ(a.registry_memory_capacity_bytes, b.registry_memory_capacity_bytes);
  EXPECT_EQ(a.non_complete, b.non_complete);
  EXPECT_EQ(a.legacy_scoped_keys, b.legacy_scoped_keys);
  ASSERT_EQ(a.tenants.size(), b.tenants.size());
  for (auto i = a.tenants.begin(), j = b.tenants.begin(); i != a.tenants.end(); ++i, ++j) {
    EXPECT_EQ(i->first, j->first);
    EXPECT_EQ(i->second.objects, j->second.objects) << i->first;
    EXPECT_EQ(differential::u128_text(i->second.charged_bytes), differential::u128_text(j->second.charged_bytes))
        << i->first;
    EXPECT_EQ(differential::u128_text(i->second.evidence.in_flight_bytes),
              differential::u128_text(j->second.evidence.in_flight_bytes));
    EXPECT_EQ(differential::u128_text(i->second.evidence.removed_bytes),
              differential::u128_text(j->second.evidence.removed_bytes));
    EXPECT_EQ(i->second.evidence.in_flight_objects, j->second.evidence.in_flight_objects);
    EXPECT_EQ(i->second.evidence.removed_objects, j->second.evidence.removed_objects);
  }
  ASSERT_EQ(a.tenant_object_bytes.size(), b.tenant_object_bytes.size());
  for (auto i = a.tenant_object_bytes.begin(), j = b.tenant_object_bytes.begin(); i != a.tenant_object_bytes.end();
       ++i, ++j) {
    EXPECT_EQ(i->first, j->first);
    EXPECT_EQ(differential::u128_text(i->second), differential::u128_text(j->second));
  }
}

TEST(PromoteStream, EqualsTheWholeMapOnRandomStoresAndTails) {
  std::map<PromoteEngine, int> engines;
  int failed_validations = 0;
  int failed_bootstraps = 0;
  differential::for_each_variant(150, [&](std::uint32_t seed, int variant, const StoreSelection& selection,
                                          const source::OpLogSelection& oplog, RestoreOptions options) {
    options.charge_model = variant < 2 ? ChargeModel::restore : ChargeModel::live;
    options.lease_model = seed % 3 == 0 ? LeaseModel::keep : LeaseModel::upstream;
    PromoteEngine engine = PromoteEngine::tail_only;
    auto streamed = promote_standby(test::local_files(), selection, oplog, options, ReplayOptions{}, &engine);
    auto whole = promote_standby_whole_map(test::local_files(), selection, oplog, options, ReplayOptions{});
    ASSERT_EQ(streamed.ok(), whole.ok()) << (streamed.ok() ? whole.status() : streamed.status()).message();
    if (!streamed.ok()) {
      EXPECT_EQ(streamed.status().message(), whole.status().message());
      return;
    }
    ++engines[engine];
    if (std::getenv("MQ_DIFF_VERBOSE") != nullptr) {
      std::printf("seed %u variant %d engine %d boot %d [%s] valid %d %s\n", seed, variant, static_cast<int>(engine),
                  streamed->bootstrap.loaded, streamed->bootstrap.failure.c_str(), streamed->validation.ok,
                  streamed->validation.failure.c_str());
    }
    failed_validations += streamed->validation.ok ? 0 : 1;
    failed_bootstraps += streamed->bootstrap.loaded ? 0 : 1;
    expect_same(*streamed, *whole, options.threads > 1 && !whole->bootstrap.loaded);
  });
  // The cases must reach every engine and both verdicts, and the stream must decide most of them.
  EXPECT_GT(engines[PromoteEngine::streaming], 200) << engines[PromoteEngine::whole_map_fallback];
  EXPECT_GT(engines[PromoteEngine::whole_map_fallback], 20);
  EXPECT_GT(failed_validations, 20);
  EXPECT_GT(failed_bootstraps, 10);
}

// Shards of thousands of kept objects: a worker asks the tail about them in rows, across the
// row's end, and the stream decides every case.
TEST(PromoteStream, EqualsTheWholeMapOnShardsLongerThanOneRow) {
  for (std::uint32_t seed = 1; seed <= 3; ++seed) {
    test::TempDir dir;
    RandomCase c(seed, dir, 12000);  // two shards of ~4,700 kept objects
    if (::testing::Test::HasFatalFailure()) return;
    const StoreSelection selection = c.selection();
    const source::OpLogSelection oplog = c.oplog();
    const RestoreOptions options = differential::case_options(1 + seed % 2);
    SCOPED_TRACE("seed " + std::to_string(seed));
    PromoteEngine engine = PromoteEngine::tail_only;
    auto streamed = promote_standby(test::local_files(), selection, oplog, options, ReplayOptions{}, &engine);
    auto whole = promote_standby_whole_map(test::local_files(), selection, oplog, options, ReplayOptions{});
    ASSERT_TRUE(streamed.ok()) << streamed.status().message();
    ASSERT_TRUE(whole.ok()) << whole.status().message();
    EXPECT_EQ(engine, PromoteEngine::streaming) << whole->validation.failure << whole->bootstrap.failure;
    EXPECT_TRUE(whole->validation.ok) << whole->validation.failure;
    EXPECT_GT(whole->validation.objects, 8000u);
    expect_same(*streamed, *whole, false);
  }
}

}  // namespace
}  // namespace moonquota::restore
