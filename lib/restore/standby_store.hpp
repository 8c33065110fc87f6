// The hot standby's replay target (oplog-format.md §13.1): a flat (tenant, key) -> object map and a
// segment registry keyed by transport endpoint. Replica descriptors are kept in the OpLog payload
// form (variant index, status verbatim); snapshot objects are converted to it on bootstrap.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "format/oplog_payloads.hpp"

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

struct StandbySegment {
  std::string segment_name;
  std::string transport_endpoint;
  std::uint64_t capacity = 0;
  bool is_memory_segment = true;
  std::string file_path;
};

class StandbyStore {
 public:
  // tenant + '\0' + key: tenants never contain NUL (§7.2), so the split is unambiguous.
  [[nodiscard]] static std::string object_key(std::string_view tenant, std::string_view key);
  [[nodiscard]] static std::pair<std::string_view, std::string_view> split_key(std::string_view composite);

  void put(std::string_view tenant, std::string_view key, StandbyObject object);
  // false when (tenant, key) exists already (a bootstrap duplicate is a hard error).
  [[nodiscard]] bool insert_new(std::string_view tenant, std::string_view key, StandbyObject object);
  void erase(std::string_view tenant, std::string_view key);
  void clear();

  [[nodiscard]] const std::unordered_map<std::string, StandbyObject>& objects() const { return m_objects; }
  std::map<std::string, StandbySegment>& registry() { return m_registry; }
  [[nodiscard]] const std::map<std::string, StandbySegment>& registry() const { return m_registry; }

 private:
  std::unordered_map<std::string, StandbyObject> m_objects;
  std::map<std::string, StandbySegment> m_registry;  // by transport endpoint
};

}  // namespace moonquota::restore
