// What an OpLog replay writes into (oplog-format.md §13.2): objects by (tenant, key) and the
// segment registry by transport endpoint. restore::StandbyStore keeps whole objects (the standby's
// map); restore::TailFacts keeps only what the promotion validation reads of the keys a tail
// decides (the streaming promotion). The applier (restore/oplog_applier) writes through this.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "format/oplog_payloads.hpp"

namespace moonquota::restore {

struct StandbySegment {
  std::string segment_name;
  std::string transport_endpoint;
  std::uint64_t capacity = 0;
  bool is_memory_segment = true;
  std::string file_path;
};

class ReplayTarget {
 public:
  virtual ~ReplayTarget() = default;

  // PUT_END: (tenant, key) becomes the decoded payload, every field (statuses verbatim).
  virtual void store_payload(std::string_view tenant, std::string_view key, const format::MetadataPayload& payload) = 0;
  virtual void store_payload(std::string_view tenant, std::string_view key, format::MetadataPayload&& payload) = 0;
  // PUT_END with an empty or undecodable payload: the empty record (size 0, no replicas).
  virtual void store_placeholder(std::string_view tenant, std::string_view key) = 0;
  // PUT_REVOKE, REMOVE (a missing key is fine).
  virtual void erase(std::string_view tenant, std::string_view key) = 0;
  virtual std::map<std::string, StandbySegment>& registry() = 0;

  // Cache hints for a write a few entries ahead (see StandbyStore); they change nothing.
  struct Probe {
    std::uint32_t tenant = UINT32_MAX;  // UINT32_MAX: nothing to load
    std::uint32_t hash = 0;
  };
  [[nodiscard]] virtual Probe prefetch_slot(std::string_view /*tenant*/, std::string_view /*key*/) const { return {}; }
  virtual void prefetch_entry(Probe /*probe*/) const {}
};

}  // namespace moonquota::restore
