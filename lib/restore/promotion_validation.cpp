#include "restore/promotion_validation.hpp"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "model/enums.hpp"
#include "model/tenant_id.hpp"
#include "util/checked_math.hpp"

namespace moonquota::restore {

namespace {

// Promotion's summary names an out-of-range status "UNKNOWN" (the snapshot tools say OUT_OF_RANGE).
const char* status_name(std::int32_t s) { return model::replica_status::k_table.find_name(s).value_or("UNKNOWN"); }

struct Range {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;  // exclusive
  std::string owner;
};

struct SegmentUse {
  const StandbySegment* segment = nullptr;
  util::u128 used = 0;
  std::vector<Range> ranges;
};

std::string printable_key(std::string_view tenant, std::string_view key) {
  std::string out = std::string(tenant) + "/";
  for (char c : key) out += c == '\0' ? std::string("\\0") : std::string(1, c);
  return out;
}

class Validator {
 public:
  Validator(const StandbyStore& store, std::optional<std::uint64_t> bootstrap_at_ms)
      : m_store(store), m_bootstrap_at_ms(bootstrap_at_ms) {}

  PromotionValidation run() {
    if (!check_segments()) return fail();
    std::vector<const StandbyEntry*> sorted;
    sorted.reserve(m_store.size());
    for (const auto& entry : m_store.entries()) {
      if (m_bootstrap_at_ms && entry.object.bootstrap_lease_timeout_ms <= *m_bootstrap_at_ms) continue;
      sorted.push_back(&entry);
    }
    // (tenant, key) order: the order of the composite tenant + '\0' + key, tenants holding no NUL.
    std::vector<std::uint32_t> by_name;  // tenant numbers in name order
    for (const StandbyEntry* entry : sorted) {
      if (entry->tenant >= by_name.size()) by_name.resize(entry->tenant + 1);
    }
    std::vector<std::uint32_t> rank(by_name.size());
    for (std::uint32_t t = 0; t < by_name.size(); ++t) by_name[t] = t;
    std::sort(by_name.begin(), by_name.end(),
              [this](std::uint32_t a, std::uint32_t b) { return m_store.tenant_name(a) < m_store.tenant_name(b); });
    for (std::uint32_t i = 0; i < by_name.size(); ++i) rank[by_name[i]] = i;
    std::sort(sorted.begin(), sorted.end(), [&rank](const StandbyEntry* a, const StandbyEntry* b) {
      if (a->tenant != b->tenant) return rank[a->tenant] < rank[b->tenant];
      return a->key < b->key;
    });
    std::unordered_set<std::string> seen;
    seen.reserve(sorted.size());
    for (const auto* entry : sorted) {
      const std::string_view raw_tenant = m_store.tenant_name(entry->tenant);
      const std::string_view raw_key = entry->key;
      std::string tenant = model::normalize_tenant_id(raw_tenant);
      std::string_view key = raw_key;
      if (const auto nul = key.find('\0'); nul != std::string_view::npos) {
        const std::string prefix = model::normalize_tenant_id(key.substr(0, nul));
        if (tenant == model::k_default_tenant && prefix != model::k_default_tenant) tenant = prefix;
        key = key.substr(nul + 1);
        ++m_result.legacy_scoped_keys;
      }
      const std::string where = printable_key(raw_tenant, raw_key);
      if (!model::is_valid_tenant_id(tenant))
        return fail("INVALID_PARAMS: object " + where + " resolves to an invalid tenant");
      if (!seen.insert(StandbyStore::object_key(tenant, key)).second) {
        return fail("OBJECT_ALREADY_EXISTS: object " + where + " resolves to (" + tenant + ", " + std::string(key) +
                    "), which another object already claims");
      }
      if (!check_object(entry->object, where)) return fail();
      tally(tenant, entry->object);
    }
    return std::move(m_result);
  }

 private:
  PromotionValidation fail(std::string message = {}) {
    PromotionValidation failed;
    failed.ok = false;
    failed.failure = message.empty() ? m_error : std::move(message);
    failed.registry_segments = m_result.registry_segments;
    failed.registry_memory_segments = m_result.registry_memory_segments;
    failed.registry_memory_capacity_bytes = m_result.registry_memory_capacity_bytes;
    return failed;
  }

  bool check_segments() {
    std::unordered_map<std::string, const StandbySegment*> aliases;
    for (const auto& [endpoint, seg] : m_store.registry()) {
      ++m_result.registry_segments;
      if (!seg.is_memory_segment) continue;
      ++m_result.registry_memory_segments;
      m_result.registry_memory_capacity_bytes =
          util::saturating_add(m_result.registry_memory_capacity_bytes, seg.capacity);
      if (seg.segment_name.empty() || seg.transport_endpoint.empty() || seg.capacity == 0) {
        m_error = "INVALID_PARAMS: memory segment '" + seg.segment_name + "' at '" + endpoint +
                  "' needs a non-empty name, a non-empty endpoint and a capacity > 0";
        return false;
      }
      for (const std::string* alias : {&seg.segment_name, &seg.transport_endpoint}) {
        auto [it, inserted] = aliases.emplace(*alias, &seg);
        if (!inserted && it->second != &seg) {
          m_error = "INVALID_PARAMS: segment alias '" + *alias + "' is claimed by two memory segments";
          return false;
        }
      }
      m_uses[seg.transport_endpoint].segment = &seg;
    }
    for (const auto& [endpoint, use] : m_uses) {
      m_by_alias.emplace(use.segment->transport_endpoint, endpoint);
      m_by_alias.emplace(use.segment->segment_name, endpoint);
    }
    return true;
  }

