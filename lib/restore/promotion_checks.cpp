#include "restore/promotion_checks.hpp"

#include <algorithm>

#include "model/enums.hpp"
#include "model/tenant_id.hpp"
#include "util/checked_math.hpp"

namespace moonquota::restore {

namespace {

// Promotion's summary names an out-of-range status "UNKNOWN" (the snapshot tools say OUT_OF_RANGE).
const char* status_name(std::int32_t s) { return model::replica_status::k_table.find_name(s).value_or("UNKNOWN"); }

}  // namespace

PromotionSegments::PromotionSegments(const std::map<std::string, StandbySegment>& registry) {
  std::unordered_map<std::string_view, const StandbySegment*> aliases;
  for (const auto& [endpoint, seg] : registry) {
    ++registry_segments;
    if (!seg.is_memory_segment) continue;
    ++registry_memory_segments;
    registry_memory_capacity_bytes = util::saturating_add(registry_memory_capacity_bytes, seg.capacity);
    if (seg.segment_name.empty() || seg.transport_endpoint.empty() || seg.capacity == 0) {
      m_error = "INVALID_PARAMS: memory segment '" + seg.segment_name + "' at '" + endpoint +
                "' needs a non-empty name, a non-empty endpoint and a capacity > 0";
      return;
    }
    for (const std::string* alias : {&seg.segment_name, &seg.transport_endpoint}) {
      auto [it, inserted] = aliases.emplace(*alias, &seg);
      if (!inserted && it->second != &seg) {
        m_error = "INVALID_PARAMS: segment alias '" + *alias + "' is claimed by two memory segments";
        return;
      }
    }
    m_memory.push_back(&seg);
  }
  // The registry is keyed by the endpoint each segment holds: m_memory is in endpoint order.
  for (std::size_t i = 0; i < m_memory.size(); ++i) {
    m_by_alias.emplace(m_memory[i]->transport_endpoint, i);
    m_by_alias.emplace(m_memory[i]->segment_name, i);
  }
}

std::size_t PromotionSegments::find(std::string_view alias) const {
  const auto it = m_by_alias.find(alias);
  return it == m_by_alias.end() ? k_none : it->second;
}

ReplicaFacts facts_of(const format::PayloadReplica& replica) {
  return ReplicaFacts{
      replica.id,          replica.variant,           replica.status, replica.buffer_size, replica.buffer_address,
      replica.object_size, replica.transport_endpoint};
}

namespace {

template <typename Find>
ReplicaFault check_replica_with(const ReplicaFacts& r, std::uint64_t object_size, std::size_t& segment,
                                const Find& find) {
  switch (r.variant) {
    case format::payload_variant::memory:
      segment = find(r.endpoint);
      if (segment == PromotionSegments::k_none) return ReplicaFault::memory_endpoint;
      if (r.buffer_size != object_size || r.buffer_size == 0) return ReplicaFault::memory_size;
      if (r.buffer_address > UINT64_MAX - r.buffer_size) return ReplicaFault::memory_overflow;
      return ReplicaFault::none;
    case format::payload_variant::nof:
      return r.buffer_size != object_size || r.buffer_size == 0 ? ReplicaFault::nof_size : ReplicaFault::none;
    case format::payload_variant::disk:
    case format::payload_variant::local_disk:
      return r.object_size != object_size ? ReplicaFault::disk_size : ReplicaFault::none;
    default: return ReplicaFault::dfs;
  }
}

}  // namespace

ReplicaFault check_replica(const ReplicaFacts& r, std::uint64_t object_size, const PromotionSegments& segments,
                           std::size_t& segment) {
  return check_replica_with(r, object_size, segment, [&](std::string_view a) { return segments.find(a); });
}

ReplicaFault check_replica(const ReplicaFacts& r, std::uint64_t object_size, const PromotionSegments& segments,
                           std::size_t& segment, std::string& last_alias, std::size_t& last_segment) {
  return check_replica_with(r, object_size, segment,
                            [&](std::string_view a) { return segments.find_cached(a, last_alias, last_segment); });
}

bool counts_against_segment(std::int32_t status) {
  return status != model::replica_status::removed && status != model::replica_status::failed;
}

std::string replica_fault_message(ReplicaFault fault, const ReplicaFacts& r, std::uint64_t object_size,
                                  const std::string& where) {
  const std::string replica = "INVALID_PARAMS: " + where + " replica " + std::to_string(r.id) + ": ";
  switch (fault) {
    case ReplicaFault::memory_endpoint:
      return replica + "MEMORY endpoint '" + std::string(r.endpoint) + "' is not a registry memory segment";
    case ReplicaFault::memory_size:
      return replica + "MEMORY size_ " + std::to_string(r.buffer_size) + " differs from the object size " +
             std::to_string(object_size) + " or is 0";
    case ReplicaFault::memory_overflow: return replica + "address range overflows";
    case ReplicaFault::nof_size: return "INVALID_PARAMS: " + where + ": NoF size_ differs from the object size or is 0";
    case ReplicaFault::disk_size:
      return "INVALID_PARAMS: " + where + ": " + format::payload_variant::name(r.variant) + " object_size " +
             std::to_string(r.object_size) + " differs from the object size " + std::to_string(object_size);
    case ReplicaFault::dfs: return "INVALID_PARAMS: " + where + ": DFS replica (invalid on this path)";
    case ReplicaFault::none: break;
  }
  return {};
}

ResolvedName resolve_name(std::string_view raw_tenant, std::string_view raw_key) {
  ResolvedName name{model::normalize_tenant_id(raw_tenant), raw_key, false};
  if (const auto nul = raw_key.find('\0'); nul != std::string_view::npos) {
    const std::string prefix = model::normalize_tenant_id(raw_key.substr(0, nul));
    if (name.tenant == model::k_default_tenant && prefix != model::k_default_tenant) name.tenant = prefix;
    name.key = raw_key.substr(nul + 1);
    name.scoped = true;
  }
  return name;
}

std::string printable_object_name(std::string_view raw_tenant, std::string_view raw_key) {
  std::string out = std::string(raw_tenant) + "/";
  for (char c : raw_key) {
    if (c == '\0') {
      out += "\\0";
    } else {
      out += c;
    }
  }
  return out;
}

PromotionTotals::Slot& PromotionTotals::slot(std::string_view tenant) {
  if (m_last.tally == nullptr || tenant != m_last_tenant) {
    m_last_tenant.assign(tenant);
    m_last.tally = &tenants[m_last_tenant];
    m_last.object_bytes = &tenant_object_bytes[m_last_tenant];
  }
  return m_last;
}

void PromotionTotals::add(std::string_view tenant, std::uint64_t size, bool placeholder,
                          std::span<const ReplicaFacts> replicas) {
  Slot& s = slot(tenant);
  *s.object_bytes += size;
  ++s.tally->objects;
  ++objects;
  if (placeholder) ++placeholders;
  std::uint64_t complete_memory = 0;
  std::uint32_t processing_memory = 0;
  std::uint32_t removed_memory = 0;
  bool all_complete = true;
  for (const auto& r : replicas) {
    const bool complete = r.status == model::replica_status::complete;
    all_complete = all_complete && complete;
    if (r.variant == format::payload_variant::memory) {
      complete_memory += complete ? 1 : 0;
      processing_memory += r.status == model::replica_status::processing ? 1 : 0;
      removed_memory += r.status == model::replica_status::removed ? 1 : 0;
    }
  }
  if (!all_complete) {
    // Each "<REPLICA KIND> <STATUS>" once per object (two out-of-range statuses share "UNKNOWN").
    std::vector<std::string> kinds;
    for (const auto& r : replicas) {
      if (r.status == model::replica_status::complete) continue;
      std::string kind = std::string(format::payload_variant::name(r.variant)) + " " + status_name(r.status);
      if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) kinds.push_back(std::move(kind));
    }
    for (const auto& k : kinds) ++non_complete[k];
  }
  s.tally->charged_bytes += static_cast<util::u128>(size) * complete_memory;
  // Evidence for the live model (quota-semantics.md §16); no discarded buffers on this path.
  s.tally->evidence.record_object(size, processing_memory, removed_memory);
}

PromotionTotals PromotionTotals::copy() const {
  PromotionTotals out = *this;
  out.m_last = {};  // it pointed into this one's maps
  out.m_last_tenant.clear();
  return out;
}

void PromotionTotals::merge(PromotionTotals&& other) {
  for (auto& [tenant, tally] : other.tenants) tenants[tenant].merge(std::move(tally));
  for (const auto& [tenant, bytes] : other.tenant_object_bytes) tenant_object_bytes[tenant] += bytes;
  objects += other.objects;
  placeholders += other.placeholders;
  for (const auto& [kind, count] : other.non_complete) non_complete[kind] += count;
  legacy_scoped_keys += other.legacy_scoped_keys;
  m_last = {};
}

}  // namespace moonquota::restore
