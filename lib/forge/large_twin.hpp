// `snapshot-forge --large N --added-objects K`: the store of `--large N` plus K more objects of
// the same mix (indices N .. N+K-1), as a later snapshot of the same cluster would hold them.
// The N objects keep their entries byte for byte (replica ids and MEMORY placements are those of
// `--large N`) and the segment table keeps its segments: the K objects take their replica ids
// after the last of the N, and their MEMORY replicas are allocated after every placement of the
// N objects, on the segments the chains have open at that point (a chain opens one more segment
// only when its open one is full, which the forge's summary line shows as a segment count above
// `--large N`'s). Placing them last needs the N objects' placements first: a dry run places
// every object (no encoding) on the store's chains, which then write the `segments` payload; the
// encoding run places the N objects again, identically, on a second set of chains whose
// segments are discarded, and takes the K objects' placements from the dry run.
#pragma once

#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

#include "forge/large_segments.hpp"
#include "forge/large_store_mix.hpp"
#include "util/status.hpp"

namespace moonquota::forge::large {

// Gives replica ids from `next_replica_id` and MEMORY placements on `chains` to `o` (the order of
// the calls decides both).
[[nodiscard]] util::Status place_object(PlannedObject& o, SegmentChains& chains, std::uint64_t& next_replica_id);

// Fills `out` with the objects of shards [first, first + count), each shard's sorted as written.
using ShardPlanner =
    std::function<util::Status(std::uint32_t first, std::uint32_t count, std::vector<std::vector<PlannedObject>>& out)>;

struct AddedPlacements {
  std::unordered_map<std::uint64_t, PlannedObject> objects;  // the added objects by index, placed
  std::uint64_t next_replica_id = 1;                         // after every object
};

// The dry run: places the objects below `originals` in shard then entry order (as `--large
// originals` does), then the others in the same order, all on `chains`.
[[nodiscard]] util::Result<AddedPlacements> place_added_objects(std::uint64_t originals, std::uint32_t shards,
                                                                std::uint32_t batch, const ShardPlanner& plan,
                                                                SegmentChains& chains);

}  // namespace moonquota::forge::large
