// Exhaustive damage sweeps over the small genuine stores: every file truncated at every byte
// offset goes through decode_candidate (payloads) or restore_master (text files), and every bit
// of the decompressed shard and segments payloads is flipped and fed straight to the decoders.
// The invariant: no crash, no hang, and either a result or a rejection with a message. Binary
// payloads cut short must always be rejected (msgpack-c and zstd both throw on truncation).
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "format/metadata_file.hpp"
#include "format/msgpack_reader.hpp"
#include "format/segments_decoder.hpp"
#include "format/shard_decoder.hpp"
#include "restore/restore_path.hpp"
#include "support/local_store.hpp"
#include "support/segments_stream_support.hpp"
#include "support/snapshot_test_support.hpp"
#include "util/file_reader.hpp"

namespace moonquota::restore {
namespace {

namespace fs = std::filesystem;

class Sweep : public ::testing::TestWithParam<test::GenuineSnapshot> {
 protected:
  void SetUp() override {
    m_start = std::chrono::steady_clock::now();
    test::copy_genuine_store(GetParam(), store());
    m_options.restore_time_ms = 1795953000000ULL;
  }
  void TearDown() override {
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - m_start);
    RecordProperty("sweep_ms", static_cast<int>(ms.count()));
    std::cout << "[ sweep    ] " << GetParam().name << " " << m_runs << " decodes in " << ms.count() << " ms\n";
  }
  fs::path store() const { return m_tmp.path() / "store"; }
  fs::path snapshot_dir() const { return fs::path(test::cluster_root(store())) / GetParam().snapshot_id; }

  // Truncates `path` at every offset in [0, size), runs `check`, then restores the file.
  template <typename Check>
  void for_each_truncation(const fs::path& path, Check check) {
    const std::string original = test::read_file(path);
    ASSERT_FALSE(original.empty());
    for (std::size_t cut = 0; cut < original.size(); ++cut) {
      test::write_file(path, std::string_view(original).substr(0, cut));
      check(cut);
      ++m_runs;
      if (::testing::Test::HasFatalFailure()) break;
    }
    test::write_file(path, original);
  }

