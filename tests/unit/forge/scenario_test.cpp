#include "forge/scenario.hpp"

#include <gtest/gtest.h>

#include <string>

#include "format/metadata_encoder.hpp"

namespace moonquota::forge {
namespace {

// A minimal valid scenario with `objects` spliced in.
std::string scenario_with(const std::string& objects, const std::string& extra = "") {
  return R"({"snapshots":[{"id":"20260822_051200_123","latest":true,)" + extra +
         R"("segments":[{"id":"3-4","name":"seg-a","base":4096,"size":1048576,"client":"1-2"}],
            "objects":[)" +
         objects + "]}]}";
}

std::string error_of(const std::string& json) {
  auto s = parse_scenario(json);
  EXPECT_FALSE(s.ok());
  return s.ok() ? "" : s.status().message();
}

TEST(Scenario, SynthesisesHandlesIdsAndAllocator) {
  auto s = parse_scenario(scenario_with(
      R"({"key":"k1","size":1000,"client_id":"1-2","replicas":[{"type":"MEMORY","segment":"3-4"},{"type":"DISK"}]},
         {"tenant":"t","key":"k2","size":10,"client_id":"1-2","replicas":[{"type":"MEMORY","segment":"3-4","status":"PROCESSING"}]})"));
  ASSERT_TRUE(s.ok()) << s.status().to_string();
  const ForgedSnapshot& snap = s->snapshots.at(0);
  EXPECT_EQ(snap.descriptor.created_at_ms, 1787375520123);  // from the id, read as UTC
  ASSERT_EQ(snap.metadata.objects.size(), 2u);
  const model::ObjectRecord& first = snap.metadata.objects[0];
  EXPECT_EQ(first.tenant_id, "default");
  EXPECT_EQ(first.replicas[0].id, 1u);
  EXPECT_EQ(first.replicas[1].id, 2u);
  EXPECT_EQ(first.replicas[1].file_path, master_disk_path("/mnt/mooncake_fs", "mooncake_cluster", "k1"));
  const model::ObjectRecord& second = snap.metadata.objects[1];
  EXPECT_EQ(second.replicas[0].status, model::replica_status::processing);
  EXPECT_EQ(second.replicas[0].memory.handle.offset, 1024u);  // 1000 rounds up to the 1024 bin
  EXPECT_EQ(second.replicas[0].memory.handle.node_index, 1u);
  EXPECT_EQ(second.replicas[0].memory.buffer_address, 4096u + 1024u);
  EXPECT_EQ(snap.metadata.replica_next_id, 4u);
  const auto& alloc = snap.segments.mounted.at(0).allocator;
  ASSERT_TRUE(alloc.has_value());
  EXPECT_EQ(alloc->cur_size, 1010u);
  EXPECT_EQ(alloc->offset.allocated_num, 2u);
  EXPECT_EQ(snap.segments.allocator_names, std::vector<std::string>{"seg-a"});
  ASSERT_EQ(snap.segments.client_segments.size(), 1u);
  EXPECT_EQ(snap.segments.client_segments[0].first, "1-2");
}

TEST(Scenario, MasterDiskPathRule) {
  // §14.1: std::hash("demo-key") & 0xff = 0xc3 -> d, m.
  EXPECT_EQ(master_disk_path("/mnt/mooncake_fs", "mooncake_cluster", "demo-key"),
            "/mnt/mooncake_fs/mooncake_cluster/d/m/demo-key");
  EXPECT_EQ(master_disk_path("/r", "c", "a/b:c").substr(9), "a_b_c");
}

TEST(Scenario, ErrorsNameTheJsonPath) {
  EXPECT_EQ(error_of("{"),
            "line 1 column 2 (byte offset 1): not valid JSON: syntax error while parsing object key - unexpected end "
            "of input; expected string literal");
  // Issue 11 item 15: the line and column of bad JSON.
  EXPECT_EQ(error_of("{\n  \"snapshots\": [\n    {\"id\": 1,,}\n  ]\n}\n"),
            "line 3 column 14 (byte offset 32): not valid JSON: syntax error while parsing object key - unexpected "
            "','; expected string literal");
  EXPECT_EQ(error_of(R"({"snapshots":[]})"), "$: 'snapshots' must list at least one snapshot");
  EXPECT_EQ(error_of(scenario_with(R"({"key":"k","size":-1,"client_id":"1-2"})")),
            "$.snapshots[0].objects[0].size: expected an unsigned integer (0 .. 2^64-1)");
  EXPECT_EQ(error_of(scenario_with(
                R"({"key":"k","size":1,"client_id":"1-2","replicas":[{"type":"MEMORY","segment":"9-9"}]})")),
            "$.snapshots[0].objects[0].replicas[0]: MEMORY replica names unknown segment '9-9'");
  EXPECT_EQ(error_of(scenario_with(R"({"key":"k","size":1,"client_id":"1-2","replicas":[{"type":"NOF"}]})")),
            "$.snapshots[0].objects[0].replicas[0].type: unknown name 'NOF' (expected one of MEMORY, DISK, "
            "LOCAL_DISK, or a number)");
  EXPECT_EQ(error_of(scenario_with(R"({"key":"k","size":1,"client_id":"1-2","sise":3})")),
            "$.snapshots[0].objects[0]: unknown field 'sise'");
  EXPECT_EQ(error_of(scenario_with(R"({"key":"k","size":1})")),
            "$.snapshots[0].objects[0]: missing required field 'client_id'");
  EXPECT_EQ(error_of(scenario_with(
                R"({"key":"k","size":2000000,"client_id":"1-2","replicas":[{"type":"MEMORY","segment":"3-4"}]})")),
            "$.snapshots[0].objects[0].replicas[0]: cannot allocate 2000000 bytes in a segment of 1048576 bytes: "
            "larger than the segment");
  EXPECT_NE(error_of(R"({"snapshots":[{"id":"snapshot-000123"}]})").find("YYYYMMDD_HHMMSS_mmm"), std::string::npos);
}

TEST(Scenario, EscapeHatches) {
  auto s = parse_scenario(scenario_with(
      R"({"key":"k","size":1,"client_id":"1-2","shard":7,"replicas":[{"type":"DISK","status":42,"id":9}]},
         {"key":"gone","size":64,"client_id":"1-2","removed":true,"replicas":[{"type":"MEMORY","segment":"3-4"}]})",
      R"("manifest":"messagepack|1.0.1|x","published":false,)"));
  ASSERT_TRUE(s.ok()) << s.status().to_string();
  const ForgedSnapshot& snap = s->snapshots[0];
  EXPECT_EQ(snap.metadata.shards, std::vector<std::uint32_t>{7});
  EXPECT_EQ(snap.metadata.objects.size(), 1u);  // the removed object is not written
  EXPECT_EQ(snap.metadata.objects[0].replicas[0].status, 42);
  EXPECT_EQ(snap.metadata.replica_next_id, 11u);                            // ids 9 and 10 were used
  EXPECT_EQ(snap.segments.mounted[0].allocator->offset.allocated_num, 0u);  // freed again
  EXPECT_EQ(snap.manifest_text.value(), "messagepack|1.0.1|x");
  EXPECT_FALSE(snap.published);
}

}  // namespace
}  // namespace moonquota::forge
