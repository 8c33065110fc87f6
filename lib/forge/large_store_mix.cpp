#include "forge/large_store_mix.hpp"

#include <algorithm>
#include <cstdio>

#include "util/hashing.hpp"

namespace moonquota::forge::large {

namespace {

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// A private random stream for object i.
std::uint64_t object_state(std::uint64_t seed, std::uint64_t index) {
  std::uint64_t s = seed * 0x2545f4914f6cdd1dULL + index;
  return splitmix64(s);
}

}  // namespace

int memory_replica_count(ReplicaPlan plan) {
  switch (plan) {
    case ReplicaPlan::memory_twice: return 2;
    case ReplicaPlan::disk_only:
    case ReplicaPlan::local_disk_only: return 0;
    default: return 1;
  }
}

int replica_count(ReplicaPlan plan) {
  switch (plan) {
    case ReplicaPlan::memory:
    case ReplicaPlan::disk_only:
    case ReplicaPlan::local_disk_only: return 1;
    default: return 2;
  }
}

ObjectMix::ObjectMix(std::uint64_t seed, std::uint32_t tenants, std::uint32_t clients, std::uint64_t created_at_ms)
    : m_seed(seed), m_created_at_ms(created_at_ms) {
  std::uint64_t total = 0;
  for (std::uint32_t t = 0; t < tenants; ++t) {
    char name[32];
    std::snprintf(name, sizeof name, tenants > 100 ? "tenant-%03u" : "tenant-%02u", t);
    m_tenant_names.emplace_back(name);
    m_tenant_hash.push_back(util::libstdcxx_string_hash(m_tenant_names.back()));
    total += 1000000 / (t + 1);  // tenant t gets a share proportional to 1/(t+1)
    m_tenant_cumulative.push_back(total);
  }
  std::uint64_t state = seed ^ 0xc1e47c1e47ULL;
  for (std::uint32_t c = 0; c < clients; ++c) {
    const std::uint64_t first = splitmix64(state);
    const std::uint64_t second = splitmix64(state);
    m_client_uuids.push_back(std::to_string(first) + "-" + std::to_string(second));
  }
}

void ObjectMix::identity(std::uint64_t index, std::uint32_t& tenant, std::string& key) const {
  std::uint64_t state = object_state(m_seed, index);
  const std::uint64_t pick = splitmix64(state) % m_tenant_cumulative.back();
  tenant = static_cast<std::uint32_t>(std::upper_bound(m_tenant_cumulative.begin(), m_tenant_cumulative.end(), pick) -
                                      m_tenant_cumulative.begin());
  const std::uint64_t shape = splitmix64(state);
  char buffer[128];
  const int n = std::snprintf(buffer, sizeof buffer, "%s/model-%u/layer-%02u/kv-head-%02u/block-%010llu",
                              m_tenant_names[tenant].c_str(), static_cast<unsigned>(shape % 4),
                              static_cast<unsigned>((shape >> 8) % 80), static_cast<unsigned>((shape >> 16) % 32),
                              static_cast<unsigned long long>(index));
  key.assign(buffer, static_cast<std::size_t>(n));
}

std::uint32_t ObjectMix::shard_of(std::uint64_t index, std::string& scratch) const {
  std::uint32_t tenant = 0;
  identity(index, tenant, scratch);
  const std::uint64_t seed = util::boost174_hash_combine(m_tenant_hash[tenant], scratch);
  return static_cast<std::uint32_t>(seed % util::k_metadata_shards);
}

PlannedObject ObjectMix::plan(std::uint64_t index) const {
  PlannedObject o;
  o.index = index;
  identity(index, o.tenant, o.key);
  std::uint64_t state = object_state(m_seed, index) ^ 0x5eed5eed5eedULL;
  const std::uint64_t r1 = splitmix64(state);
  const std::uint64_t r2 = splitmix64(state);
  // Size classes 8 KiB .. 128 KiB by tenant, with a non-round jitter of up to one class.
  const std::uint64_t base = std::uint64_t{8192} << (o.tenant % 5);
  o.size = base + (r1 % base);
  const std::uint64_t mix = r2 % 1000;
  if (mix < 780)
    o.plan = ReplicaPlan::memory;
  else if (mix < 880)
    o.plan = ReplicaPlan::memory_twice;
  else if (mix < 930)
    o.plan = ReplicaPlan::memory_and_disk;
  else if (mix < 970)
    o.plan = ReplicaPlan::memory_and_local_disk;
  else if (mix < 985)
    o.plan = ReplicaPlan::disk_only;
  else
    o.plan = ReplicaPlan::local_disk_only;
  const std::uint32_t clients = this->clients();
  o.writer_client = static_cast<std::uint32_t>((r1 >> 32) % clients);
  o.other_client = clients > 1
                       ? (o.writer_client + 1 + static_cast<std::uint32_t>((r2 >> 32) % (clients - 1))) % clients
                       : o.writer_client;
  const std::uint64_t fate = (r2 >> 16) % 1000;
  o.processing = fate < 2;
  o.put_start_time_ms = m_created_at_ms - 1 - ((r1 >> 8) % 86400000ULL);
  if (o.processing) {
    o.lease_timeout_ms = 0;
  } else if (fate < 5) {
    o.lease_timeout_ms = m_created_at_ms - 1000;  // already expired: dropped on restore
  } else {
    o.lease_timeout_ms = m_created_at_ms + 3600000ULL + ((r2 >> 24) % 3600000ULL);
  }
  o.data_type = static_cast<std::uint8_t>(1 + (r1 >> 60) % 2);  // KVCACHE or TENSOR
  return o;
}

}  // namespace moonquota::forge::large
