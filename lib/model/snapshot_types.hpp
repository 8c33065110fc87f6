// Plain data for the contents of a Mooncake master snapshot (snapshot-format.md §5-§7). The
// decoders fill these; the forge encodes them. No behaviour beyond small helpers.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/enums.hpp"

namespace moonquota::model {

// offset_handle = [real_base, requested_size, [offset, node_index]]
struct OffsetHandle {
  std::uint64_t real_base = 0;
  std::uint64_t requested_size = 0;
  std::uint32_t offset = 0;
  std::uint32_t node_index = 0;
};

// MEMORY payload: AllocatedBuffer = [size, buffer_address, segment_id, has_offset_handle, handle|nil]
struct MemoryBuffer {
  std::uint64_t size = 0;
  std::uint64_t buffer_address = 0;
  std::string segment_id;  // UUID string as stored
  bool has_offset_handle = false;
  OffsetHandle handle;
};

struct Replica {
  std::uint64_t id = 0;
  std::int16_t status = replica_status::complete;
  std::int8_t type = replica_type::memory;
  MemoryBuffer memory;             // type MEMORY
  std::string file_path;           // DISK, DFS
  std::uint64_t object_size = 0;   // DISK, LOCAL_DISK, DFS
  std::string client_id;           // LOCAL_DISK
  std::string transport_endpoint;  // LOCAL_DISK
  std::uint64_t dfs_offset = 0;    // DFS
  std::uint64_t dfs_aligned_size = 0;
  std::int32_t dfs_shard_idx = 0;
};

// ObjectMetadata (snapshot-format.md §5.4), with the tenant and key of its shard entry.
struct ObjectRecord {
  std::string tenant_id;  // already normalised ("" -> "default")
  std::string key;
  std::string client_id;
  std::uint64_t put_start_time_ms = 0;
  std::uint64_t size = 0;
  std::uint64_t lease_timeout_ms = 0;
  std::uint8_t data_type = 0;
  std::vector<Replica> replicas;
  bool hard_pinned = false;
  std::string group_id;
  std::optional<std::uint64_t> checksum;
  int layout_version = 4;     // 1..5 (§5.5); the writer emits 4 or 5
  bool legacy_entry = false;  // 2-element shard entry
};

struct DiscardedItem {
  std::int64_t ttl_ms = 0;
  std::uint64_t mem_size = 0;
  std::vector<Replica> replicas;
};

// __Allocator (OffsetAllocator internals), blobs kept decompressed.
struct AllocatorCore {
  std::uint32_t size = 0;
  std::uint32_t current_capacity = 0;
  std::uint32_t max_capacity = 0;
  std::uint32_t free_storage = 0;
  std::uint32_t used_bins_top = 0;
  std::array<std::uint8_t, 32> used_bins{};
  std::array<std::uint32_t, 256> bin_indices{};
  std::string nodes;       // current_capacity x 25 bytes, little-endian records
  std::string free_nodes;  // current_capacity x 4 bytes, u32 little-endian
  std::uint32_t free_offset = 0;
};

struct OffsetAllocatorState {
  std::uint64_t base = 0;
  std::uint64_t multiplier_bits = 0;
  std::uint64_t capacity = 0;
  std::uint64_t allocated_size = 0;
  std::uint64_t allocated_num = 0;
  AllocatorCore core;
};

struct BufferAllocatorState {
  std::string segment_name;
  std::uint64_t base = 0;
  std::uint64_t total_size = 0;
  std::uint64_t cur_size = 0;
  std::string transport_endpoint;
  OffsetAllocatorState offset;
};

struct MountedSegment {
  std::string map_key;  // the "ms" key
  std::string id;       // element 0
  std::string name;
  std::uint64_t base = 0;
  std::uint64_t size = 0;
  std::string te_endpoint;
  std::int16_t status = segment_status::ok;
  bool has_allocator = false;
  std::optional<BufferAllocatorState> allocator;
  std::optional<std::string> host_id;
};

struct LocalDiskTask {
  std::string encoded_key;  // tenant + '\0' + key
  std::string tenant_id;
  std::string key;
  std::int64_t size = 0;
  bool legacy_integer_form = false;
};

struct LocalDiskClient {
  std::string client_id;
  bool enable_offloading = false;
  std::vector<LocalDiskTask> tasks;
  std::optional<std::int64_t> total_capacity_bytes;
};

struct SegmentsPayload {
  std::optional<std::int32_t> allocator_type;  // "ma"
  bool has_allocator_names = false;
  std::vector<std::string> allocator_names;  // "an"
  std::vector<MountedSegment> mounted;       // "ms", in file order
  bool has_client_segments = false;
  std::vector<std::pair<std::string, std::vector<std::string>>> client_segments;  // "cs"
  bool has_local_disk = false;
  std::vector<LocalDiskClient> local_disk;  // "ld"
};

struct TaskRecord {
  std::string id;
  std::int32_t type = 0;
  std::int32_t status = 0;
  std::string payload;
  std::int64_t created_at_ms = 0;
  std::int64_t last_updated_at_ms = 0;
  std::string message;
  std::string assigned_client;
};

struct SnapshotDescriptor {
  std::uint64_t last_included_seq = 0;
  std::int64_t producer_view_version = 0;
  std::int64_t created_at_ms = 0;
};

}  // namespace moonquota::model
