// The streaming promotion (restore/promote_stream) against the whole-map promotion it replaces:
// random snapshots and OpLog tails (cross-shard duplicates, NUL-scoped keys, "" and invalid
// tenants, size mismatches, capacity overflow, tied and untied overlaps, mounts and unmounts in
// the tail, lease points, PROCESSING and REMOVED replicas), both charge and lease models, one and
// two threads. Every outcome must be equal, field by field; the streaming engine must decide most
// cases itself.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "forge/oplog_forge.hpp"
#include "restore/promote_path.hpp"
#include "support/local_store.hpp"
#include "support/snapshot_test_support.hpp"

namespace moonquota::restore {
namespace {

using nlohmann::json;

constexpr std::uint64_t k_segment_size = 1 << 20;
constexpr std::uint64_t k_now_ms = test::k_put_time_ms + 10'000;
const char* const k_cluster = "diff-c";

struct SegmentPick {
  std::string id;
  std::string name;
  std::string endpoint;
  std::uint64_t base = 0;
};

// One random case: a snapshot directory and an OpLog export file.
class RandomCase {
 public:
  // `many` > 0: a case without deliberate faults whose snapshot holds that many small objects
  // (shards longer than a worker's row of pending objects) and whose tail is 300 entries long.
  RandomCase(std::uint32_t seed, const test::TempDir& dir, std::uint64_t many = 0)
      : m_rng(seed), m_dir(dir.path()), m_many(many) {
    m_faulty = many == 0 && chance(50);  // half the cases hold no deliberate fault
    for (int i = 0; i < 3; ++i) {
      m_segments.push_back({"10-" + std::to_string(i + 1), "seg-" + std::string(1, static_cast<char>('a' + i)),
                            "10.0.0." + std::to_string(i + 1) + ":1700",
                            test::k_segment_base + static_cast<std::uint64_t>(i) * 0x10000000ULL});
    }
    m_cursor.assign(m_segments.size() + 1, 0);
    write_snapshot();
    write_oplog();
  }

  [[nodiscard]] std::string snapshot_dir() const { return (m_dir / "cluster" / k_snapshot_id).string(); }
  [[nodiscard]] std::string oplog_file() const { return (m_dir / "oplog.jsonl").string(); }

 private:
  static constexpr const char* k_snapshot_id = "20261205_120000_000";

  bool chance(int percent) { return std::uniform_int_distribution<int>(0, 99)(m_rng) < percent; }
  // A deliberate fault (a validation or bootstrap failure), only in a faulty case.
  bool fault(int percent) { return chance(percent) && m_faulty; }
  std::uint64_t pick(std::uint64_t lo, std::uint64_t hi) {
    return std::uniform_int_distribution<std::uint64_t>(lo, hi)(m_rng);
  }

  std::string tenant() {
    if (fault(4)) return "_bad";
    static const char* const names[] = {"t-a", "t-b", "default"};
    return names[pick(0, 2)];
  }
  std::string key() {
    std::string k = "k" + std::to_string(pick(0, m_many > 0 ? m_many * 2 : 40));
    if (m_many == 0 && chance(4)) k = std::string(chance(50) ? "t-a" : "default") + std::string(1, '\0') + k;
    return k;
  }
  // A buffer address in segment `s`: next to the last one, or (rarely) over an earlier one.
  std::uint64_t address(std::size_t s, std::uint64_t size) {
    const std::uint64_t base = s < m_segments.size() ? m_segments[s].base : 0x900000000ULL;
    if (fault(4) && m_cursor[s] > 0) return base + pick(0, m_cursor[s] - 1);
    const std::uint64_t at = base + m_cursor[s];
    m_cursor[s] += size;
    return at;
  }
  std::uint64_t object_size() {
    if (m_many > 0) return pick(1, 32);
    return chance(4) ? 0 : pick(1, fault(3) ? k_segment_size / 2 : 4096);
  }
  std::int16_t status() {
    if (chance(6)) return model::replica_status::processing;
    if (chance(4)) return model::replica_status::removed;
    return model::replica_status::complete;
  }

