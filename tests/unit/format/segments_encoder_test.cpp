#include "format/segments_encoder.hpp"

#include <gtest/gtest.h>

#include <string>

#include "forge/offset_allocator.hpp"
#include "format/task_manager_encoder.hpp"
#include "util/text_encoding.hpp"

namespace moonquota::format {
namespace {

using util::to_hex;

model::MountedSegment make_segment(const std::string& id, const std::string& name, std::uint64_t base,
                                   std::uint64_t size, const std::string& endpoint,
                                   const std::vector<std::uint64_t>& allocations) {
  model::MountedSegment s;
  s.id = id;
  s.name = name;
  s.base = base;
  s.size = size;
  s.te_endpoint = endpoint;
  s.has_allocator = true;
  auto sim = forge::OffsetAllocatorSimulation::create(base, size);
  EXPECT_TRUE(sim.ok());
  for (std::uint64_t bytes : allocations) EXPECT_TRUE(sim->allocate(bytes).ok());
  model::BufferAllocatorState a;
  a.segment_name = name;
  a.base = base;
  a.total_size = size;
  a.cur_size = sim->allocated_bytes();
  a.transport_endpoint = endpoint;
  a.offset = sim->export_state();
  s.allocator = a;
  return s;
}

// §14.7: no segments.
TEST(SegmentsEncoder, EmptyFixtureIsByteExact) {
  model::SegmentsPayload empty;
  auto raw = encode_segments_raw(empty);
  ASSERT_TRUE(raw.ok());
  EXPECT_EQ(to_hex(*raw), "85a26d6101a2616e90a26d7380a2637380a26c6480");
  auto file = encode_segments(empty);
  ASSERT_TRUE(file.ok());
  EXPECT_EQ(to_hex(*file), "28b52ffd2015a9000085a26d6101a2616e90a26d7380a2637380a26c6480");
}

TEST(TaskManagerEncoder, EmptyFixtureIsByteExact) {
  auto file = encode_task_manager({});
  ASSERT_TRUE(file.ok());
  EXPECT_EQ(to_hex(*file), "28b52ffd200109000090");
}

// §14.6: the segment of the worked example after its one 1024-byte allocation.
TEST(SegmentsEncoder, SpecWorkedExampleSizeAndPrefix) {
  model::SegmentsPayload p;
  p.allocator_names = {"seg-a"};
  p.mounted = {make_segment("3-4", "seg-a", 0x300000000ULL, 16777216, "127.0.0.1:17812", {1024})};
  p.client_segments = {{"1-2", {"3-4"}}};
  auto raw = encode_segments_raw(p);
  ASSERT_TRUE(raw.ok()) << raw.status().to_string();
  EXPECT_EQ(raw->size(), 13072u);
  const std::string h = to_hex(*raw);
  const std::string prefix =
      "85a26d6101a2616e91a57365672d61a26d7381a3332d3499a3332d34a57365672d61cf0000000300000000"
      "ce01000000af3132372e302e302e313a313738313201c396";
  EXPECT_EQ(h.substr(0, prefix.size()), prefix);
  EXPECT_NE(h.find("dc0020"), std::string::npos);  // used_bins as array16
  EXPECT_NE(h.find("dc0100"), std::string::npos);  // bin_indices as array16
  // cs then ld at the end.
  EXPECT_EQ(h.substr(h.size() - 36), "a0a2637381a3312d3291a3332d34a26c6480");
}

TEST(SegmentsEncoder, MapsSortByNumericUuidPair) {
  model::SegmentsPayload p;
  p.allocator_names = {"b", "a"};
  p.mounted = {make_segment("10-1", "b", 0, 4096, "e", {}), make_segment("9-2", "a", 0, 4096, "e", {})};
  p.client_segments = {{"10-0", {"10-1"}}, {"2-0", {"9-2"}}};
  model::LocalDiskClient ld;
  ld.client_id = "3-0";
  ld.enable_offloading = true;
  ld.total_capacity_bytes = 100;
  ld.tasks = {{"", "t", "zz", 5, false}, {"", "t", "aa", 7, false}};
  model::LocalDiskClient ld2;
  ld2.client_id = "11-0";
  p.local_disk = {ld2, ld};
  auto raw = encode_segments_raw(p);
  ASSERT_TRUE(raw.ok());
  const std::string h = to_hex(*raw);
  EXPECT_LT(h.find(to_hex("9-2")), h.find(to_hex("10-1")));  // 9 < 10 numerically, not as strings
  EXPECT_LT(h.find(to_hex("2-0")), h.find(to_hex("10-0")));
  EXPECT_LT(h.find(to_hex("3-0")), h.find(to_hex("11-0")));
  // ld "3-0": [true, 2, "t\0aa", ["t","aa",7], "t\0zz", ["t","zz",5], 100]
  EXPECT_NE(h.find("a3332d3097c302a474006161"
                   "93a174a2616107a474007a7a93a174a27a7a0564"),
            std::string::npos);
  // ld "11-0": [false, 0, 0]
  EXPECT_NE(h.find(to_hex("11-0") + "93c20000"), std::string::npos);
  p.mounted[0].id = "not-a-uuid";
  EXPECT_FALSE(encode_segments_raw(p).ok());
}

TEST(SegmentsEncoder, SegmentWithoutAllocatorAndNonOkStatus) {
  model::MountedSegment s;
  s.id = "5-6";
  s.name = "n";
  s.status = model::segment_status::draining;
  s.host_id = "host";
  std::string out;
  MsgpackWriter w(out);
  ASSERT_TRUE(encode_mounted_segment(w, s).ok());
  EXPECT_EQ(to_hex(out), "99a3352d36a16e0000a002c2c0a4686f7374");
}

TEST(TaskManagerEncoder, TasksSortByUuidPairAndKeepEightFields) {
  model::TaskRecord late{"10-0", 1, 2, "{}", 5, 6, "m", "1-2"};
  model::TaskRecord early{"9-9", 0, 0, "{\"k\":1}", 1, 2, "", "1-2"};
  auto raw = encode_task_manager_raw({late, early});
  ASSERT_TRUE(raw.ok());
  const std::string h = to_hex(*raw);
  EXPECT_EQ(h.substr(0, 4), "9298");
  EXPECT_LT(h.find(to_hex("9-9")), h.find(to_hex("10-0")));
  model::TaskRecord bad{"x", 0, 0, "", 0, 0, "", "1-2"};
  EXPECT_FALSE(encode_task_manager_raw({bad}).ok());
}

}  // namespace
}  // namespace moonquota::format
