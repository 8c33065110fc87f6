// The shape of one snapshot, independent of its data (snapshot-inspect fingerprint): what a
// master build writes, so two builds that write the same format give the same fingerprint and a
// change of layout shows as features added and removed. Per section (manifest, descriptor,
// metadata, segments, task_manager) a set of features, each a short text such as
// "object: v5 (11+N) [str,uint,uint,uint,bool,uint,uint] data_type, N replicas, tail [bool,str,uint]"
// or "replica MEMORY (0): [uint,uint,uint,[uint,uint,str,bool,[uint,uint,[uint,uint]]]]", with how
// often it was seen and where first; features the format does not define (unknown keys, objects
// past v5, longer segment records) are marked unknown. `fingerprint_id` hashes the sections and
// their feature texts only: counts and places do not change it.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "inspect/snapshot_select.hpp"
#include "restore/snapshot_reader.hpp"
#include "source/object_store.hpp"
#include "util/status.hpp"

namespace moonquota::inspect {

struct ShapeFeature {
  std::uint64_t count = 0;
  std::string first_seen;         // "shard 3 entry 0", "segments \"ms\" entry 2", ...: the first in file order
  bool unknown = false;           // not part of the format as documented
  std::uint64_t first_order = 0;  // where first_seen is in file order (shards are walked in parallel)
};

// section -> feature text -> what was seen of it. Sections and features sort bytewise.
using ShapeSection = std::map<std::string, ShapeFeature>;

struct SnapshotShape {
  std::map<std::string, ShapeSection> sections;

  // `order` places `where` in file order: the place kept is the one of the smallest order (the
  // first added among equals), so shapes walked in parallel and merged say the same.
  void add(const std::string& section, const std::string& feature, const std::string& where, std::uint64_t count = 1,
           bool unknown = false, std::uint64_t order = 0);
  // Adds `other`'s counts and places.
  void merge(const SnapshotShape& other);
};

struct SnapshotFingerprint {
  std::string snapshot_id;
  std::string snapshot_dir;
  SnapshotShape shape;
  std::string fingerprint_id;  // 16 lowercase hex digits (canonical_shape_text hashed, XXH3 64)
  std::uint64_t unknown_features = 0;
  // Decodable, but the master rejects it at restore (a non-OK segment at 3b5a5941): why.
  std::optional<std::string> master_rejection;
};

// The text fingerprint_id hashes: "section\tfeature\n" per feature, in order.
[[nodiscard]] std::string canonical_shape_text(const SnapshotShape& shape);
[[nodiscard]] std::string fingerprint_id_of(const SnapshotShape& shape);

struct FingerprintOptions {
  unsigned threads = 1;
  std::size_t max_payload_bytes = std::size_t{1} << 30;
  std::function<void(std::uint64_t, std::uint64_t)> progress;
};

// Reads the selected snapshot by the master's rules (a snapshot the master cannot decode is an
// error: corruption naming file, shard, entry and byte offset) and walks every payload for its
// shape. The shards are read as the restore reads them (streamed, in parallel); `segments` and
// `task_manager` are decompressed as they are read and their content held whole (at most
// max_payload_bytes each).
[[nodiscard]] util::Result<SnapshotFingerprint> fingerprint_snapshot(source::ObjectStore& store,
                                                                     const SelectedSnapshot& selected,
                                                                     const FingerprintOptions& options);

// The shapes of the parts, for fingerprint_snapshot and its tests.
// One decompressed metadata shard: its map keys, entry forms, object layouts, replica shapes.
// `sequence`: the blob's position among the metadata file's shard entries (its file order).
void add_shard_shape(std::string_view decompressed, std::uint32_t shard_index, SnapshotShape& shape,
                     std::uint64_t sequence = 0);
// The decompressed `segments` payload; errors are the reader's (corruption naming the offset).
[[nodiscard]] util::Status add_segments_shape(std::string_view decompressed, SnapshotShape& shape);
// The decompressed `task_manager` payload.
[[nodiscard]] util::Status add_tasks_shape(std::string_view decompressed, SnapshotShape& shape);

}  // namespace moonquota::inspect