  test::TempDir m_tmp;
  RestoreOptions m_options;
  std::uint64_t m_runs = 0;
  std::chrono::steady_clock::time_point m_start;
};

TEST_P(Sweep, EveryTruncatedPayloadIsRejectedWithAMessage) {
  for (const char* name : {"metadata", "segments", "task_manager"}) {
    for_each_truncation(snapshot_dir() / name, [&](std::size_t cut) {
      auto state = decode_candidate(test::local_files(), snapshot_dir().string(), GetParam().snapshot_id, m_options);
      ASSERT_FALSE(state.ok()) << name << " cut at " << cut << " was accepted";
      ASSERT_FALSE(state.status().message().empty()) << name << " cut at " << cut;
      ASSERT_NE(state.status().code(), util::StatusCode::internal) << state.status().message();
      ASSERT_EQ(state.status().message().rfind(name, 0), 0u)
          << "the message must name the file: " << state.status().message();
    });
  }
}

TEST_P(Sweep, EveryTruncatedTextFileKeepsTheRestorePathWellDefined) {
  StoreSelection selection;
  selection.store_dir = store().string();
  const fs::path latest = fs::path(test::cluster_root(store())) / "latest.txt";
  for (const fs::path& path : {snapshot_dir() / "manifest.txt", snapshot_dir() / "descriptor.txt", latest}) {
    for_each_truncation(path, [&](std::size_t cut) {
      auto outcome = restore_master(test::local_files(), selection, m_options);
      ASSERT_TRUE(outcome.ok()) << path << " cut at " << cut << ": " << outcome.status().message();
      if (outcome->state) {
        EXPECT_EQ(outcome->state->snapshot_id, GetParam().snapshot_id);
      } else {
        ASSERT_FALSE(outcome->empty_reason.empty());
        for (const auto& a : outcome->attempts) ASSERT_FALSE(a.reason.empty()) << path << " cut at " << cut;
      }
      // A manifest shorter than "messagepack|1.0.0|" can never be accepted.
      if (path.filename() == "manifest.txt" && cut < 18) {
        ASSERT_FALSE(outcome->state.has_value()) << "manifest cut at " << cut;
      }
    });
  }
}

// Every decompressed shard of the snapshot, with every bit flipped, straight into decode_shard.
TEST_P(Sweep, EveryBitFlipOfTheShardsIsHandled) {
  format::SegmentTable table;
  table.add({3, 4}, {model::segment_status::ok, true});
  std::vector<std::pair<std::uint32_t, std::string>> shards;
  format::MetadataScanOptions options;
  model::Findings ignored;
  util::FileReader file;
  ASSERT_TRUE(file.open((snapshot_dir() / "metadata").string()).ok());
  auto info = format::scan_metadata(
      file, table, options,
      [&](unsigned, std::uint32_t shard, std::uint64_t, std::string_view raw) {
        shards.emplace_back(shard, std::string(raw));
        return util::Status{};
      },
      ignored);
  ASSERT_TRUE(info.ok()) << info.status().message();
  ASSERT_FALSE(shards.empty());
  format::ObjectView scratch;
  for (const auto& [index, raw] : shards) {
    for (std::size_t byte = 0; byte < raw.size(); ++byte) {
      for (int bit = 0; bit < 8; ++bit) {
        std::string damaged = raw;
        damaged[byte] = static_cast<char>(damaged[byte] ^ (1 << bit));
        test::RecordingVisitor visitor;
        model::Findings findings;
        util::Status s = format::decode_shard(damaged, index, table, scratch, visitor, findings);
        ++m_runs;
        if (!s.ok()) { ASSERT_EQ(s.message().rfind("shard " + std::to_string(index) + ": ", 0), 0u) << s.message(); }
        for (const auto& e : visitor.entries) {
          if (e.outcome == format::DecodeOutcome::skipped) { ASSERT_FALSE(e.reason.empty()); }
        }
      }
    }
  }
}

// Byte ranges of every BIN payload in a msgpack value (the allocator blobs of `segments`).
std::vector<std::pair<std::size_t, std::size_t>> bin_payload_ranges(const std::string& raw) {
  std::vector<std::pair<std::size_t, std::size_t>> ranges;
  format::MsgpackReader reader(raw);
  format::MpHeader h;
  while (!reader.at_end() && reader.read_header(h)) {
    if (h.type == format::MpType::str || h.type == format::MpType::bin || h.type == format::MpType::ext) {
      const std::size_t start = reader.position();
      std::string_view payload;
      if (!reader.read_payload(h.length, payload)) break;
      if (h.type == format::MpType::bin) ranges.emplace_back(start, reader.position());
    }
  }
  return ranges;
}

// Every byte of the decompressed segments payload XOR 0xff and, outside the allocator blobs,
// every single bit. Inside the blobs (zstd frames, whose damage only zstd sees) one byte in 61
// is flipped: enough to cover the frame headers' error paths without paying a full
// decompression of the node table for each of their bytes.
TEST_P(Sweep, EveryByteFlipOfTheSegmentsPayloadIsHandled) {
  const std::string raw = test::unzstd(test::read_file(snapshot_dir() / "segments"));
  const auto blobs = bin_payload_ranges(raw);
  ASSERT_EQ(blobs.size(), 2u) << "one segment: a node table and a free-node list";
  auto in_blob = [&](std::size_t byte) -> std::size_t {  // offset inside the blob + 1, or 0
    for (const auto& [b, e] : blobs)
      if (byte >= b && byte < e) return byte - b + 1;
    return 0;
  };
  format::SegmentsDecodeOptions options;
  std::uint64_t rejected = 0;
  auto run = [&](const std::string& damaged) {
    model::Findings findings;
    auto r = format::decode_segments(damaged, options, findings);
    // The streamed decode (restore::scan_snapshot's) reaches the same outcome.
    ASSERT_EQ(test::decode_streamed(damaged, options, 13, 0), test::decode_whole(damaged, options));
    ++m_runs;
    if (!r.ok()) {
      ++rejected;
      ASSERT_FALSE(r.status().message().empty());
      ASSERT_EQ(r.status().code(), util::StatusCode::corruption) << r.status().message();
    }
  };
  std::string damaged = raw;
  for (std::size_t byte = 0; byte < raw.size(); ++byte) {
    const std::size_t blob_pos = in_blob(byte);
    if (blob_pos != 0 && blob_pos > 16 && blob_pos % 61 != 0) continue;
    damaged[byte] = static_cast<char>(raw[byte] ^ 0xff);
    run(damaged);
    if (blob_pos == 0) {
      for (int bit = 0; bit < 8; ++bit) {
        damaged[byte] = static_cast<char>(raw[byte] ^ (1 << bit));
        run(damaged);
      }
    }
    damaged[byte] = raw[byte];
  }
  EXPECT_GT(rejected, 0u);
}

INSTANTIATE_TEST_SUITE_P(Genuine, Sweep, ::testing::Values(test::k_s7, test::k_s1),
                         [](const ::testing::TestParamInfo<test::GenuineSnapshot>& p) {
                           return std::string(p.param.name);
                         });

}  // namespace
}  // namespace moonquota::restore
