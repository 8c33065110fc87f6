#include "reconcile/tenant_metrics.hpp"

#include <array>
#include <map>

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

}  // namespace

util::Result<TenantMetrics> extract_tenant_metrics(const PromExposition& exposition) {
  TenantMetrics out;
  for (const auto& [name, field] : k_tenant_gauges) {
    if (exposition.types.count(std::string(name)) || exposition.help.count(std::string(name))) out.block_present = true;
  }
  std::map<std::string, std::size_t> index;  // tenant -> position in `partials`
  std::vector<Partial> partials;
  for (const auto& s : exposition.samples) {
    if (s.name.compare(0, k_prefix.size(), k_prefix) != 0) continue;
    const Field* field = tenant_field(s.name);
    const bool global = s.name == k_capacity || s.name == k_requested_sum || s.name == k_effective_sum;
    if (field == nullptr && !global) continue;  // counters and anything newer
    auto value = parse_exact_u64(s.value_text);
    if (!value) return bad(s, "value '" + s.value_text + "' is not an exact unsigned integer");
    out.block_present = true;
    if (global) {
      auto& slot = s.name == k_capacity        ? out.capacity_bytes
                   : s.name == k_requested_sum ? out.requested_sum_bytes
                                               : out.effective_sum_bytes;
      MQ_RETURN_IF_ERROR(set_global(s, *value, slot));
      continue;
    }
    const std::string* tenant = s.label("tenant_id");
    if (tenant == nullptr) return bad(s, "series without a tenant_id label");
    auto [it, inserted] = index.emplace(*tenant, partials.size());
    if (inserted) {
      partials.emplace_back();
      partials.back().tenant.tenant_id = *tenant;
    }
    MQ_RETURN_IF_ERROR(apply(s, *field, *value, partials[it->second]));
  }
  for (auto& p : partials) {
    std::vector<std::string> missing;
    for (const auto& [name, field] : k_tenant_gauges) {
      if (!(p.seen_mask & (1u << static_cast<unsigned>(field)))) missing.emplace_back(name);
    }
    if (missing.empty()) {
      out.tenants.push_back(std::move(p.tenant));
    } else {
      out.incomplete.push_back({std::move(p.tenant), std::move(missing)});
    }
  }
  return out;
}

util::Result<TenantMetrics> parse_tenant_metrics(std::string_view metrics_text) {
  MQ_ASSIGN_OR_RETURN(auto exposition, parse_prometheus_text(metrics_text));
  return extract_tenant_metrics(exposition);
}

}  // namespace moonquota::reconcile
