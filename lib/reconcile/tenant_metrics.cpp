#include "reconcile/tenant_metrics.hpp"

#include <array>
#include <deque>
#include <unordered_map>

#include "util/checked_math.hpp"

namespace moonquota::reconcile {

namespace {

constexpr std::string_view k_prefix = "mooncake_tenant_quota_";

enum class Field { requested, effective, charged, admission_closed, over_quota, explicit_policy };
constexpr std::array<std::pair<std::string_view, Field>, 6> k_tenant_gauges = {{
    {"mooncake_tenant_quota_requested_bytes", Field::requested},
    {"mooncake_tenant_quota_effective_bytes", Field::effective},
    {"mooncake_tenant_quota_charged_bytes", Field::charged},
    {"mooncake_tenant_quota_admission_closed", Field::admission_closed},
    {"mooncake_tenant_quota_over_quota", Field::over_quota},
    {"mooncake_tenant_quota_explicit_policy", Field::explicit_policy},
}};
constexpr std::string_view k_capacity = "mooncake_tenant_quota_allocatable_capacity_bytes";
constexpr std::string_view k_requested_sum = "mooncake_tenant_quota_requested_bytes_sum";
constexpr std::string_view k_effective_sum = "mooncake_tenant_quota_effective_bytes_sum";

const Field* tenant_field(std::string_view name) {
  for (const auto& [n, f] : k_tenant_gauges) {
    if (n == name) return &f;
  }
  return nullptr;
}

util::Status bad(const PromSample& s, const std::string& what) {
  return util::Status::corruption("metrics line " + std::to_string(s.line) + ": " + s.name + ": " + what);
}

struct Partial {
  LiveTenant tenant;
  unsigned seen_mask = 0;
};

util::Status apply(const PromSample& s, Field field, std::uint64_t value, Partial& p) {
  const unsigned bit = 1u << static_cast<unsigned>(field);
  if (p.seen_mask & bit) return bad(s, "duplicate series for tenant '" + p.tenant.tenant_id + "'");
  p.seen_mask |= bit;
  const bool is_flag =
      field == Field::admission_closed || field == Field::over_quota || field == Field::explicit_policy;
  if (is_flag && value > 1) return bad(s, "flag value " + s.value_text + " is not 0 or 1");
  switch (field) {
    case Field::requested: p.tenant.requested_quota_bytes = value; break;
    case Field::effective: p.tenant.effective_quota_bytes = value; break;
    case Field::charged:
      if (value > util::k_max_charged_bytes) return bad(s, "charge " + s.value_text + " exceeds 2^63-1");
      p.tenant.charged_bytes = value;
      break;
    case Field::admission_closed: p.tenant.admission_closed = value == 1; break;
    case Field::over_quota: p.tenant.over_quota = value == 1; break;
    case Field::explicit_policy: p.tenant.has_explicit_policy = value == 1; break;
  }
  return {};
}

util::Status set_global(const PromSample& s, std::uint64_t value, std::optional<std::uint64_t>& slot) {
  if (slot) return bad(s, "duplicate series");
  slot = value;
  return {};
}

// Collects the tenant block one sample at a time, keeping nothing else: a /metrics of any size
// costs its tenants, not its samples (issue 11 item 26). Tenants keep first-seen order; a deque
// never moves them, so the index can key on views of their ids.
class Collector {
 public:
  explicit Collector(std::size_t max_tenants) : m_max_tenants(max_tenants) {}

  void note_comment(std::string_view name) {
    if (tenant_field(name) != nullptr) m_out.block_present = true;
  }

  util::Status add(const PromSample& s) {
    if (s.name.compare(0, k_prefix.size(), k_prefix) != 0) return {};
    const Field* field = tenant_field(s.name);
    const bool global = s.name == k_capacity || s.name == k_requested_sum || s.name == k_effective_sum;
    if (field == nullptr && !global) return {};  // counters and anything newer
    auto value = parse_exact_u64(s.value_text);
    if (!value) return bad(s, "value '" + s.value_text + "' is not an exact unsigned integer");
    m_out.block_present = true;
    if (global) {
      auto& slot = s.name == k_capacity        ? m_out.capacity_bytes
                   : s.name == k_requested_sum ? m_out.requested_sum_bytes
                                               : m_out.effective_sum_bytes;
      return set_global(s, *value, slot);
    }
    const std::string* tenant = s.label("tenant_id");
    if (tenant == nullptr) return bad(s, "series without a tenant_id label");
    auto it = m_index.find(*tenant);
    if (it == m_index.end()) {
      if (m_partials.size() >= m_max_tenants) {
        return util::Status::limit_exceeded(
            "metrics line " + std::to_string(s.line) + ": more than " + std::to_string(m_max_tenants) +
            " distinct tenants (--max-tenants raises the limit; a real master serves thousands)");
      }
      m_partials.emplace_back();
      m_partials.back().tenant.tenant_id = *tenant;
      it = m_index.emplace(m_partials.back().tenant.tenant_id, &m_partials.back()).first;
    }
    return apply(s, *field, *value, *it->second);
  }

  // A tenant lacking one of the six series (an older or newer master) is kept aside with what it
  // lacks: the caller reports it as a finding and takes the tenant's values from the list.
  util::Result<TenantMetrics> finish() {
    m_index.clear();
    for (auto& p : m_partials) {
      std::uint8_t missing = 0;
      for (const auto& [name, field] : k_tenant_gauges) {
        const auto bit = static_cast<unsigned>(field);
        if (!(p.seen_mask & (1u << bit))) missing = static_cast<std::uint8_t>(missing | (1u << bit));
      }
      if (missing == 0) {
        m_out.tenants.push_back(std::move(p.tenant));
      } else {
        m_out.incomplete.push_back({std::move(p.tenant), missing});
      }
    }
    m_partials.clear();
    return std::move(m_out);
  }

 private:
  std::size_t m_max_tenants;
  TenantMetrics m_out;
  std::deque<Partial> m_partials;
  std::unordered_map<std::string_view, Partial*> m_index;  // views of m_partials' ids
};

}  // namespace

util::Result<TenantMetrics> extract_tenant_metrics(const PromExposition& exposition, std::size_t max_tenants) {
  Collector collector(max_tenants);
  for (const auto& [name, type] : exposition.types) collector.note_comment(name);
  for (const auto& [name, text] : exposition.help) collector.note_comment(name);
  for (const auto& s : exposition.samples) MQ_RETURN_IF_ERROR(collector.add(s));
  return collector.finish();
}

util::Result<TenantMetrics> parse_tenant_metrics(std::string_view metrics_text, std::size_t max_tenants) {
  Collector collector(max_tenants);
  MQ_RETURN_IF_ERROR(scan_prometheus_text(
      metrics_text, [&](PromSample&& s) { return collector.add(s); },
      [&](std::string_view, std::string_view name, std::string_view) { collector.note_comment(name); }));
  return collector.finish();
}

}  // namespace moonquota::reconcile