  void write_snapshot() {
    std::vector<std::vector<model::ObjectRecord>> shards(m_many > 0 ? 2 : pick(1, 4));
    std::vector<std::pair<std::string, std::string>> names;
    const std::uint64_t objects = m_many > 0 ? m_many : pick(0, 30);
    for (std::uint64_t i = 0; i < objects; ++i) {
      std::pair<std::string, std::string> name{tenant(), key()};
      // A fresh pair, or (a fault) one the snapshot holds already.
      while (std::find(names.begin(), names.end(), name) != names.end()) name = {tenant(), key()};
      if (fault(3) && !names.empty()) name = names[pick(0, names.size() - 1)];
      names.push_back(name);
      const std::uint64_t size = object_size();
      std::vector<model::Replica> replicas;
      const std::uint64_t count = pick(chance(5) ? 0 : 1, 2);
      for (std::uint64_t r = 0; r < count; ++r) {
        const std::uint64_t id = ++m_replica_id;
        if (chance(12)) {
          replicas.push_back(test::disk_replica(id, fault(5) ? size + 1 : size, status()));
          continue;
        }
        const std::size_t s = pick(0, m_segments.size() - 1);
        const std::uint64_t mem = fault(3) ? size + 7 : size;
        model::Replica m = test::memory_replica(id, m_segments[s].id, mem, status());
        m.memory.buffer_address = address(s, mem);
        m.memory.handle = {m.memory.buffer_address, mem, 0, 0};
        replicas.push_back(std::move(m));
      }
      const std::uint64_t lease = chance(10) ? k_now_ms - pick(0, 5000) : test::k_future_lease_ms;
      shards[pick(0, shards.size() - 1)].push_back(test::make_object(name.first, name.second, size, replicas, lease));
    }
    std::vector<std::pair<std::uint32_t, std::string>> raw;
    for (std::uint32_t s = 0; s < shards.size(); ++s) raw.emplace_back(s * 7, test::shard_raw_in_order(shards[s]));
    std::vector<test::SegmentSpec> specs;
    for (const auto& seg : m_segments) {
      specs.push_back({seg.id, seg.name, k_segment_size, model::segment_status::ok, seg.base});
    }
    model::SegmentsPayload payload = test::make_segments_payload(specs);
    for (std::size_t i = 0; i < payload.mounted.size(); ++i) {
      payload.mounted[i].te_endpoint = m_segments[i].endpoint;
      payload.mounted[i].allocator->transport_endpoint = m_segments[i].endpoint;
    }
    test::SnapshotFiles files =
        test::snapshot_files(k_snapshot_id, test::metadata_file_bytes(raw, m_replica_id + 1), payload);
    m_baseline = pick(0, 3);
    files.descriptor = std::to_string(m_baseline) + "|0|" + std::to_string(test::k_put_time_ms);
    test::write_snapshot(m_dir / "cluster", k_snapshot_id, files);
    m_names = std::move(names);
  }

  json tail_object(const std::string& tenant_name) {
    const std::uint64_t size = object_size();
    json replicas = json::array();
    const std::uint64_t count = pick(chance(5) ? 0 : 1, 2);
    for (std::uint64_t r = 0; r < count; ++r) {
      const std::uint64_t id = ++m_replica_id;
      if (chance(10)) {
        replicas.push_back({{"id", id},
                            {"kind", "DISK"},
                            {"status", "COMPLETE"},
                            {"file_path", "/fs/x"},
                            {"object_size", fault(5) ? size + 1 : size}});
        continue;
      }
      // == size(): the segment the tail mounts (before it is mounted: a fault)
      const std::size_t s = pick(0, m_mounted || fault(30) ? m_segments.size() : m_segments.size() - 1);
      const std::uint64_t mem = fault(3) ? size + 7 : size;
      std::string endpoint = s < m_segments.size() ? (chance(50) ? m_segments[s].endpoint : m_segments[s].name)
                                                   : std::string("10.0.0.9:1700");
      if (fault(3)) endpoint = "10.9.9.9:1";
      const std::int16_t st = status();
      replicas.push_back({{"id", id},
                          {"kind", "MEMORY"},
                          {"status", st},
                          {"size", mem},
                          {"address", address(s, mem)},
                          {"endpoint", endpoint}});
    }
    (void)tenant_name;
    return {{"client_first", 1}, {"client_second", 2}, {"size", size}, {"replicas", replicas}};
  }

  void write_oplog() {
    json entries = json::array();
    const std::uint64_t count = m_many > 0 ? 300 : pick(0, 24);
    for (std::uint64_t i = 0; i < count; ++i) {
      const int op = static_cast<int>(pick(0, 99));
      std::string t = chance(5) ? std::string() : tenant();
      std::string k = key();
      if (chance(40) && !m_names.empty()) std::tie(t, k) = m_names[pick(0, m_names.size() - 1)];
      if (op < 55) {
        json e = {{"op", "PUT_END"}, {"tenant", t}, {"key", k}};
        if (!chance(4)) e["object"] = tail_object(t);
        entries.push_back(e);
      } else if (op < 80) {
        entries.push_back({{"op", chance(70) ? "REMOVE" : "PUT_REVOKE"}, {"tenant", t}, {"key", k}});
      } else if (op < 90) {
        m_mounted = true;
        entries.push_back(
            {{"op", "SEGMENT_MOUNT"},
             {"key", "10.0.0.9:1700"},
             {"segment",
              {{"name", "seg-z"}, {"endpoint", "10.0.0.9:1700"}, {"capacity", fault(10) ? 0 : k_segment_size}}}});
      } else if (m_faulty) {
        const auto& seg = m_segments[pick(0, m_segments.size() - 1)];
        entries.push_back(
            {{"op", "SEGMENT_UNMOUNT"}, {"key", seg.endpoint}, {"segment", {{"endpoint", seg.endpoint}}}});
      }
    }
    json doc = {{"oplog", {{"cluster_id", k_cluster}, {"batches", json::array({{{"entries", entries}}})}}}};
    if (entries.empty()) doc["oplog"]["batches"] = json::array();
    auto forged = forge::parse_oplog_scenario(doc.dump(), k_cluster);
    ASSERT_TRUE(forged.ok()) << forged.status().message() << "\n" << doc.dump();
    ASSERT_TRUE(forged->has_value());
    ASSERT_TRUE(source::write_oplog_export_file(oplog_file(), (*forged)->kvs).ok());
  }

