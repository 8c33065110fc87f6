#include "forge/large_twin.hpp"

#include <algorithm>

namespace moonquota::forge::large {

util::Status place_object(PlannedObject& o, SegmentChains& chains, std::uint64_t& next_replica_id) {
  o.first_replica_id = next_replica_id;
  next_replica_id += static_cast<std::uint64_t>(replica_count(o.plan));
  const int memory = memory_replica_count(o.plan);
  for (int m = 0; m < memory; ++m) {
    MQ_ASSIGN_OR_RETURN(o.memory[m], chains.place(m == 0 ? o.writer_client : o.other_client, o.size));
  }
  return util::Status::ok_status();
}

util::Result<AddedPlacements> place_added_objects(std::uint64_t originals, std::uint32_t shards, std::uint32_t batch,
                                                  const ShardPlanner& plan, SegmentChains& chains) {
  AddedPlacements out;
  std::vector<PlannedObject> added;  // in shard then entry order, placed after the walk
  std::vector<std::vector<PlannedObject>> work;
  for (std::uint32_t first = 0; first < shards; first += batch) {
    const std::uint32_t count = std::min(batch, shards - first);
    MQ_RETURN_IF_ERROR(plan(first, count, work));
    for (auto& objects : work) {
      for (PlannedObject& o : objects) {
        if (o.index >= originals) {
          added.push_back(std::move(o));
        } else {
          MQ_RETURN_IF_ERROR(place_object(o, chains, out.next_replica_id));
        }
      }
    }
  }
  for (PlannedObject& o : added) {
    MQ_RETURN_IF_ERROR(place_object(o, chains, out.next_replica_id));
    const std::uint64_t index = o.index;
    out.objects.emplace(index, std::move(o));
  }
  return out;
}

}  // namespace moonquota::forge::large
