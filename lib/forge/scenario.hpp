// Forge scenarios: a readable JSON description of a snapshot store (docs/formats/forge-scenario.md)
// turned into the exact model the encoders write. The scenario states what an operator thinks
// in (tenants, keys, sizes, replicas on segments); everything Mooncake derives is synthesised
// here: allocator state of every segment from the MEMORY replicas placed on it (in object
// order), buffer addresses and offset handles, replica ids, replica_next_id, "an" and "cs",
// DISK paths by the master's rule.
//
// Errors: parse_scenario() returns invalid_argument with the JSON path of the offending value.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "format/metadata_encoder.hpp"
#include "model/snapshot_types.hpp"
#include "util/status.hpp"

namespace moonquota::forge {

// One snapshot directory of the catalog, ready to encode.
struct ForgedSnapshot {
  std::string id;         // 19-byte snapshot id (§2.7)
  bool latest = false;    // named by latest.txt
  bool published = true;  // false: no descriptor.txt (never restored)
  model::SnapshotDescriptor descriptor;
  std::optional<std::string> manifest_text;  // override of "messagepack|1.0.0|<id>"
  format::MetadataContent metadata;
  model::SegmentsPayload segments;
  std::vector<model::TaskRecord> tasks;
};

struct Scenario {
  std::string cluster_id = "mooncake_cluster";  // "" puts snapshots directly under the root
  std::vector<ForgedSnapshot> snapshots;        // at most one is latest
};

// Parses and synthesises. `json_text` is the whole scenario document.
[[nodiscard]] util::Result<Scenario> parse_scenario(std::string_view json_text);

// The largest scenario file read: a hand-written or generated JSON document (the bundled sample
// is 0.75 MB; parsed, a document takes ~10x its size in memory). Larger stores: --large N.
inline constexpr std::uint64_t k_max_scenario_bytes = std::uint64_t{64} << 20;

// The text of the scenario file `path`: a regular file of at most k_max_scenario_bytes (a
// directory, a device or FIFO such as /dev/zero, or a bigger file is an error naming the path).
[[nodiscard]] util::Result<std::string> read_scenario_text(const std::string& path);

// Parses `json_text` read from `path` (errors name the path).
[[nodiscard]] util::Result<Scenario> parse_scenario_file(std::string_view json_text, const std::string& path);

// Reads `path` and parses it; I/O problems are io_error, content problems corruption.
[[nodiscard]] util::Result<Scenario> load_scenario(const std::string& path);

// The master's DISK replica path (§5.6): <root_fs_dir>/<cluster_id>/<d1>/<d2>/<sanitised key>
// with h = std::hash(key), d1 = 'a' + (h & 15), d2 = 'a' + ((h >> 4) & 15); each of
// / \ : * ? " < > | and NUL in the key becomes '_'.
[[nodiscard]] std::string master_disk_path(std::string_view root_fs_dir, std::string_view cluster_id,
                                           std::string_view key);

// The snapshot-id validity rule (§2.7): 19 bytes, '_' at 8 and 15, ASCII digits elsewhere.
[[nodiscard]] bool is_valid_snapshot_id(std::string_view id);

}  // namespace moonquota::forge
