// Non-owning views of one decoded ObjectMetadata (snapshot-format.md §5.4-§5.7). Strings point
// into the decompressed shard and are valid only while that buffer lives (the visitor call).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/snapshot_types.hpp"
#include "util/recent_strings.hpp"
#include "util/uuid.hpp"

namespace moonquota::format {

struct ReplicaView {
  std::uint64_t id = 0;
  std::int16_t status = 0;
  std::int8_t type = 0;
  // MEMORY
  std::uint64_t mem_size = 0;
  std::uint64_t mem_address = 0;
  std::string_view segment_id;
  bool has_offset_handle = false;
  model::OffsetHandle handle;
  // DISK / DFS path; LOCAL_DISK client and endpoint
  std::string_view file_path;
  std::uint64_t object_size = 0;
  std::string_view client_id;
  std::string_view transport_endpoint;
  std::uint64_t dfs_offset = 0;
  std::uint64_t dfs_aligned_size = 0;
  std::int32_t dfs_shard_idx = 0;
};

struct ObjectView {
  std::string_view tenant_id;  // normalised: "" becomes "default"
  std::string_view key;
  std::string_view client_id;
  std::uint64_t put_start_time_ms = 0;
  std::uint64_t size = 0;
  std::uint64_t lease_timeout_ms = 0;
  std::uint8_t data_type = 0;
  std::vector<ReplicaView> replicas;  // capacity reused between objects
  bool hard_pinned = false;
  std::string_view group_id;
  bool has_checksum = false;
  std::uint64_t checksum = 0;
  int layout_version = 4;
  bool legacy_entry = false;
  // Decoder scratch: recently seen client ids that parse as UUIDs, and recently seen MEMORY
  // segment ids with their UUIDs (writers repeat a few of each across millions of objects).
  util::RecentStrings<bool> valid_client_ids;
  util::RecentStrings<util::Uuid> segment_uuids;
};

// An owning copy (for dump, diff and tests).
[[nodiscard]] model::ObjectRecord to_record(const ObjectView& view);

}  // namespace moonquota::format
