// The replay target of the streaming promotion (restore/promote_stream): every key an OpLog tail
// decides, with only what the promotion validation reads of its final record (size, placeholder,
// each replica's kind, status, sizes, address and endpoint) or a tombstone when the tail erased
// it, and the registry. About 160 bytes a key (the key's bytes in one arena, a 40-byte record,
// 64 bytes a replica, an 8-byte slot), against ~550 for a whole standby object.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "restore/promotion_checks.hpp"
#include "restore/replay_target.hpp"
#include "util/block_storage.hpp"

namespace moonquota::restore {

class TailFacts : public ReplayTarget {
 public:
  void store_payload(std::string_view tenant, std::string_view key, const format::MetadataPayload& payload) override;
  void store_payload(std::string_view tenant, std::string_view key, format::MetadataPayload&& payload) override {
    store_payload(tenant, key, static_cast<const format::MetadataPayload&>(payload));
  }
  void store_placeholder(std::string_view tenant, std::string_view key) override;
  void erase(std::string_view tenant, std::string_view key) override;
  std::map<std::string, StandbySegment>& registry() override { return m_registry; }
  [[nodiscard]] const std::map<std::string, StandbySegment>& registry() const { return m_registry; }

  // Cache hints for the replay, a few entries ahead (ReplayTarget); they change nothing.
  [[nodiscard]] Probe prefetch_slot(std::string_view tenant, std::string_view key) const override;
  void prefetch_entry(Probe probe) const override;

  // Whether the tail decided (tenant, key): stored or erased. `fingerprint` is
  // pair_fingerprint(tenant, key), which the caller has computed already.
  [[nodiscard]] bool touched(std::string_view tenant, std::string_view key, std::uint64_t fingerprint) const;
  // Hints for a caller that asks touched() of many keys in a row, some keys ahead: the filter word
  // touched() reads first, then (when that word does not rule the key out) its slot.
  void prefetch_filter(std::uint64_t fingerprint) const { __builtin_prefetch(&m_filter[filter_bit(fingerprint) / 64]); }
  void prefetch_touched_slot(std::uint64_t fingerprint) const {
    if (!m_slots.empty() && filter_holds(fingerprint)) {
      __builtin_prefetch(&m_slots[static_cast<std::uint32_t>(fingerprint) & (m_slots.size() - 1)]);
    }
  }
  // Whether the tail leaves an object at (tenant, key).
  [[nodiscard]] bool holds(std::string_view tenant, std::string_view key) const;

  struct HeldObject {
    std::string_view tenant;
    std::string_view key;
    std::uint64_t size = 0;
    bool placeholder = false;
  };
  // Each object the tail leaves, in no particular order, with its replicas' facts.
  void for_each_held(const std::function<void(const HeldObject&, std::span<const ReplicaFacts>)>& visit) const;

 private:
  struct Record {                // 40 bytes
    const char* name = nullptr;  // tenant bytes then key bytes, in m_names
    std::uint64_t size = 0;
    ReplicaFacts* replicas = nullptr;  // in m_replicas
    std::uint32_t tenant_length = 0;
    std::uint32_t key_length : 30 = 0;  // an OpLog key is at most 4 KiB (the applier refuses longer)
    std::uint32_t placeholder : 1 = 0;
    std::uint32_t erased : 1 = 0;
    std::uint32_t replica_count = 0;
    std::uint32_t replica_room = 0;  // replicas the run at `replicas` holds (a rewrite reuses it)
  };
  static_assert(sizeof(Record) == 40);
  [[nodiscard]] static std::string_view tenant_of(const Record& r) { return {r.name, r.tenant_length}; }
  [[nodiscard]] static std::string_view key_of(const Record& r) { return {r.name + r.tenant_length, r.key_length}; }
  static constexpr std::size_t k_no_record = SIZE_MAX;
  // The index of the record of (tenant, key), or k_no_record.
  [[nodiscard]] std::size_t find(std::string_view tenant, std::string_view key, std::uint64_t fingerprint) const;
  // The record of (tenant, key), added when absent.
  Record& record(std::string_view tenant, std::string_view key);
  void grow();
  [[nodiscard]] bool filter_holds(std::uint64_t fingerprint) const {
    const std::size_t bit = filter_bit(fingerprint);
    return (m_filter[bit / 64] >> (bit % 64) & 1) != 0;
  }
  // The filter bit of a fingerprint: a multiplicative hash of its low 32 bits (the slots keep no
  // more), as many bits as the table has slots times 8.
  [[nodiscard]] std::size_t filter_bit(std::uint64_t fingerprint) const {
    return static_cast<std::size_t>(static_cast<std::uint32_t>(static_cast<std::uint32_t>(fingerprint) * 0x9E3779B1U) >>
                                    m_filter_shift);
  }
  // A view of `endpoint` that lives as long as this (MEMORY replicas' endpoints repeat).
  std::string_view intern_endpoint(std::string_view endpoint);

  // Blocks, never reallocated: a million-key tail grows without copying what it holds.
  util::BumpArena<char, std::size_t{1} << 20> m_names;
  util::BlockVector<Record> m_records;
  // A record rewritten with more replicas than its run holds leaves the run behind (bounded by
  // the tail).
  util::BumpArena<ReplicaFacts, std::size_t{1} << 14> m_replicas;
  std::vector<std::uint64_t> m_slots;  // fingerprint's low 32 bits | (record index + 1) << 32; 0: empty
  // One bit per filter_bit, 8 bits a slot (a byte a slot: 8 KiB for a short tail, 2 MiB for a
  // million keys), rebuilt as the table grows: touched() answers most keys the tail never decided
  // from it, without a probe into the table.
  std::vector<std::uint64_t> m_filter = std::vector<std::uint64_t>(1, 0);
  unsigned m_filter_shift = 26;         // 32 - log2(filter bits)
  std::deque<std::string> m_endpoints;  // stable addresses: m_replicas' endpoints view into them
  std::unordered_map<std::string_view, std::string_view> m_endpoint_ids;  // into m_endpoints
  std::map<std::string, StandbySegment> m_registry;
};

}  // namespace moonquota::restore
