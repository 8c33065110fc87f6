// Issue 15: the export file is read in chunks, through a fast scan of the lines the tool itself
// writes and nlohmann for every other line, and (keep_values false) without holding the values,
// which oplog_value reads again from their lines. Every form must yield the same key set.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "restore/oplog_replay.hpp"
#include "restore/standby_store.hpp"
#include "source/oplog_source.hpp"
#include "support/snapshot_test_support.hpp"

namespace moonquota::source {
namespace {

void write(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

// Keys out of order, a blank line, CRLF, escapes only nlohmann reads (\u, \/, \n), whitespace,
// an extra member, a key outside the root, no final newline.
const std::string k_mixed =
    "{\"key\":\"/oplog/c/batches/00000000000000000002\",\"value\":\"two \\\"q\\\" \\\\ end\"}\n"
    "\n"
    "{\"key\":\"/oplog/c/durable_prefix\",\"value\":\"{\\\"batch_id\\\":2}\"}\r\n"
    "{ \"value\": \"\\u00e9\\/\\n\", \"key\": \"/oplog/c/batches/00000000000000000001\", \"x\": 1 }\n"
    "{\"key\":\"/oplog/other/durable_prefix\",\"value\":\"\"}\n"
    "{\"key\":\"/oplog/c/batches/00000000000000000003\",\"value\":\"\"}";

TEST(OpLogExportFile, ValuesReadAgainEqualTheHeldValues) {
  test::TempDir dir;
  const std::string path = (dir.path() / "oplog.jsonl").string();
  write(path, k_mixed);
  auto held = read_oplog_export_file(path, "c");
  ASSERT_TRUE(held.ok()) << held.status().message();
  OpLogReadLimits lazy_limits;
  lazy_limits.keep_values = false;
  auto lazy = read_oplog_export_file(path, "c", lazy_limits);
  ASSERT_TRUE(lazy.ok()) << lazy.status().message();
  ASSERT_EQ(held->kvs.size(), 4U);
  ASSERT_EQ(lazy->kvs.size(), 4U);
  EXPECT_EQ(held->outside_root, 1U);
  EXPECT_EQ(lazy->outside_root, 1U);
  EXPECT_EQ(held->kvs[0].value, "\xc3\xa9/\n");
  EXPECT_EQ(held->kvs[1].value, "two \"q\" \\ end");
  EXPECT_EQ(held->kvs[3].value, "{\"batch_id\":2}");
  for (std::size_t i = 0; i < held->kvs.size(); ++i) {
    EXPECT_EQ(lazy->kvs[i].key, held->kvs[i].key);
    EXPECT_TRUE(lazy->kvs[i].value.empty());
    std::string scratch;
    auto value = oplog_value(*lazy, i, scratch);
    ASSERT_TRUE(value.ok()) << value.status().message();
    EXPECT_EQ(*value, held->kvs[i].value) << held->kvs[i].key;
    std::string unused;
    auto same = oplog_value(*held, i, unused);
    ASSERT_TRUE(same.ok());
    EXPECT_EQ(*same, held->kvs[i].value);
  }
  // The file changed under the reader: the line no longer holds its key.
  write(path, std::string(k_mixed.size(), ' '));
  std::string scratch;
  auto changed = oplog_value(*lazy, 0, scratch);
  ASSERT_FALSE(changed.ok());
  EXPECT_NE(changed.status().message().find("changed while it was being read"), std::string::npos);
}

TEST(OpLogExportFile, LinesAcrossChunksAndErrorsNameTheLine) {
  test::TempDir dir;
  const std::string path = (dir.path() / "oplog.jsonl").string();
  // Values longer than the 4 MiB read chunk, so lines straddle chunk boundaries.
  std::string text;
  for (int i = 1; i <= 3; ++i) {
    text += "{\"key\":\"/oplog/c/batches/0000000000000000000" + std::to_string(i) + "\",\"value\":\"" +
            std::string(std::size_t{3} << 20, static_cast<char>('a' + i)) + "\"}\n";
  }
  write(path, text + "not json\n");
  auto bad = read_oplog_export_file(path, "c");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("line 4: not a JSON object"), std::string::npos) << bad.status().message();
  write(path, text);
  OpLogReadLimits lazy_limits;
  lazy_limits.keep_values = false;
  auto lazy = read_oplog_export_file(path, "c", lazy_limits);
  ASSERT_TRUE(lazy.ok()) << lazy.status().message();
  ASSERT_EQ(lazy->kvs.size(), 3U);
  for (std::size_t i = 0; i < 3; ++i) {
    std::string scratch;
    auto value = oplog_value(*lazy, i, scratch);
    ASSERT_TRUE(value.ok()) << value.status().message();
    EXPECT_EQ(*value, std::string(std::size_t{3} << 20, static_cast<char>('a' + i + 1)));
  }
}

TEST(OpLogExportFile, ReplayOfValuesReadAgainEqualsReplayOfHeldValues) {
  const std::string path = test::source_path("snapshots/promote-worked/oplog.jsonl");
  auto held = read_oplog_export_file(path, "prod-a");
  OpLogReadLimits lazy_limits;
  lazy_limits.keep_values = false;
  auto lazy = read_oplog_export_file(path, "prod-a", lazy_limits);
  ASSERT_TRUE(held.ok() && lazy.ok());
  restore::StandbyStore a;
  restore::StandbyStore b;
  auto ra = restore::replay_oplog(*held, a, 0, {});
  auto rb = restore::replay_oplog(*lazy, b, 0, {});
  ASSERT_EQ(ra.ok(), rb.ok());
  if (!ra.ok()) {
    EXPECT_EQ(ra.status().message(), rb.status().message());
    return;
  }
  EXPECT_EQ(ra->applied_seq, rb->applied_seq);
  EXPECT_EQ(ra->batches_decoded, rb->batches_decoded);
  EXPECT_EQ(ra->entries_seen, rb->entries_seen);
  ASSERT_EQ(ra->findings.size(), rb->findings.size());
  for (std::size_t i = 0; i < ra->findings.size(); ++i) EXPECT_EQ(ra->findings[i].message, rb->findings[i].message);
  EXPECT_EQ(a.size(), b.size());
}

}  // namespace
}  // namespace moonquota::source
