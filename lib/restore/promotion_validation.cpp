#include "restore/promotion_validation.hpp"

#include <algorithm>
#include <unordered_set>

#include "model/tenant_id.hpp"
#include "restore/promotion_checks.hpp"

namespace moonquota::restore {

namespace {

struct Range {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;  // exclusive
  std::string owner;
};

struct SegmentUse {
  util::u128 used = 0;
  std::vector<Range> ranges;
};

// The whole map at once, objects in raw (tenant, key) order: the first violation wins.
class Validator {
 public:
  Validator(const StandbyStore& store, std::optional<std::uint64_t> bootstrap_at_ms)
      : m_store(store), m_bootstrap_at_ms(bootstrap_at_ms), m_segments(store.registry()) {}

  PromotionValidation finish() {
    if (!m_segments.error().empty()) return failed_validation(m_segments, m_segments.error());
    m_uses.resize(m_segments.size());
    if (!check_objects() || overlaps()) return failed_validation(m_segments, m_error);
    return passed_validation(m_segments, std::move(m_totals));
  }

 private:
  std::vector<const StandbyEntry*> sorted_entries() const {
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
    return sorted;
  }

  bool check_objects() {
    std::unordered_set<std::string> seen;
    const std::vector<const StandbyEntry*> sorted = sorted_entries();
    seen.reserve(sorted.size());
    std::vector<ReplicaFacts> facts;
    for (const auto* entry : sorted) {
      const std::string_view raw_tenant = m_store.tenant_name(entry->tenant);
      const ResolvedName name = resolve_name(raw_tenant, entry->key);
      if (name.scoped) ++m_totals.legacy_scoped_keys;
      const std::string where = printable_object_name(raw_tenant, entry->key);
      if (!model::is_valid_tenant_id(name.tenant)) {
        m_error = "INVALID_PARAMS: object " + where + " resolves to an invalid tenant";
        return false;
      }
      if (!seen.insert(StandbyStore::object_key(name.tenant, name.key)).second) {
        m_error = "OBJECT_ALREADY_EXISTS: object " + where + " resolves to (" + name.tenant + ", " +
                  std::string(name.key) + "), which another object already claims";
        return false;
      }
      facts.clear();
      for (const auto& r : entry->object.replicas) facts.push_back(facts_of(r));
      if (!check_object(entry->object.size, facts, where)) return false;
      m_totals.add(name.tenant, entry->object.size, entry->object.placeholder, facts);
    }
    return true;
  }

  bool check_object(std::uint64_t size, const std::vector<ReplicaFacts>& replicas, const std::string& where) {
    for (const auto& r : replicas) {
      std::size_t segment = PromotionSegments::k_none;
      if (const ReplicaFault fault = check_replica(r, size, m_segments, segment); fault != ReplicaFault::none) {
        m_error = replica_fault_message(fault, r, size, where);
        return false;
      }
      if (r.variant != format::payload_variant::memory || !counts_against_segment(r.status)) continue;
      SegmentUse& use = m_uses[segment];
      use.used += r.buffer_size;
      if (use.used > m_segments.segment(segment).capacity) {
        m_error = "INVALID_PARAMS: " + where + " replica " + std::to_string(r.id) + ": memory segment '" +
                  m_segments.segment(segment).segment_name + "' would hold more than its capacity " +
                  std::to_string(m_segments.segment(segment).capacity);
        return false;
      }
      use.ranges.push_back({r.buffer_address, r.buffer_address + r.buffer_size, where});
    }
    return true;
  }

  // Segments in endpoint order; within one, the ranges sorted by begin (std::sort: which of two
  // ranges that begin together is named follows its permutation) and each checked against the one
  // before it.
  bool overlaps() {
    for (std::size_t s = 0; s < m_uses.size(); ++s) {
      auto& ranges = m_uses[s].ranges;
      std::sort(ranges.begin(), ranges.end(), [](const Range& a, const Range& b) { return a.begin < b.begin; });
      for (std::size_t i = 1; i < ranges.size(); ++i) {
        if (ranges[i].begin < ranges[i - 1].end) {
          m_error = "INVALID_PARAMS: memory ranges of " + ranges[i - 1].owner + " and " + ranges[i].owner +
                    " overlap in segment '" + m_segments.segment(s).segment_name + "'";
          return true;
        }
      }
    }
    return false;
  }

  const StandbyStore& m_store;
  std::optional<std::uint64_t> m_bootstrap_at_ms;
  PromotionSegments m_segments;
  PromotionTotals m_totals;
  std::string m_error;
  std::vector<SegmentUse> m_uses;  // by segment index (endpoint order)
};

}  // namespace

PromotionValidation failed_validation(const PromotionSegments& segments, std::string failure) {
  PromotionValidation v;
  v.ok = false;
  v.failure = std::move(failure);
  v.registry_segments = segments.registry_segments;
  v.registry_memory_segments = segments.registry_memory_segments;
  v.registry_memory_capacity_bytes = segments.registry_memory_capacity_bytes;
  return v;
}

PromotionValidation passed_validation(const PromotionSegments& segments, PromotionTotals&& totals) {
  PromotionValidation v = failed_validation(segments, {});
  v.ok = true;
  v.tenants = std::move(totals.tenants);
  v.tenant_object_bytes = std::move(totals.tenant_object_bytes);
  v.objects = totals.objects;
  v.placeholders = totals.placeholders;
  v.non_complete = std::move(totals.non_complete);
  v.legacy_scoped_keys = totals.legacy_scoped_keys;
  return v;
}

PromotionValidation validate_promotion(const StandbyStore& store, std::optional<std::uint64_t> bootstrap_at_ms) {
  return Validator(store, bootstrap_at_ms).finish();
}

}  // namespace moonquota::restore
