// Internal to the scenario parser: the state shared while one snapshot of a scenario is turned
// into its model (segments with their allocator simulations, replica id counter, frees that
// must happen after every object was placed).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "forge/json_fields.hpp"
#include "forge/offset_allocator.hpp"
#include "format/metadata_encoder.hpp"
#include "model/snapshot_types.hpp"
#include "util/status.hpp"

namespace moonquota::forge::detail {

struct SegmentSlot {
  model::MountedSegment segment;
  std::string client_id;  // the client that mounted it ("cs")
  std::optional<forge::OffsetAllocatorSimulation> allocator;
};

struct PendingFree {
  std::size_t segment_slot = 0;
  forge::Allocation allocation;
};

struct SnapshotBuild {
  std::string cluster_id;
  std::string root_fs_dir;
  std::uint64_t default_put_start_time_ms = 0;
  std::vector<SegmentSlot> segments;
  std::uint64_t max_replica_id = 0;
  std::vector<PendingFree> pending_frees;
};

// Fails (naming `at`'s path) unless `text` is a canonical "<u64>-<u64>" UUID.
[[nodiscard]] util::Status check_uuid(const JsonAt& at, const std::string& field, const std::string& text);

// Parses "objects" (placing MEMORY replicas, queueing frees of removed objects) into `content`.
[[nodiscard]] util::Status parse_objects(const JsonAt& snapshot, SnapshotBuild& build,
                                         format::MetadataContent& content);

// Parses "discarded_replicas" into `content.discarded` (MEMORY replicas are allocated too).
[[nodiscard]] util::Status parse_discarded(const JsonAt& snapshot, SnapshotBuild& build,
                                           format::MetadataContent& content);

}  // namespace moonquota::forge::detail