  bool check_memory(const format::PayloadReplica& r, const StandbyObject& o, const std::string& where) {
    auto alias = m_by_alias.find(r.transport_endpoint);
    if (alias == m_by_alias.end()) {
      m_error = "INVALID_PARAMS: " + where + " replica " + std::to_string(r.id) + ": MEMORY endpoint '" +
                r.transport_endpoint + "' is not a registry memory segment";
      return false;
    }
    if (r.buffer_size != o.size || r.buffer_size == 0) {
      m_error = "INVALID_PARAMS: " + where + " replica " + std::to_string(r.id) + ": MEMORY size_ " +
                std::to_string(r.buffer_size) + " differs from the object size " + std::to_string(o.size) + " or is 0";
      return false;
    }
    if (r.buffer_address > UINT64_MAX - r.buffer_size) {
      m_error = "INVALID_PARAMS: " + where + " replica " + std::to_string(r.id) + ": address range overflows";
      return false;
    }
    if (r.status == model::replica_status::removed || r.status == model::replica_status::failed) return true;
    SegmentUse& use = m_uses[alias->second];
    use.used += r.buffer_size;
    if (use.used > use.segment->capacity) {
      m_error = "INVALID_PARAMS: " + where + " replica " + std::to_string(r.id) + ": memory segment '" +
                use.segment->segment_name + "' would hold more than its capacity " +
                std::to_string(use.segment->capacity);
      return false;
    }
    use.ranges.push_back({r.buffer_address, r.buffer_address + r.buffer_size, where});
    return true;
  }

  bool check_object(const StandbyObject& o, const std::string& where) {
    for (const auto& r : o.replicas) {
      switch (r.variant) {
        case format::payload_variant::memory:
          if (!check_memory(r, o, where)) return false;
          break;
        case format::payload_variant::nof:
          if (r.buffer_size != o.size || r.buffer_size == 0) {
            m_error = "INVALID_PARAMS: " + where + ": NoF size_ differs from the object size or is 0";
            return false;
          }
          break;
        case format::payload_variant::disk:
        case format::payload_variant::local_disk:
          if (r.object_size != o.size) {
            m_error = "INVALID_PARAMS: " + where + ": " + format::payload_variant::name(r.variant) + " object_size " +
                      std::to_string(r.object_size) + " differs from the object size " + std::to_string(o.size);
            return false;
          }
          break;
        default: m_error = "INVALID_PARAMS: " + where + ": DFS replica (invalid on this path)"; return false;
      }
    }
    return true;
  }

  void tally(const std::string& tenant, const StandbyObject& o) {
    TenantTally& t = m_result.tenants[tenant];
    m_result.tenant_object_bytes[tenant] += o.size;
    ++t.objects;
    ++m_result.objects;
    if (o.placeholder) ++m_result.placeholders;
    std::uint64_t complete_memory = 0;
    std::uint32_t processing_memory = 0;
    std::uint32_t removed_memory = 0;
    std::unordered_set<std::string> kinds;
    for (const auto& r : o.replicas) {
      const bool complete = r.status == model::replica_status::complete;
      if (r.variant == format::payload_variant::memory) {
        complete_memory += complete ? 1 : 0;
        processing_memory += r.status == model::replica_status::processing ? 1 : 0;
        removed_memory += r.status == model::replica_status::removed ? 1 : 0;
      }
      if (!complete) kinds.insert(std::string(format::payload_variant::name(r.variant)) + " " + status_name(r.status));
    }
    for (const auto& k : kinds) ++m_result.non_complete[k];
    t.charged_bytes += static_cast<util::u128>(o.size) * complete_memory;
    // Evidence for the live model (quota-semantics.md §16); no discarded buffers on this path.
    t.evidence.record_object(o.size, processing_memory, removed_memory);
  }

  bool overlaps() {
    for (auto& [endpoint, use] : m_uses) {
      std::sort(use.ranges.begin(), use.ranges.end(), [](const Range& a, const Range& b) { return a.begin < b.begin; });
      for (std::size_t i = 1; i < use.ranges.size(); ++i) {
        if (use.ranges[i].begin < use.ranges[i - 1].end) {
          m_error = "INVALID_PARAMS: memory ranges of " + use.ranges[i - 1].owner + " and " + use.ranges[i].owner +
                    " overlap in segment '" + use.segment->segment_name + "'";
          return true;
        }
      }
    }
    return false;
  }

 public:
  PromotionValidation finish() {
    PromotionValidation r = run();
    if (r.ok && overlaps()) return fail();
    return r;
  }

 private:
  const StandbyStore& m_store;
  std::optional<std::uint64_t> m_bootstrap_at_ms;
  PromotionValidation m_result;
  std::string m_error;
  std::map<std::string, SegmentUse> m_uses;                 // by endpoint
  std::unordered_map<std::string, std::string> m_by_alias;  // name or endpoint -> endpoint
};

}  // namespace

PromotionValidation validate_promotion(const StandbyStore& store, std::optional<std::uint64_t> bootstrap_at_ms) {
  return Validator(store, bootstrap_at_ms).finish();
}

}  // namespace moonquota::restore