  std::mt19937 m_rng;
  test::fs::path m_dir;
  std::vector<SegmentPick> m_segments;
  std::vector<std::uint64_t> m_cursor;  // per segment (and the tail's mounted one): bytes placed
  std::vector<std::pair<std::string, std::string>> m_names;
  std::uint64_t m_replica_id = 0;
  std::uint64_t m_baseline = 0;
  std::uint64_t m_many = 0;
  bool m_faulty = false;
  bool m_mounted = false;  // the tail has mounted its segment
};

void expect_same_findings(const model::Findings& a, const model::Findings& b, const std::string& what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].location, b[i].location) << what;
    EXPECT_EQ(a[i].message, b[i].message) << what;
  }
}

std::string stream_u128_text(util::u128 v) {
  return std::to_string(static_cast<std::uint64_t>(v >> 64)) + ":" + std::to_string(static_cast<std::uint64_t>(v));
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
    EXPECT_EQ(stream_u128_text(i->second.lease_expired_bytes), stream_u128_text(j->second.lease_expired_bytes));
    EXPECT_EQ(stream_u128_text(i->second.non_complete_size_bytes), stream_u128_text(j->second.non_complete_size_bytes));
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
    EXPECT_EQ(stream_u128_text(i->second.charged_bytes), stream_u128_text(j->second.charged_bytes)) << i->first;
    EXPECT_EQ(stream_u128_text(i->second.evidence.in_flight_bytes),
              stream_u128_text(j->second.evidence.in_flight_bytes));
    EXPECT_EQ(stream_u128_text(i->second.evidence.removed_bytes), stream_u128_text(j->second.evidence.removed_bytes));
    EXPECT_EQ(i->second.evidence.in_flight_objects, j->second.evidence.in_flight_objects);
    EXPECT_EQ(i->second.evidence.removed_objects, j->second.evidence.removed_objects);
  }
  ASSERT_EQ(a.tenant_object_bytes.size(), b.tenant_object_bytes.size());
  for (auto i = a.tenant_object_bytes.begin(), j = b.tenant_object_bytes.begin(); i != a.tenant_object_bytes.end();
       ++i, ++j) {
    EXPECT_EQ(i->first, j->first);
    EXPECT_EQ(stream_u128_text(i->second), stream_u128_text(j->second));
  }
}

TEST(PromoteStream, EqualsTheWholeMapOnRandomStoresAndTails) {
  std::map<PromoteEngine, int> engines;
  int failed_validations = 0;
  int failed_bootstraps = 0;
  for (std::uint32_t seed = 1; seed <= 150; ++seed) {
    test::TempDir dir;
    RandomCase c(seed, dir);
    if (::testing::Test::HasFatalFailure()) return;
    StoreSelection selection;
    selection.snapshot_dir = c.snapshot_dir();
    selection.cluster_id = k_cluster;
    source::OpLogSelection oplog;
    oplog.file = c.oplog_file();
    for (int variant = 0; variant < 4; ++variant) {
      RestoreOptions options;
      options.restore_time_ms = k_now_ms;
      options.threads = variant % 2 == 0 ? 1 : 2;
      options.charge_model = variant < 2 ? ChargeModel::restore : ChargeModel::live;
      options.lease_model = seed % 3 == 0 ? LeaseModel::keep : LeaseModel::upstream;
      SCOPED_TRACE("seed " + std::to_string(seed) + " variant " + std::to_string(variant));
      PromoteEngine engine = PromoteEngine::tail_only;
      auto streamed = promote_standby(test::local_files(), selection, oplog, options, ReplayOptions{}, &engine);
      auto whole = promote_standby_whole_map(test::local_files(), selection, oplog, options, ReplayOptions{});
      ASSERT_EQ(streamed.ok(), whole.ok()) << (streamed.ok() ? whole.status() : streamed.status()).message();
      if (!streamed.ok()) {
        EXPECT_EQ(streamed.status().message(), whole.status().message());
        continue;
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
    }
  }
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
    StoreSelection selection;
    selection.snapshot_dir = c.snapshot_dir();
    selection.cluster_id = k_cluster;
    source::OpLogSelection oplog;
    oplog.file = c.oplog_file();
    RestoreOptions options;
    options.restore_time_ms = k_now_ms;
    options.threads = 1 + seed % 2;
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
