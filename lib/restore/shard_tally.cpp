#include "restore/shard_tally.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <utility>

#include "model/tenant_id.hpp"
#include "util/text_encoding.hpp"

namespace moonquota::restore {

void ShardTallyBuilder::on_entry(const format::ShardEntry& entry) {
  Entry e;
  e.tenant = entry.object->tenant_id;  // decode_shard hands consecutive equal tenants as one view
  e.key = entry.object->key;
  e.decoded = entry.result->outcome == format::DecodeOutcome::decoded;
  if (e.decoded) {
    const auto& obj = *entry.object;
    e.size = obj.size;
    e.lease_timeout_ms = obj.lease_timeout_ms;
    e.put_start_time_ms = obj.put_start_time_ms;
    for (const auto& r : obj.replicas) {
      if (r.status != model::replica_status::complete) e.all_complete = false;
      if (r.type != model::replica_type::memory) continue;
      if (r.status == model::replica_status::complete) ++e.complete_memory;
      if (r.status == model::replica_status::processing) ++e.processing_memory;
      if (r.status == model::replica_status::removed) ++e.removed_memory;
    }
  }
  m_entries.push_back(e);
}

namespace {

// a < b (bytewise, as std::string_view compares), eight bytes at a time.
bool less_bytes(std::string_view a, std::string_view b) {
  const std::size_t n = std::min(a.size(), b.size());
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t x;
    std::uint64_t y;
    std::memcpy(&x, a.data() + i, 8);
    std::memcpy(&y, b.data() + i, 8);
    if (x != y) return __builtin_bswap64(x) < __builtin_bswap64(y);
  }
  for (; i < n; ++i) {
    if (a[i] != b[i]) return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[i]);
  }
  return a.size() < b.size();
}

// What a live master holds beside the committed charge, for every decoded object.
void record_evidence(const ShardTallyBuilder::Entry& object, TenantEvidence& evidence) {
  evidence.record_object(object.size, object.processing_memory, object.removed_memory);
  if (object.processing_memory == 0) return;
  if (evidence.in_flight.size() < k_in_flight_listed) {
    evidence.in_flight.push_back({object.put_start_time_ms, object.size, object.processing_memory});
  } else {
    ++evidence.in_flight_unlisted;
  }
}

}  // namespace

RestoreDrop restore_filter(const ShardTallyBuilder::Entry& object, std::uint64_t restore_time_ms,
                           LeaseModel lease_model) {
  if (!object.all_complete) return RestoreDrop::non_complete;
  if (lease_model == LeaseModel::upstream && restore_time_ms >= object.lease_timeout_ms) {
    return RestoreDrop::lease_expired;
  }
  return RestoreDrop::kept;
}

void ShardTallyBuilder::resolve(std::uint32_t shard_index, model::Findings& findings,
                                const std::function<void(const Resolved&)>& on_object) const {
  const std::string where = "shard " + std::to_string(shard_index);
  auto finding = [&](model::Severity severity, std::string message, std::string rule) {
    findings.push_back({.severity = severity,
                        .location = where,
                        .message = std::move(message),
                        .rule = std::move(rule),
                        .shard = shard_index});
  };
  auto less = [](const Entry& a, const Entry& b) {
    return !format::same_bytes(a.tenant, b.tenant) ? less_bytes(a.tenant, b.tenant) : less_bytes(a.key, b.key);
  };
  auto same = [](const Entry& a, const Entry& b) {
    return format::same_bytes(a.key, b.key) && format::same_bytes(a.tenant, b.tenant);
  };
  std::vector<std::size_t> order;  // filled only when the entries need sorting
  bool sorted =
      std::is_sorted(m_entries.begin(), m_entries.end(), [&](const Entry& a, const Entry& b) { return less(a, b); });
  if (!sorted) {
    finding(model::Severity::info, "entries are not sorted by (tenant, key)", k_rule_unsorted_entries);
    order.resize(m_entries.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return less(m_entries[a], m_entries[b]); });
  }
  auto at = [&](std::size_t k) -> const Entry& { return sorted ? m_entries[k] : m_entries[order[k]]; };
  const std::size_t count = m_entries.size();
  for (std::size_t i = 0; i < count;) {
    std::size_t j = i + 1;
    const Entry& head = at(i);
    while (j < count && same(head, at(j))) ++j;
    // Group [i, j) holds one (tenant, key): the first decoded entry keeps its replicas, later
    // decoded ones overwrite the lease; undecodable entries change nothing.
    Resolved resolved;
    resolved.tenant = head.tenant;
    resolved.key = head.key;
    resolved.entries = j - i;
    for (std::size_t k = i; k < j; ++k) {
      const Entry& e = at(k);
      if (!e.decoded) {
        ++resolved.undecodable;
      } else if (!resolved.object) {
        resolved.object = e;
      } else {
        resolved.object->lease_timeout_ms = e.lease_timeout_ms;
      }
    }
    if (j - i > 1) {
      finding(model::Severity::error,
              "duplicate entry for tenant '" + util::printable(std::string(head.tenant)) + "' key '" +
                  util::printable(std::string(head.key)) + "' (" + std::to_string(j - i) +
                  " entries; the first decoded one keeps its replicas)",
              k_rule_duplicate_key);
    }
    on_object(resolved);
    i = j;
  }
}

void ShardTallyBuilder::finish(std::uint32_t shard_index, ChargeModel charge_model, std::uint64_t restore_time_ms,
                               ShardTally& out, model::Findings& findings, LeaseModel lease_model) {
  auto last = out.tenants.end();
  bool have_last = false;
  std::string_view last_tenant;
  resolve(shard_index, findings, [&](const Resolved& resolved) {
    // Entries arrive grouped by tenant: remember the last tenant's slot.
    if (!have_last || !format::same_bytes(last_tenant, resolved.tenant)) last = out.tenants.find(resolved.tenant);
    last_tenant = resolved.tenant;
    auto it = last;
    if (it == out.tenants.end()) {
      it = out.tenants.emplace(std::string(resolved.tenant), TenantTally{}).first;
      if (!model::is_valid_tenant_id(resolved.tenant)) {
        findings.push_back({.severity = model::Severity::warning,
                            .location = "shard " + std::to_string(shard_index),
                            .message = "tenant '" + util::printable(std::string(resolved.tenant)) +
                                       "' is not a valid tenant id: restored and charged, but no request can reach it",
                            .shard = shard_index});
      }
    }
    last = it;
    have_last = true;
    TenantTally& tally = it->second;
    tally.dropped.undecodable += resolved.undecodable;
    out.dropped.undecodable += resolved.undecodable;
    if (!resolved.object) return;
    const Entry& object = *resolved.object;
    record_evidence(object, tally.evidence);
    const util::u128 committed = util::clamped_mul(object.size, object.complete_memory);
    const RestoreDrop drop =
        charge_model == ChargeModel::live ? RestoreDrop::kept : restore_filter(object, restore_time_ms, lease_model);
    if (drop == RestoreDrop::non_complete) {
      ++tally.dropped.non_complete;
      ++out.dropped.non_complete;
      tally.evidence.dropped_non_complete_bytes += committed;
    } else if (drop == RestoreDrop::lease_expired) {
      ++tally.dropped.lease_expired;
      ++out.dropped.lease_expired;
      tally.evidence.dropped_lease_expired_bytes += committed;
    } else {
      ++tally.objects;
      ++out.objects;
      tally.charged_bytes += committed;
    }
  });
  for (auto& [tenant, tally] : out.tenants) tally.shards = tally.objects > 0 ? 1 : 0;  // this one shard
  m_entries.clear();
}

}  // namespace moonquota::restore
