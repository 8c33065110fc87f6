// The hot standby's replay target (oplog-format.md §13.1): a flat (tenant, key) -> object map and a
// segment registry keyed by transport endpoint. Replica descriptors are kept in the OpLog payload
// form (variant index, status verbatim); snapshot objects are converted to it on bootstrap.
//
// The object map is an open-addressing table (linear probing, backward-shift deletion) of 8-byte
// slots over a dense vector of entries; tenant ids are interned (a log has a handful of them), so
// an entry holds a tenant number and the key, and a lookup touches one slot run and one entry.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "format/oplog_payloads.hpp"
#include "restore/replay_target.hpp"

namespace moonquota::restore {

struct StandbyObject {
  std::uint64_t client_first = 0;
  std::uint64_t client_second = 0;
  std::uint64_t size = 0;
  std::vector<format::PayloadReplica> replicas;
  std::string group_id;
  std::uint8_t data_type = 0;
  bool hard_pinned = false;
  bool placeholder = false;  // stored from an empty or undecodable PUT_END payload
  // The snapshot's lease_timeout of an object the bootstrap loaded; UINT64_MAX for an object the
  // OpLog stored (the bootstrap's lease filter never applies to it). Lets survival (promote path)
  // ask which objects a bootstrap at a later instant would have dropped.
  std::uint64_t bootstrap_lease_timeout_ms = UINT64_MAX;
};

struct StandbyEntry {
  std::uint32_t tenant = 0;  // StandbyStore::tenant_name(tenant)
  std::string key;
  StandbyObject object;
};

class StandbyStore : public ReplayTarget {
 public:
  // tenant + '\0' + key: tenants never contain NUL (§7.2), so the split is unambiguous.
  [[nodiscard]] static std::string object_key(std::string_view tenant, std::string_view key);

  void put(std::string_view tenant, std::string_view key, StandbyObject object);
  // The object at (tenant, key), added default-constructed when absent, for the caller to overwrite
  // in place (its replicas' capacity is reused). Valid until the next change of the map.
  [[nodiscard]] StandbyObject& upsert(std::string_view tenant, std::string_view key);
  // false when (tenant, key) exists already (a bootstrap duplicate is a hard error).
  [[nodiscard]] bool insert_new(std::string_view tenant, std::string_view key, StandbyObject object);
  void erase(std::string_view tenant, std::string_view key) override;
  void clear();

  // ReplayTarget: the payload's form of the object (store_payload), the empty record.
  void store_payload(std::string_view tenant, std::string_view key, const format::MetadataPayload& payload) override;
  void store_payload(std::string_view tenant, std::string_view key, format::MetadataPayload&& payload) override;
  void store_placeholder(std::string_view tenant, std::string_view key) override;

  [[nodiscard]] const StandbyObject* find(std::string_view tenant, std::string_view key) const;

  // Cache hints for a put or erase a few entries ahead; they change nothing. The replay looks
  // ahead in a decoded batch: `prefetch_slot` starts loading the slot that (tenant, key) hashes to
  // and returns the probe; some entries later `prefetch_entry` walks that (by then cached) slot run
  // and starts loading the entry whose hash matches, so that the put or erase finds both in cache.
  // Probe::tenant UINT32_MAX: a tenant never seen (nothing to load).
  [[nodiscard]] Probe prefetch_slot(std::string_view tenant, std::string_view key) const override;
  void prefetch_entry(Probe probe) const override;
  [[nodiscard]] std::size_t size() const { return m_entries.size(); }
  [[nodiscard]] bool empty() const { return m_entries.empty(); }
  // Every object, in no particular order (an erase moves the last entry into the hole).
  [[nodiscard]] const std::vector<StandbyEntry>& entries() const { return m_entries; }
  [[nodiscard]] std::string_view tenant_name(std::uint32_t tenant) const { return m_tenants[tenant]; }

  std::map<std::string, StandbySegment>& registry() override { return m_registry; }
  [[nodiscard]] const std::map<std::string, StandbySegment>& registry() const { return m_registry; }

 private:
  struct TenantHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  static constexpr std::uint32_t k_no_tenant = UINT32_MAX;
  static constexpr std::size_t k_not_found = SIZE_MAX;

  [[nodiscard]] std::uint32_t tenant_id(std::string_view tenant) const;  // k_no_tenant: never seen
  std::uint32_t intern(std::string_view tenant);
  [[nodiscard]] static std::uint32_t hash(std::uint32_t tenant, std::string_view key);
  // The slot holding (tenant, key), or k_not_found; `free_slot` receives the slot an insert takes.
  [[nodiscard]] std::size_t find_slot(std::uint32_t tenant, std::string_view key, std::uint32_t h,
                                      std::size_t* free_slot) const;
  void add(std::uint32_t tenant, std::string_view key, std::uint32_t h, std::size_t slot, StandbyObject object);
  void grow();
  void remove_slot(std::size_t slot);

  // A slot: hash in the low 32 bits, entry index + 1 in the high 32 bits (0: empty).
  std::vector<std::uint64_t> m_slots;
  std::vector<StandbyEntry> m_entries;
  std::vector<std::uint32_t> m_hashes;  // per entry
  std::vector<std::string> m_tenants;
  std::unordered_map<std::string, std::uint32_t, TenantHash, std::equal_to<>> m_tenant_ids;
  std::map<std::string, StandbySegment> m_registry;  // by transport endpoint
};

}  // namespace moonquota::restore
