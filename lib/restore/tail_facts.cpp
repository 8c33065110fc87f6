#include "restore/tail_facts.hpp"

#include "restore/fingerprint_runs.hpp"

namespace moonquota::restore {

namespace {

constexpr std::size_t k_initial_tail_slots = 1024;

std::uint32_t tail_slot_hash(std::uint64_t slot) { return static_cast<std::uint32_t>(slot); }
std::size_t tail_slot_record(std::uint64_t slot) { return static_cast<std::size_t>(slot >> 32) - 1; }

}  // namespace

const TailFacts::Record* TailFacts::find(std::string_view tenant, std::string_view key,
                                         std::uint64_t fingerprint) const {
  if (m_slots.empty()) return nullptr;
  const std::size_t mask = m_slots.size() - 1;
  const auto h = static_cast<std::uint32_t>(fingerprint);
  for (std::size_t i = h & mask;; i = (i + 1) & mask) {
    const std::uint64_t slot = m_slots[i];
    if (slot == 0) return nullptr;
    if (tail_slot_hash(slot) != h) continue;
    const Record& r = m_records[tail_slot_record(slot)];
    if (tenant_of(r) == tenant && key_of(r) == key) return &r;
  }
}

void TailFacts::grow() {
  std::vector<std::uint64_t> slots(m_slots.empty() ? k_initial_tail_slots : m_slots.size() * 2, 0);
  const std::size_t mask = slots.size() - 1;
  for (const std::uint64_t slot : m_slots) {
    if (slot == 0) continue;
    std::size_t i = tail_slot_hash(slot) & mask;
    while (slots[i] != 0) i = (i + 1) & mask;
    slots[i] = slot;
  }
  m_slots.swap(slots);
}

TailFacts::Record& TailFacts::record(std::string_view tenant, std::string_view key) {
  const std::uint64_t fingerprint = pair_fingerprint(tenant, key);
  if (const Record* found = find(tenant, key, fingerprint))
    return m_records[static_cast<std::size_t>(found - m_records.data())];
  if ((m_records.size() + 1) * 2 > m_slots.size()) grow();
  Record r;
  r.name_offset = m_names.size();
  r.tenant_length = static_cast<std::uint32_t>(tenant.size());
  r.key_length = static_cast<std::uint32_t>(key.size());
  m_names.append(tenant);
  m_names.append(key);
  m_records.push_back(r);
  const std::size_t mask = m_slots.size() - 1;
  const auto h = static_cast<std::uint32_t>(fingerprint);
  std::size_t i = h & mask;
  while (m_slots[i] != 0) i = (i + 1) & mask;
  m_slots[i] = (static_cast<std::uint64_t>(m_records.size()) << 32) | h;
  return m_records.back();
}

std::uint32_t TailFacts::intern_endpoint(std::string_view endpoint) {
  const auto it = m_endpoint_ids.find(std::string(endpoint));
  if (it != m_endpoint_ids.end()) return it->second;
  const auto id = static_cast<std::uint32_t>(m_endpoints.size());
  m_endpoints.emplace_back(endpoint);
  m_endpoint_ids.emplace(std::string(endpoint), id);
  return id;
}

void TailFacts::store_payload(std::string_view tenant, std::string_view key, const format::MetadataPayload& payload) {
  Record& r = record(tenant, key);
  r.erased = false;
  r.placeholder = false;
  r.size = payload.size;
  r.replica_offset = static_cast<std::uint32_t>(m_replicas.size());
  r.replica_count = static_cast<std::uint32_t>(payload.replicas.size());
  for (const format::PayloadReplica& p : payload.replicas) {
    Replica c;
    c.id = p.id;
    c.buffer_size = p.buffer_size;
    c.buffer_address = p.buffer_address;
    c.object_size = p.object_size;
    c.status = p.status;
    c.variant = p.variant;
    if (p.variant == format::payload_variant::memory) c.endpoint = intern_endpoint(p.transport_endpoint);
    m_replicas.push_back(c);
  }
}

void TailFacts::store_placeholder(std::string_view tenant, std::string_view key) {
  Record& r = record(tenant, key);
  r.erased = false;
  r.placeholder = true;
  r.size = 0;
  r.replica_count = 0;
}

void TailFacts::erase(std::string_view tenant, std::string_view key) {
  Record& r = record(tenant, key);
  r.erased = true;
  r.placeholder = false;
  r.size = 0;
  r.replica_count = 0;
}

bool TailFacts::touched(std::string_view tenant, std::string_view key, std::uint64_t fingerprint) const {
  return find(tenant, key, fingerprint) != nullptr;
}

bool TailFacts::holds(std::string_view tenant, std::string_view key) const {
  const Record* r = find(tenant, key, pair_fingerprint(tenant, key));
  return r != nullptr && !r->erased;
}

void TailFacts::for_each_held(
    const std::function<void(const HeldObject&, const std::vector<ReplicaFacts>&)>& visit) const {
  std::vector<ReplicaFacts> facts;
  for (const Record& r : m_records) {
    if (r.erased) continue;
    facts.clear();
    for (std::uint32_t i = 0; i < r.replica_count; ++i) {
      const Replica& c = m_replicas[r.replica_offset + i];
      ReplicaFacts f;
      f.id = c.id;
      f.variant = c.variant;
      f.status = c.status;
      f.buffer_size = c.buffer_size;
      f.buffer_address = c.buffer_address;
      f.object_size = c.object_size;
      if (c.variant == format::payload_variant::memory) f.endpoint = m_endpoints[c.endpoint];
      facts.push_back(f);
    }
    visit(HeldObject{tenant_of(r), key_of(r), r.size, r.placeholder}, facts);
  }
}

}  // namespace moonquota::restore
