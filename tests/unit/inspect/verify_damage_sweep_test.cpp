// Damage sweeps for the inspection paths that the restore sweeps do not reach: verify (allocator
// index, spilled replica ids, duplicate confirmation re-reads) and the dump scan (node tables
// kept). Each payload of the findings store and of genuine s1 is truncated, and bytes of the
// decompressed segments payload are corrupted and recompressed: every offset of the first 512
// bytes (headers, segment records), then a prime stride through the rest (node tables: the
// restore sweeps cover every byte of those decoders already), and the last 16 bytes. Invariant:
// no crash, no hang, never an internal error; a truncated payload is an error naming the file.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "inspect/verify.hpp"
#include "restore/snapshot_reader.hpp"
#include "support/local_store.hpp"
#include "support/snapshot_test_support.hpp"
#include "util/zstd_codec.hpp"

namespace moonquota::inspect {
namespace {

namespace fs = std::filesystem;

struct Store {
  const char* name;
  const char* store;
  const char* snapshot_id;
};

constexpr Store k_findings{"findings", "snapshots/inspect-findings/store", "20260822_051200_123"};
// Offsets to damage in a payload of `size` bytes: dense prefix, prime stride, dense tail.
std::vector<std::size_t> sweep_offsets(std::size_t size) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < size; i += i < 512 ? 1 : 37) out.push_back(i);
  for (std::size_t i = size > 16 ? size - 16 : 0; i < size; ++i) {
    if (out.empty() || i > out.back()) out.push_back(i);
  }
  return out;
}

constexpr Store k_s1{"s1", test::k_s1.store, test::k_s1.snapshot_id};

class InspectSweep : public ::testing::TestWithParam<Store> {
 protected:
  void SetUp() override { fs::copy(test::source_path(GetParam().store), m_tmp.path(), fs::copy_options::recursive); }
  fs::path dir() const {
    return m_tmp.path() / "mooncake_master_snapshot" / "mooncake_cluster" / GetParam().snapshot_id;
  }

  // Runs verify and the dump scan; both must end with a result or a non-internal error.
  util::Status run_both() {
    VerifyOptions options;
    options.scan.restore_time_ms = 1787375520123ULL;
    options.threads = 1;
    options.temp_dir = m_tmp.str();
    auto v = verify_snapshot(test::local_files(), dir().string(), GetParam().snapshot_id, options, {});
    restore::ScanOptions dump;
    dump.keep_allocator_blobs = true;
    auto d = restore::scan_snapshot(test::local_files(), dir().string(), GetParam().snapshot_id, dump, {nullptr});
    EXPECT_NE(d.ok() ? util::StatusCode::ok : d.status().code(), util::StatusCode::internal) << d.status().message();
    EXPECT_EQ(v.ok(), d.ok()) << "verify and the dump scan disagree: "
                              << (v.ok() ? d.status().message() : v.status().message());
    return v.ok() ? util::Status() : v.status();
  }

  test::TempDir m_tmp;
};

TEST_P(InspectSweep, EveryTruncatedPayloadIsAnErrorNamingTheFile) {
  for (const char* name : {"metadata", "segments", "task_manager"}) {
    const fs::path path = dir() / name;
    const std::string original = test::read_file(path);
    for (std::size_t cut : sweep_offsets(original.size())) {
      test::write_file(path, std::string_view(original).substr(0, cut));
      util::Status s = run_both();
      // task_manager is decoded leniently by the master: a truncated one may be skipped.
      if (std::string(name) == "task_manager" && s.ok()) continue;
      ASSERT_FALSE(s.ok()) << name << " cut at " << cut << " was accepted";
      ASSERT_NE(s.code(), util::StatusCode::internal) << s.message();
      ASSERT_NE(s.message().find(name), std::string::npos) << "must name " << name << ": " << s.message();
    }
    test::write_file(path, original);
  }
  EXPECT_TRUE(run_both().ok());
}

TEST_P(InspectSweep, EveryCorruptedSegmentsByteKeepsVerifyWellDefined) {
  const fs::path path = dir() / "segments";
  const std::string original = test::read_file(path);
  const std::string raw = test::unzstd(original);
  std::size_t accepted = 0;
  for (std::size_t at : sweep_offsets(raw.size())) {
    std::string damaged = raw;
    damaged[at] = static_cast<char>(damaged[at] ^ 0x5a);
    test::write_file(path, util::zstd_compress(damaged));
    util::Status s = run_both();
    if (HasFailure()) FAIL() << "segments byte " << at;
    if (s.ok()) {
      ++accepted;
    } else {
      ASSERT_NE(s.code(), util::StatusCode::internal) << "byte " << at << ": " << s.message();
    }
  }
  test::write_file(path, original);
  RecordProperty("accepted", static_cast<int>(accepted));
}

INSTANTIATE_TEST_SUITE_P(Stores, InspectSweep, ::testing::Values(k_findings, k_s1),
                         [](const ::testing::TestParamInfo<Store>& p) { return std::string(p.param.name); });

}  // namespace
}  // namespace moonquota::inspect
