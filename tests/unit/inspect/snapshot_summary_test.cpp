#include "inspect/snapshot_summary.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "model/enums.hpp"

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

}  // namespace
}  // namespace moonquota::inspect
