#include "inspect/snapshot_summary.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "model/enums.hpp"
#include "support/run_tool.hpp"

namespace moonquota::inspect {
namespace {

model::MountedSegment segment(std::int16_t status, std::uint64_t size) {
  model::MountedSegment s;
  s.status = status;
  s.size = size;
  return s;
}

TEST(SnapshotSummary, CountsDiscardedTasksAndSegments) {
  StatsScan scan;
  scan.stats.shard_entries[0] = 3;  // one shard of 3 entries, 1023 empty
  model::DiscardedItem item;
  item.mem_size = 100;
  item.replicas.resize(2);
  scan.snapshot.metadata.discarded = {item, item};
  model::TaskRecord task;
  task.type = model::task_type::replica_copy;
  task.status = model::task_status::pending;
  scan.snapshot.tasks = {task, task};
  const std::uint64_t big = std::numeric_limits<std::uint64_t>::max() - 1;
  scan.snapshot.segments.mounted = {segment(model::segment_status::ok, big), segment(model::segment_status::ok, 10),
                                    segment(model::segment_status::unmounting, 7)};
  const SnapshotSummary s = summarize_snapshot(scan);
  EXPECT_EQ(s.discarded_replicas, 4u);
  EXPECT_EQ(s.discarded_bytes, 200u);
  ASSERT_EQ(s.tasks_by_type_status.size(), 1u);
  EXPECT_EQ(s.tasks_by_type_status.begin()->second, 2u);
  ASSERT_EQ(s.segments_by_status.size(), 2u);
  EXPECT_EQ(s.segments_by_status.at(model::segment_status::ok).segments, 2u);
  EXPECT_EQ(s.segments_by_status.at(model::segment_status::ok).bytes, std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(s.segments_by_status.at(model::segment_status::unmounting).bytes, 7u);
  EXPECT_EQ(s.ok_capacity_bytes, std::numeric_limits<std::uint64_t>::max());  // saturates, never wraps
  EXPECT_EQ(s.shard_fill_histogram, shard_fill_histogram(scan.stats.shard_entries));
  ASSERT_GE(s.shard_fill_histogram.size(), 1u);
  EXPECT_EQ(s.shard_fill_histogram[0], 1023u);
}

// Issue 11 item 7: `summary --format ndjson` printed pretty multi-line JSON. Every subcommand
// that takes ndjson prints one compact JSON document per line.
TEST(SnapshotInspectTool, EveryNdjsonCommandPrintsOneDocumentPerLine) {
  const std::string sample = test::source_path("snapshots/sample/store");
  const std::vector<std::vector<std::string>> commands = {
      {"summary"},
      {"tenants"},
      {"segments"},
      {"tasks"},
      {"top"},
      {"top", "tenants"},
      {"verify", "--store", test::source_path("snapshots/inspect-findings/store")},  // a clean store lists none
      {"objects", "--limit", "5"},
      {"dump"},
      {"diff", "--store", test::source_path("snapshots/inspect-diff-a/store"), "--other-store",
       test::source_path("snapshots/inspect-diff-b/store")}};
  for (auto args : commands) {
    const std::string name = args[0] + (args.size() > 1 && args[1] == "tenants" ? " tenants" : "");
    if (args[0] != "diff" && args[0] != "verify") args.insert(args.end(), {"--store", sample});
    args.insert(args.end(), {"--restore-time", "1787375520123", "--format", "ndjson"});
    const auto run = test::run_tool("snapshot-inspect", args);
    ASSERT_LE(run.exit_code, 1) << name << ": " << run.err;
    ASSERT_FALSE(run.out.empty()) << name;
    EXPECT_EQ(run.out.back(), '\n') << name;
    std::istringstream lines(run.out);
    std::size_t documents = 0;
    for (std::string line; std::getline(lines, line); ++documents) {
      const auto doc = nlohmann::ordered_json::parse(line, nullptr, false);
      ASSERT_FALSE(doc.is_discarded()) << name << ": line " << documents + 1 << " is not a JSON document: " << line;
      EXPECT_TRUE(doc.is_object()) << name << ": " << line;
      EXPECT_EQ(doc.dump(), line) << name << ": not compact";
    }
    if (args[0] == "summary") { EXPECT_EQ(documents, 1u); }
  }
}

}  // namespace
}  // namespace moonquota::inspect
