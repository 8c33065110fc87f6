#include "restore/standby_store.hpp"

#include <utility>

namespace moonquota::restore {

namespace {

constexpr std::size_t k_initial_slots = 64;

std::uint32_t slot_hash(std::uint64_t slot) { return static_cast<std::uint32_t>(slot); }
std::size_t slot_entry(std::uint64_t slot) { return static_cast<std::size_t>(slot >> 32) - 1; }
std::uint64_t make_slot(std::uint32_t h, std::size_t entry) {
  return (static_cast<std::uint64_t>(entry + 1) << 32) | h;
}

// The standby form of a decoded PUT_END payload, written over `object` in place: every field
// (absent compatible fields take their defaults). An rvalue payload's replicas and group id are
// moved; an lvalue's are copied into the capacity `object` already has.
template <typename Payload>
void assign_payload(Payload&& payload, StandbyObject& object) {
  object.client_first = payload.client_first;
  object.client_second = payload.client_second;
  object.size = payload.size;
  object.replicas = std::forward<Payload>(payload).replicas;
  if (payload.group_id) {
    object.group_id = *std::forward<Payload>(payload).group_id;
  } else {
    object.group_id.clear();
  }
  object.data_type = payload.data_type.value_or(0);
  object.hard_pinned = payload.hard_pinned.value_or(false);
  object.placeholder = false;
  object.bootstrap_lease_timeout_ms = UINT64_MAX;
}

}  // namespace

void StandbyStore::store_payload(std::string_view tenant, std::string_view key,
                                 const format::MetadataPayload& payload) {
  assign_payload(payload, upsert(tenant, key));
}

void StandbyStore::store_payload(std::string_view tenant, std::string_view key, format::MetadataPayload&& payload) {
  assign_payload(std::move(payload), upsert(tenant, key));
}

void StandbyStore::store_placeholder(std::string_view tenant, std::string_view key) {
  StandbyObject placeholder;
  placeholder.placeholder = true;
  put(tenant, key, std::move(placeholder));
}

std::string StandbyStore::object_key(std::string_view tenant, std::string_view key) {
  std::string composite;
  composite.reserve(tenant.size() + 1 + key.size());
  composite.append(tenant);
  composite.push_back('\0');
  composite.append(key);
  return composite;
}

std::uint32_t StandbyStore::tenant_id(std::string_view tenant) const {
  const auto it = m_tenant_ids.find(tenant);
  return it == m_tenant_ids.end() ? k_no_tenant : it->second;
}

std::uint32_t StandbyStore::intern(std::string_view tenant) {
  if (const std::uint32_t id = tenant_id(tenant); id != k_no_tenant) return id;
  const auto id = static_cast<std::uint32_t>(m_tenants.size());
  m_tenants.emplace_back(tenant);
  m_tenant_ids.emplace(std::string(tenant), id);
  return id;
}

std::uint32_t StandbyStore::hash(std::uint32_t tenant, std::string_view key) {
  std::uint64_t h = std::hash<std::string_view>{}(key) ^ (std::uint64_t{tenant} * 0x9e3779b97f4a7c15ULL);
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  return static_cast<std::uint32_t>(h);
}

std::size_t StandbyStore::find_slot(std::uint32_t tenant, std::string_view key, std::uint32_t h,
                                    std::size_t* free_slot) const {
  if (m_slots.empty()) {
    if (free_slot != nullptr) *free_slot = k_not_found;
    return k_not_found;
  }
  const std::size_t mask = m_slots.size() - 1;
  for (std::size_t i = h & mask;; i = (i + 1) & mask) {
    const std::uint64_t slot = m_slots[i];
    if (slot == 0) {
      if (free_slot != nullptr) *free_slot = i;
      return k_not_found;
    }
    if (slot_hash(slot) == h) {
      const StandbyEntry& e = m_entries[slot_entry(slot)];
      if (e.tenant == tenant && e.key == key) return i;
    }
  }
}

void StandbyStore::grow() {
  const std::size_t capacity = m_slots.empty() ? k_initial_slots : m_slots.size() * 2;
  std::vector<std::uint64_t> slots(capacity, 0);
  const std::size_t mask = capacity - 1;
  for (const std::uint64_t slot : m_slots) {
    if (slot == 0) continue;
    std::size_t i = slot_hash(slot) & mask;
    while (slots[i] != 0) i = (i + 1) & mask;
    slots[i] = slot;
  }
  m_slots.swap(slots);
}

void StandbyStore::add(std::uint32_t tenant, std::string_view key, std::uint32_t h, std::size_t slot,
                       StandbyObject object) {
  // At most half the slots are taken, so probe runs stay short.
  if (slot == k_not_found || (m_entries.size() + 1) * 2 > m_slots.size()) {
    grow();
    (void)find_slot(tenant, key, h, &slot);
  }
  m_slots[slot] = make_slot(h, m_entries.size());
  m_entries.push_back(StandbyEntry{tenant, std::string(key), std::move(object)});
  m_hashes.push_back(h);
}

void StandbyStore::put(std::string_view tenant, std::string_view key, StandbyObject object) {
  upsert(tenant, key) = std::move(object);
}

StandbyObject& StandbyStore::upsert(std::string_view tenant, std::string_view key) {
  const std::uint32_t t = intern(tenant);
  const std::uint32_t h = hash(t, key);
  std::size_t free_slot = k_not_found;
  const std::size_t slot = find_slot(t, key, h, &free_slot);
  if (slot != k_not_found) return m_entries[slot_entry(m_slots[slot])].object;
  add(t, key, h, free_slot, StandbyObject{});
  return m_entries.back().object;
}

bool StandbyStore::insert_new(std::string_view tenant, std::string_view key, StandbyObject object) {
  const std::uint32_t t = intern(tenant);
  const std::uint32_t h = hash(t, key);
  std::size_t free_slot = k_not_found;
  if (find_slot(t, key, h, &free_slot) != k_not_found) return false;
  add(t, key, h, free_slot, std::move(object));
  return true;
}

const StandbyObject* StandbyStore::find(std::string_view tenant, std::string_view key) const {
  const std::uint32_t t = tenant_id(tenant);
  if (t == k_no_tenant) return nullptr;
  const std::size_t slot = find_slot(t, key, hash(t, key), nullptr);
  return slot == k_not_found ? nullptr : &m_entries[slot_entry(m_slots[slot])].object;
}

StandbyStore::Probe StandbyStore::prefetch_slot(std::string_view tenant, std::string_view key) const {
  Probe probe;
  probe.tenant = tenant_id(tenant);
  if (probe.tenant == k_no_tenant || m_slots.empty()) return Probe{};
  probe.hash = hash(probe.tenant, key);
  __builtin_prefetch(&m_slots[probe.hash & (m_slots.size() - 1)]);
  return probe;
}

void StandbyStore::prefetch_entry(Probe probe) const {
  if (probe.tenant == k_no_tenant || m_slots.empty()) return;
  const std::size_t mask = m_slots.size() - 1;
  for (std::size_t i = probe.hash & mask;; i = (i + 1) & mask) {
    const std::uint64_t slot = m_slots[i];
    if (slot == 0) return;
    if (slot_hash(slot) == probe.hash) {
      const auto* bytes = reinterpret_cast<const char*>(&m_entries[slot_entry(slot)]);
      for (std::size_t line = 0; line < sizeof(StandbyEntry); line += 64) __builtin_prefetch(bytes + line);
      return;
    }
  }
}

// Backward-shift deletion: every slot of the run after the hole that may live in it moves up, so
// no probe run is ever cut short and no tombstone is needed.
void StandbyStore::remove_slot(std::size_t slot) {
  const std::size_t mask = m_slots.size() - 1;
  std::size_t hole = slot;
  for (std::size_t i = (slot + 1) & mask; m_slots[i] != 0; i = (i + 1) & mask) {
    const std::size_t home = slot_hash(m_slots[i]) & mask;
    if (((i - home) & mask) >= ((i - hole) & mask)) {
      m_slots[hole] = m_slots[i];
      hole = i;
    }
  }
  m_slots[hole] = 0;
}

void StandbyStore::erase(std::string_view tenant, std::string_view key) {
  const std::uint32_t t = tenant_id(tenant);
  if (t == k_no_tenant) return;
  const std::size_t slot = find_slot(t, key, hash(t, key), nullptr);
  if (slot == k_not_found) return;
  const std::size_t index = slot_entry(m_slots[slot]);
  remove_slot(slot);
  const std::size_t last = m_entries.size() - 1;
  if (index != last) {
    // The last entry moves into the hole; its slot is repointed.
    const std::uint32_t h = m_hashes[last];
    const std::size_t mask = m_slots.size() - 1;
    std::size_t i = h & mask;
    while (m_slots[i] != make_slot(h, last)) i = (i + 1) & mask;
    m_slots[i] = make_slot(h, index);
    m_entries[index] = std::move(m_entries[last]);
    m_hashes[index] = h;
  }
  m_entries.pop_back();
  m_hashes.pop_back();
}

void StandbyStore::clear() {
  m_slots.clear();
  m_entries.clear();
  m_hashes.clear();
  m_tenants.clear();
  m_tenant_ids.clear();
  m_registry.clear();
}

}  // namespace moonquota::restore
