// The deterministic object mix of `--large` stores (see large_store.hpp). Every property of
// object i is a pure function of (seed, i, tenants, clients): objects can be generated in any
// order, on any thread, and twice (once to bucket them by shard, once to encode them).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace moonquota::forge::large {

enum class ReplicaPlan : std::uint8_t {
  memory,
  memory_twice,
  memory_and_disk,
  memory_and_local_disk,
  disk_only,
  local_disk_only
};

struct PlannedObject {
  std::uint64_t index = 0;
  std::uint32_t tenant = 0;
  std::string key;
  std::uint64_t size = 0;
  ReplicaPlan plan = ReplicaPlan::memory;
  bool processing = false;          // in-flight put: replicas PROCESSING, lease 0
  std::uint32_t writer_client = 0;  // client_id, and first MEMORY chain
  std::uint32_t other_client = 0;   // second MEMORY chain / LOCAL_DISK owner (!= writer when clients > 1)
  std::uint64_t put_start_time_ms = 0;
  std::uint64_t lease_timeout_ms = 0;
  std::uint8_t data_type = 0;
  // Filled when MEMORY replicas are placed (up to two).
  std::uint64_t first_replica_id = 0;
  struct Placement {
    std::uint32_t segment = 0;  // ordinal in SegmentChains
    std::uint32_t offset = 0;
    std::uint32_t node_index = 0;
    std::uint64_t address = 0;
  };
  Placement memory[2];
};

[[nodiscard]] int memory_replica_count(ReplicaPlan plan);
[[nodiscard]] int replica_count(ReplicaPlan plan);

class ObjectMix {
 public:
  ObjectMix(std::uint64_t seed, std::uint32_t tenants, std::uint32_t clients, std::uint64_t created_at_ms);

  [[nodiscard]] const std::string& tenant_name(std::uint32_t tenant) const { return m_tenant_names[tenant]; }
  [[nodiscard]] const std::string& client_uuid(std::uint32_t client) const { return m_client_uuids[client]; }
  [[nodiscard]] std::uint32_t clients() const { return static_cast<std::uint32_t>(m_client_uuids.size()); }

  // The tenant and key of object i; `key` is overwritten (reuse it to avoid allocations).
  void identity(std::uint64_t index, std::uint32_t& tenant, std::string& key) const;
  // The metadata shard of object i.
  [[nodiscard]] std::uint32_t shard_of(std::uint64_t index, std::string& scratch) const;
  // Every property of object i except placements and replica ids.
  [[nodiscard]] PlannedObject plan(std::uint64_t index) const;

 private:
  std::uint64_t m_seed;
  std::uint64_t m_created_at_ms;
  std::vector<std::string> m_tenant_names;
  std::vector<std::uint64_t> m_tenant_hash;        // std::hash(tenant name), for shard indices
  std::vector<std::uint64_t> m_tenant_cumulative;  // skewed weights, cumulative
  std::vector<std::string> m_client_uuids;
};

}  // namespace moonquota::forge::large
