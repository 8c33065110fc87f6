// `snapshot-forge --large N --oplog-tail M`: an OpLog tail of M entries that continues the large
// store of the same options, so that a standby promotion at scale succeeds as a real one would.
// The store's descriptor has last_included_seq 0: the tail runs from sequence 1. Its first batch
// mounts a new memory segment (a client that joined after the snapshot; more are mounted when one
// fills); then, deterministically for (seed, M):
//   45% PUT_END of a new object (a tenant of the store's mix, key "<tenant>/tail/obj-<i>");
//   25% PUT_END of a snapshot object with another size (a size-changing upsert);
//   20% REMOVE of a snapshot object;
//   10% PUT_END of a snapshot object with its size (a re-put: the bootstrap may have dropped it
//       for its lease, or its PROCESSING replicas, and the tail brings it back).
// Every PUT_END holds one COMPLETE MEMORY replica placed next to the previous one in the tail's
// segment, so no two memory ranges overlap and no segment holds more than its capacity.
#pragma once

#include <cstdint>

#include "forge/large_store.hpp"
#include "forge/oplog_forge.hpp"

namespace moonquota::forge {

struct LargeTailOptions {
  std::uint64_t entries = 0;
  std::uint64_t entries_per_batch = 1024;
};

// The tail of the store `store` describes (its seed, tenants, clients, objects, cluster id).
[[nodiscard]] ForgedOpLog continue_large_store(const LargeStoreOptions& store, const LargeTailOptions& tail);

}  // namespace moonquota::forge
