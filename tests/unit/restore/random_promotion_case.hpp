// One random promotion case for the differential tests of the streaming promotion and its
// survival (promote_stream_test, promote_survival_stream_test): a snapshot directory and an OpLog
// export file with cross-shard duplicates, NUL-scoped keys, "" and invalid tenants, size
// mismatches, capacity overflow, tied and untied overlaps, mounts and unmounts in the tail,
// expiring leases, PROCESSING and REMOVED replicas; half the cases hold no deliberate fault.
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "forge/oplog_forge.hpp"
#include "restore/restore_path.hpp"
#include "source/oplog_source.hpp"
#include "support/local_store.hpp"
#include "support/snapshot_test_support.hpp"
#include "util/checked_math.hpp"

namespace moonquota::restore::differential {

using nlohmann::json;

inline constexpr std::uint64_t k_segment_size = 1 << 20;
inline constexpr std::uint64_t k_now_ms = test::k_put_time_ms + 10'000;
inline const char* const k_cluster = "diff-c";

// A 128-bit amount as text, for EXPECT_EQ's messages.
inline std::string u128_text(util::u128 v) {
  return std::to_string(static_cast<std::uint64_t>(v >> 64)) + ":" + std::to_string(static_cast<std::uint64_t>(v));
}

// The options of a promotion of a case at its instant, on `threads` threads.
inline RestoreOptions case_options(unsigned threads) {
  RestoreOptions options;
  options.restore_time_ms = k_now_ms;
  options.threads = threads;
  return options;
}

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
  // The store and the OpLog a promotion of this case reads.
  [[nodiscard]] StoreSelection selection() const {
    StoreSelection selection;
    selection.snapshot_dir = snapshot_dir();
    selection.cluster_id = k_cluster;
    return selection;
  }
  [[nodiscard]] source::OpLogSelection oplog() const {
    source::OpLogSelection oplog;
    oplog.file = oplog_file();
    return oplog;
  }

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

// Each of the cases of seeds 1 to `seeds`, promoted four ways (variant 0 to 3; even ones on one
// thread, odd ones on two): check(seed, variant, selection, oplog, options), traced. Stops at
// the first fatal failure.
template <typename Check>
void for_each_variant(std::uint32_t seeds, const Check& check) {
  for (std::uint32_t seed = 1; seed <= seeds; ++seed) {
    test::TempDir dir;
    RandomCase c(seed, dir);
    if (::testing::Test::HasFatalFailure()) return;
    for (int variant = 0; variant < 4; ++variant) {
      SCOPED_TRACE("seed " + std::to_string(seed) + " variant " + std::to_string(variant));
      check(seed, variant, c.selection(), c.oplog(), case_options(variant % 2 == 0 ? 1 : 2));
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

}  // namespace moonquota::restore::differential
