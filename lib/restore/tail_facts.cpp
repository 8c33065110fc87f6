#include "restore/tail_facts.hpp"

#include <algorithm>
#include <bit>

#include "restore/fingerprint_runs.hpp"

namespace moonquota::restore {

namespace {

constexpr std::size_t k_initial_tail_slots = 1024;

std::uint32_t tail_slot_hash(std::uint64_t slot) { return static_cast<std::uint32_t>(slot); }
std::size_t tail_slot_record(std::uint64_t slot) { return static_cast<std::size_t>(slot >> 32) - 1; }

// Puts `slot` in the first free place of its probe run.
void place(std::vector<std::uint64_t>& slots, std::uint64_t slot) {
  const std::size_t mask = slots.size() - 1;
  std::size_t i = tail_slot_hash(slot) & mask;
  while (slots[i] != 0) i = (i + 1) & mask;
  slots[i] = slot;
}

}  // namespace

std::size_t TailFacts::find(std::string_view tenant, std::string_view key, std::uint64_t fingerprint) const {
  if (m_slots.empty()) return k_no_record;
  const std::size_t mask = m_slots.size() - 1;
  const auto h = static_cast<std::uint32_t>(fingerprint);
  for (std::size_t i = h & mask;; i = (i + 1) & mask) {
    const std::uint64_t slot = m_slots[i];
    if (slot == 0) return k_no_record;
    if (tail_slot_hash(slot) != h) continue;
    const std::size_t index = tail_slot_record(slot);
    const Record& r = m_records[index];
    if (tenant_of(r) == tenant && key_of(r) == key) return index;
  }
}

void TailFacts::grow() {
  std::vector<std::uint64_t> slots(m_slots.empty() ? k_initial_tail_slots : m_slots.size() * 2, 0);
  for (const std::uint64_t slot : m_slots) {
    if (slot != 0) place(slots, slot);
  }
  m_slots.swap(slots);
  const auto filter_log2 = std::min<unsigned>(32, static_cast<unsigned>(std::bit_width(m_slots.size() * 8) - 1));
  m_filter_shift = 32 - filter_log2;
  m_filter.assign(std::max<std::size_t>(1, (std::size_t{1} << filter_log2) / 64), 0);
  for (const std::uint64_t slot : m_slots) {
    if (slot == 0) continue;
    const std::size_t bit = filter_bit(tail_slot_hash(slot));
    m_filter[bit / 64] |= std::uint64_t{1} << (bit % 64);
  }
}

TailFacts::Record& TailFacts::record(std::string_view tenant, std::string_view key) {
  const std::uint64_t fingerprint = pair_fingerprint(tenant, key);
  if (const std::size_t found = find(tenant, key, fingerprint); found != k_no_record) return m_records[found];
  if ((m_records.size() + 1) * 2 > m_slots.size()) grow();
  Record r;
  char* name = m_names.allocate(tenant.size() + key.size());
  std::copy(tenant.begin(), tenant.end(), name);
  std::copy(key.begin(), key.end(), name + tenant.size());
  r.name = name;
  r.tenant_length = static_cast<std::uint32_t>(tenant.size());
  r.key_length = static_cast<std::uint32_t>(key.size());
  Record& added = m_records.push_back(r);
  const std::size_t bit = filter_bit(fingerprint);
  m_filter[bit / 64] |= std::uint64_t{1} << (bit % 64);
  place(m_slots, (static_cast<std::uint64_t>(m_records.size()) << 32) | static_cast<std::uint32_t>(fingerprint));
  return added;
}

std::string_view TailFacts::intern_endpoint(std::string_view endpoint) {
  const auto it = m_endpoint_ids.find(endpoint);
  if (it != m_endpoint_ids.end()) return it->second;
  const std::string& kept = m_endpoints.emplace_back(endpoint);
  m_endpoint_ids.emplace(kept, kept);
  return kept;
}

void TailFacts::store_payload(std::string_view tenant, std::string_view key, const format::MetadataPayload& payload) {
  Record& r = record(tenant, key);
  r.erased = false;
  r.placeholder = false;
  r.size = payload.size;
  const auto count = static_cast<std::uint32_t>(payload.replicas.size());
  if (count > r.replica_room) {
    r.replicas = m_replicas.allocate(count);
    r.replica_room = count;
  }
  r.replica_count = count;
  for (std::uint32_t i = 0; i < count; ++i) {
    const format::PayloadReplica& p = payload.replicas[i];
    ReplicaFacts f = facts_of(p);
    // The payload's bytes go: a MEMORY endpoint is kept interned, the others are never read.
    f.endpoint =
        p.variant == format::payload_variant::memory ? intern_endpoint(p.transport_endpoint) : std::string_view();
    r.replicas[i] = f;
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

ReplayTarget::Probe TailFacts::prefetch_slot(std::string_view tenant, std::string_view key) const {
  if (m_slots.empty()) return {};
  const auto hash = static_cast<std::uint32_t>(pair_fingerprint(tenant, key));
  __builtin_prefetch(&m_slots[hash & (m_slots.size() - 1)]);
  return Probe{0, hash};
}

void TailFacts::prefetch_entry(Probe probe) const {
  if (probe.tenant != 0 || m_slots.empty()) return;
  const std::size_t mask = m_slots.size() - 1;
  for (std::size_t i = probe.hash & mask;; i = (i + 1) & mask) {
    const std::uint64_t slot = m_slots[i];
    if (slot == 0) return;
    if (tail_slot_hash(slot) == probe.hash) {
      __builtin_prefetch(&m_records[tail_slot_record(slot)]);
      return;
    }
  }
}

bool TailFacts::touched(std::string_view tenant, std::string_view key, std::uint64_t fingerprint) const {
  return filter_holds(fingerprint) && find(tenant, key, fingerprint) != k_no_record;
}

bool TailFacts::holds(std::string_view tenant, std::string_view key) const {
  const std::size_t found = find(tenant, key, pair_fingerprint(tenant, key));
  return found != k_no_record && !m_records[found].erased;
}

void TailFacts::for_each_held(
    const std::function<void(const HeldObject&, std::span<const ReplicaFacts>)>& visit) const {
  for (std::size_t i = 0; i < m_records.size(); ++i) {
    const Record& r = m_records[i];
    if (r.erased) continue;
    visit(HeldObject{tenant_of(r), key_of(r), r.size, r.placeholder != 0},
          std::span<const ReplicaFacts>(r.replicas, r.replica_count));
  }
}

}  // namespace moonquota::restore
