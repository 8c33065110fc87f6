#include "restore/shard_tally.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <utility>

#include "model/tenant_id.hpp"
#include "util/text_encoding.hpp"

namespace moonquota::restore {

namespace {

// a <=> b (bytewise, as std::string_view compares): < 0, 0 or > 0, eight bytes at a time.
int compare_bytes(std::string_view a, std::string_view b) {
  const std::size_t n = std::min(a.size(), b.size());
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t x;
    std::uint64_t y;
    std::memcpy(&x, a.data() + i, 8);
    std::memcpy(&y, b.data() + i, 8);
    if (x != y) return __builtin_bswap64(x) < __builtin_bswap64(y) ? -1 : 1;
  }
  for (; i < n; ++i) {
    if (a[i] != b[i]) return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[i]) ? -1 : 1;
  }
  return a.size() < b.size() ? -1 : (a.size() > b.size() ? 1 : 0);
}

// (a.tenant, a.key) <=> (b.tenant, b.key); consecutive entries of one tenant share one view.
inline int compare_objects(const ShardTallyBuilder::Entry& a, const ShardTallyBuilder::Entry& b) {
  if (!format::same_bytes(a.tenant, b.tenant)) return compare_bytes(a.tenant, b.tenant);
  return compare_bytes(a.key, b.key);
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

void ShardTallyBuilder::on_entry(const format::ShardEntry& entry) {
  Entry& e = m_entries.emplace_back();
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
  link_last();
}

void ShardTallyBuilder::append(const Entry& e) {
  m_entries.push_back(e);
  link_last();
}

void ShardTallyBuilder::link_last() {
  const std::size_t index = m_entries.size() - 1;
  if (index == 0) {
    m_group_starts.push_back(0);
    return;
  }
  const int order = compare_objects(m_entries[index - 1], m_entries[index]);
  if (order > 0) m_sorted = false;
  if (order != 0) m_group_starts.push_back(index);
}

std::vector<std::size_t> ShardTallyBuilder::sorted_order(std::uint32_t shard_index, model::Findings& findings) const {
  findings.push_back({.severity = model::Severity::info,
                      .location = "shard " + std::to_string(shard_index),
                      .message = "entries are not sorted by (tenant, key)",
                      .rule = k_rule_unsorted_entries,
                      .shard = shard_index});
  std::vector<std::size_t> order(m_entries.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return compare_objects(m_entries[a], m_entries[b]) < 0; });
  return order;
}

void ShardTallyBuilder::add_duplicate_finding(const Entry& head, std::size_t entries, std::uint32_t shard_index,
                                              model::Findings& findings) {
  findings.push_back({.severity = model::Severity::error,
                      .location = "shard " + std::to_string(shard_index),
                      .message = "duplicate entry for tenant '" + util::printable(std::string(head.tenant)) +
                                 "' key '" + util::printable(std::string(head.key)) + "' (" + std::to_string(entries) +
                                 " entries; the first decoded one keeps its replicas)",
                      .rule = k_rule_duplicate_key,
                      .shard = shard_index});
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
  reset();
}

}  // namespace moonquota::restore
