// Replays every file of tests/fuzz/corpus/snapshot_decoders/ through the fuzz entry, so the
// corpus (seeds and every crash the fuzzer ever found) is an ordinary test in every build.
// UPDATE_CORPUS=1 regenerates the seed files from the genuine stores and hand-built payloads.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "format/metadata_file.hpp"
#include "fuzz/snapshot_decoders_entry.hpp"
#include "support/snapshot_test_support.hpp"
#include "util/file_reader.hpp"

namespace moonquota::fuzz {
namespace {

namespace fs = std::filesystem;
using format::MsgpackWriter;
using test::msgpack;

fs::path corpus_dir() { return test::source_path("tests/fuzz/corpus/snapshot_decoders"); }

void replay_snapshot_decoders(const std::string& bytes) {
  run_snapshot_decoders(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
}

TEST(FuzzCorpus, ReplaysEveryFile) {
  std::map<int, int> per_decoder;
  int files = 0;
  for (const auto& entry : fs::directory_iterator(corpus_dir())) {
    if (!entry.is_regular_file()) continue;
    const std::string bytes = test::read_file(entry.path());
    SCOPED_TRACE(entry.path().filename().string());
    replay_snapshot_decoders(bytes);
    ++files;
    if (!bytes.empty()) ++per_decoder[static_cast<unsigned char>(bytes[0]) % 3];
  }
  EXPECT_GE(files, 20);
  EXPECT_GE(per_decoder[0], 5) << "segments seeds";
  EXPECT_GE(per_decoder[1], 5) << "shard seeds";
  EXPECT_GE(per_decoder[2], 5) << "task_manager seeds";
}

TEST(FuzzCorpus, EntryToleratesEmptyAndTinyInputs) {
  replay_snapshot_decoders("");
  for (int selector = 0; selector < 256; ++selector) {
    replay_snapshot_decoders(std::string(1, static_cast<char>(selector)));
    replay_snapshot_decoders(std::string(1, static_cast<char>(selector)) + "\xc1");
    replay_snapshot_decoders(std::string(1, static_cast<char>(selector)) +
                             "\xdf\xff\xff\xff\xff");  // map32 claiming 4G pairs
    replay_snapshot_decoders(std::string(1, static_cast<char>(selector)) +
                             "\xdd\xff\xff\xff\xff");  // array32 claiming 4G items
  }
}

// --- seed generation (UPDATE_CORPUS=1) ------------------------------------------------------

std::string with_selector(std::uint8_t selector, const std::string& raw) {
  return std::string(1, static_cast<char>(selector)) + raw;
}

std::vector<std::string> genuine_shards(const test::GenuineSnapshot& g, const char* id) {
  std::vector<std::string> out;
  format::SegmentTable table;
  model::Findings findings;
  util::FileReader file;
  if (!file.open(test::cluster_root(test::source_path(g.store)) + "/" + id + "/metadata").ok()) return out;
  auto info = format::scan_metadata(
      file, table, {},
      [&](unsigned, std::uint32_t, std::uint64_t, std::string_view raw) {
        out.emplace_back(raw);
        return util::Status{};
      },
      findings);
  EXPECT_TRUE(info.ok());
  return out;
}

std::string genuine_segments(const test::GenuineSnapshot& g, const char* id) {
  return test::unzstd(test::read_file(test::cluster_root(test::source_path(g.store)) + "/" + id + "/segments"));
}

std::string object_entry(const model::ObjectRecord& o) {
  return msgpack([&](MsgpackWriter& w) { EXPECT_TRUE(format::encode_object_entry(w, o).ok()); });
}

std::string shard_of(const std::vector<std::string>& entries) {
  return msgpack([&](MsgpackWriter& w) {
    w.pack_map_header(1);
    w.pack_str("metadata");
    w.pack_array_header(entries.size());
    for (const auto& e : entries) w.append_raw(e);
  });
}

// [tenant, key, [prefix..., extra elements]] with the prefix idx 0-6 for `n` replicas.
std::string raw_entry(const std::string& key, std::uint64_t n, const std::function<void(MsgpackWriter&)>& rest,
                      std::uint32_t extra) {
  return msgpack([&](MsgpackWriter& w) {
    w.pack_array_header(3);
    w.pack_str("t");
    w.pack_str(key);
    w.pack_array_header(7 + extra);
    w.pack_str("1-2");
    w.pack_uint(1700000000000ULL);
    w.pack_uint(64);
    w.pack_uint(4102444800000ULL);
    w.pack_bool(false);
    w.pack_uint(0);
    w.pack_uint(n);
    rest(w);
  });
}

std::map<std::string, std::string> seeds() {
  std::map<std::string, std::string> s;
  // segments (selector 0; 0x81 keeps the blobs)
  s["seg-s7"] = with_selector(0x00, genuine_segments(test::k_s7, test::k_s7.snapshot_id));
  s["seg-s1-blobs"] = with_selector(0x81, genuine_segments(test::k_s1, test::k_s1.snapshot_id));
  s["seg-r1"] = with_selector(0x03, genuine_segments(test::k_r1, test::k_r1.snapshot_id));
  s["seg-r1-older"] = with_selector(0x06, genuine_segments(test::k_r1, test::k_r1_older_id));
  s["seg-spec-empty"] = with_selector(0x00, test::unhex("85a26d6101a2616e90a26d7380a2637380a26c6480"));
  s["seg-ld-legacy"] = with_selector(0x00, msgpack([](MsgpackWriter& w) {
                                       w.pack_map_header(2);
                                       w.pack_str("ma");
                                       w.pack_uint(1);
                                       w.pack_str("ld");
                                       w.pack_map_header(1);
                                       w.pack_str("1-2");
                                       w.pack_array_header(7);
                                       w.pack_bool(true);
                                       w.pack_uint(2);
                                       w.pack_str(std::string("tenant\0key", 10));
                                       w.pack_int(-4);
                                       w.pack_str(std::string("tenant\0k2", 9));
                                       w.pack_array_header(3);
                                       w.pack_str("tenant");
                                       w.pack_str("k2");
                                       w.pack_int(4096);
                                       w.pack_int(1 << 20);
                                     }));
  s["seg-odd-keys"] = with_selector(0x00, msgpack([](MsgpackWriter& w) {
                                      w.pack_map_header(4);
                                      w.pack_uint(7);
                                      w.pack_array_header(1);
                                      w.pack_nil();
                                      w.pack_str("an");
                                      w.pack_array_header(1);
                                      w.pack_str("a");
                                      w.pack_str("an");
                                      w.pack_array_header(1);
                                      w.pack_str("b");
                                      w.pack_str("cs");
                                      w.pack_map_header(1);
                                      w.pack_str("1-2");
                                      w.pack_array_header(2);
                                      w.pack_str("3-4");
                                      w.pack_str(" +5-6x");
                                    }));
  {
    auto payload = test::make_segments_payload({{"3-4", "seg-a", 1 << 20}, {"5-6", "seg-b", 1 << 20, 2}});
    auto raw = format::encode_segments_raw(payload);
    EXPECT_TRUE(raw.ok());
    s["seg-two-segments-blobs"] = with_selector(0x81, *raw);
  }
  // shards (selector 1 + 4k: shard k)
  s["shard-spec-14-3"] = with_selector(
      0x01,
      test::unhex(
          "81a86d657461646174619193a764656661756c74a864656d6f2d6b65799ca3312d32cf0000018bcfe56800cd0400cf000003bb2cc3"
          "d800c20002009401030095cd0400cf0000000300000000a3332d34c393cf0000000300000000cd04009200009402030192d92e2f6d"
          "6e742f6d6f6f6e63616b655f66732f6d6f6f6e63616b655f636c75737465722f642f6d2f64656d6f2d6b6579cd0400c2a0"));
  s["shard-s7"] = with_selector(0x05, genuine_shards(test::k_s7, test::k_s7.snapshot_id).at(0));
  int n = 0;
  for (const auto& raw : genuine_shards(test::k_s1, test::k_s1.snapshot_id)) {
    s["shard-s1-" + std::to_string(n++)] = with_selector(0x09, raw);
  }
  n = 0;
  for (const auto& raw : genuine_shards(test::k_r1, test::k_r1.snapshot_id)) {
    if (n < 3) s["shard-r1-" + std::to_string(n)] = with_selector(0x0d, raw);
    ++n;
  }
  s["shard-empty"] = with_selector(0x01, test::unhex("81a86d6574616461746190"));
  {
    auto mem = test::make_object("t", "a", 64, {test::memory_replica(1, "3-4", 64), test::disk_replica(2, 64)});
    auto local = test::make_object("t", "b", 64, {});
    model::Replica ld;
    ld.id = 3;
    ld.type = model::replica_type::local_disk;
    ld.client_id = "11-12";
    ld.object_size = 64;
    ld.transport_endpoint = "10.0.0.1:1";
    local.replicas = {ld};
    local.checksum = 0xfeedULL;
    local.group_id = "g";
    auto draining = test::make_object("t", "c", 64, {test::memory_replica(4, "5-6", 64)});
    auto dup = test::make_object("t", "a", 99, {test::memory_replica(5, "7-8", 99)});
    s["shard-mixed-replicas"] = with_selector(
        0x01, shard_of({object_entry(mem), object_entry(local), object_entry(draining), object_entry(dup)}));
  }
  s["shard-legacy-layouts"] = with_selector(0x01, shard_of({raw_entry(
                                                                "v1", 0, [](MsgpackWriter&) {}, 0),
                                                            raw_entry(
                                                                "v2", 0, [](MsgpackWriter& w) { w.pack_uint(3); }, 1),
                                                            raw_entry(
                                                                "v3", 0,
                                                                [](MsgpackWriter& w) {
                                                                  w.pack_bool(true);
                                                                  w.pack_str("grp");
                                                                },
                                                                2),
                                                            raw_entry(
                                                                "v5", 0,
                                                                [](MsgpackWriter& w) {
                                                                  w.pack_uint(1);
                                                                  w.pack_bool(false);
                                                                  w.pack_str("");
                                                                  w.pack_uint(77);
                                                                },
                                                                4),
                                                            msgpack([](MsgpackWriter& w) {
                                                              w.pack_array_header(2);
                                                              w.pack_str("legacy-two-element");
                                                              w.pack_array_header(7);
                                                              w.pack_str("1-2");
                                                              for (int i = 0; i < 3; ++i) w.pack_uint(1);
                                                              w.pack_bool(false);
                                                              w.pack_uint(0);
                                                              w.pack_uint(0);
                                                            })}));
  s["shard-nof-and-ambiguous"] = with_selector(0x01, shard_of({raw_entry(
                                                                   "nof", 1,
                                                                   [](MsgpackWriter& w) {
                                                                     w.pack_array_header(4);
                                                                     w.pack_uint(1);
                                                                     w.pack_uint(3);
                                                                     w.pack_uint(3);
                                                                     w.pack_int(-1);
                                                                     w.pack_nil();
                                                                   },
                                                                   2),
                                                               msgpack([](MsgpackWriter& w) {
                                                                 w.pack_array_header(3);
                                                                 w.pack_str("t");
                                                                 w.pack_str("amb");
                                                                 w.pack_array_header(8);
                                                                 w.pack_str("bad-uuid");
                                                                 for (int i = 0; i < 3; ++i) w.pack_uint(1);
                                                                 w.pack_bool(false);
                                                                 w.pack_uint(0);
                                                                 w.pack_uint(0);
                                                                 w.pack_uint(300);
                                                               })}));
  s["shard-reject-status"] = with_selector(0x01, shard_of({raw_entry(
                                                     "s", 1,
                                                     [](MsgpackWriter& w) {
                                                       w.pack_array_header(4);
                                                       w.pack_uint(1);
                                                       w.pack_uint(40000);
                                                       w.pack_uint(0);
                                                       w.pack_nil();
                                                     },
                                                     1)}));
  s["shard-trailing-bytes"] = with_selector(0x01, test::unhex("81a86d6574616461746190c1c1c1"));
  // task_manager (selector 2)
  s["tasks-spec-empty"] = with_selector(0x02, test::unhex("90"));
  {
    model::TaskRecord a;
    a.id = "10-1";
    a.assigned_client = "1-2";
    a.payload = "{\"tenant_id\":\"default\",\"key\":\"k\",\"source\":\"seg-a\",\"targets\":[\"seg-b\"]}";
    a.message = "m";
    model::TaskRecord b = a;
    b.id = "9-7";
    b.type = model::task_type::replica_move;
    b.status = model::task_status::processing;
    auto raw = format::encode_task_manager_raw({a, b});
    EXPECT_TRUE(raw.ok());
    s["tasks-two"] = with_selector(0x02, *raw);
  }
  s["tasks-bad-types"] = with_selector(0x05, msgpack([](MsgpackWriter& w) {
                                         w.pack_array_header(3);
                                         w.pack_array_header(8);
                                         w.pack_str("1-1");
                                         w.pack_str("copy");
                                         for (int i = 0; i < 5; ++i) w.pack_uint(1);
                                         w.pack_str("1-2");
                                         w.pack_array_header(7);
                                         w.pack_str("x");
                                         w.pack_str("x-1");
                                         w.pack_array_header(8);
                                         w.pack_str("bad");
                                         for (int i = 0; i < 2; ++i) w.pack_int(-1);
                                         w.pack_bin("payload as bin");
                                         for (int i = 0; i < 2; ++i) w.pack_int(-1);
                                         w.pack_str("");
                                         w.pack_str("1-2");
                                       }));
  s["tasks-nonstring-id"] = with_selector(0x08, test::unhex("91980100000000000000"));
  s["tasks-not-array"] = with_selector(0x0b, test::unhex("80"));
  return s;
}

TEST(FuzzCorpus, RegenerateSeeds) {
  const char* update = std::getenv("UPDATE_CORPUS");
  if (update == nullptr || std::string(update) != "1") GTEST_SKIP() << "set UPDATE_CORPUS=1 to rewrite the seeds";
  for (const auto& [name, bytes] : seeds()) test::write_file(corpus_dir() / name, bytes);
}

TEST(FuzzCorpus, SeedsAreUpToDate) {
  for (const auto& [name, bytes] : seeds()) {
    const fs::path path = corpus_dir() / name;
    ASSERT_TRUE(fs::exists(path)) << name << " is missing: run with UPDATE_CORPUS=1";
    EXPECT_TRUE(test::read_file(path) == bytes) << name << " differs: run with UPDATE_CORPUS=1";
  }
}

}  // namespace
}  // namespace moonquota::fuzz
