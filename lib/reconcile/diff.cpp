#include "reconcile/diff.hpp"

#include <map>

#include "reconcile/delta_causes.hpp"
#include "reconcile/likely_causes.hpp"

namespace moonquota::reconcile {

namespace {

void compare_flags(const quota::AccountRow& e, const LiveTenant& l, std::vector<std::string>& out) {
  auto b = [](bool v) { return v ? std::string("true") : std::string("false"); };
  if (e.admission_closed != l.admission_closed) {
    out.push_back("admission_closed: metadata " + b(e.admission_closed) + ", live " + b(l.admission_closed));
  }
  if (e.has_explicit_policy != l.has_explicit_policy) {
    out.push_back("has_explicit_policy: metadata " + b(e.has_explicit_policy) + ", live " + b(l.has_explicit_policy));
  }
  if (e.effective_quota_bytes != l.effective_quota_bytes) {
    out.push_back("effective_quota_bytes: metadata " + std::to_string(e.effective_quota_bytes) + ", live " +
                  std::to_string(l.effective_quota_bytes));
  }
}

void classify(TenantDiff& d, const DiffContext& ctx) {
  const bool metadata_visible = d.expected && d.expected->visible;
  d.within_tolerance = abs_bytes(d.delta_bytes) <= ctx.tolerance_bytes;
  if (!d.live) {
    d.verdict = metadata_visible ? Verdict::missing_live : Verdict::match;
    return;
  }
  if (!d.expected) {
    d.verdict = Verdict::missing_metadata;
    return;
  }
  if (!d.within_tolerance) {
    d.verdict = d.delta_bytes > 0 ? Verdict::live_over : Verdict::live_under;
    return;
  }
  compare_flags(*d.expected, d.live->last, d.flag_differences);
  d.verdict = d.flag_differences.empty() ? Verdict::match : Verdict::flags_mismatch;
}

}  // namespace

std::uint64_t abs_bytes(std::int64_t d) {
  return d < 0 ? static_cast<std::uint64_t>(-(d + 1)) + 1 : static_cast<std::uint64_t>(d);
}

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::match: return "match";
    case Verdict::live_over: return "live_over";
    case Verdict::live_under: return "live_under";
    case Verdict::missing_live: return "missing_live";
    case Verdict::missing_metadata: return "missing_metadata";
    case Verdict::flags_mismatch: return "flags_mismatch";
  }
  return "?";
}

std::vector<TenantDiff> diff_tenants(const quota::AccountTable& table, const std::vector<LiveTenantView>& live,
                                     const DiffContext& context) {
  std::map<std::string, TenantDiff> rows;
  for (const auto& row : table.rows) {
    auto& d = rows[row.tenant_id];
    d.tenant_id = row.tenant_id;
    d.expected = row;
    d.expected_charged_bytes = row.charged_bytes;
  }
  for (const auto& view : live) {
    auto& d = rows[view.last.tenant_id];
    d.tenant_id = view.last.tenant_id;
    d.live = view;
    d.live_charged_bytes = view.min_charged_bytes;
    d.live_max_charged_bytes = view.max_charged_bytes;
  }
  std::vector<TenantDiff> out;
  out.reserve(rows.size());
  for (auto& [id, d] : rows) {
    d.delta_bytes =
        static_cast<std::int64_t>(d.live_charged_bytes) - static_cast<std::int64_t>(d.expected_charged_bytes);
    classify(d, context);
    explain_delta(d, context);
    d.likely_causes = likely_causes(d, context);
    out.push_back(std::move(d));
  }
  return out;
}

VerdictCounts count_verdicts(const std::vector<TenantDiff>& diffs) {
  VerdictCounts c;
  for (const auto& d : diffs) {
    ++c.tenants;
    ++c.by_verdict[static_cast<int>(d.verdict)];
    if (d.verdict != Verdict::match) ++c.drift;
    if (!d.within_tolerance) ++c.outside_tolerance;
    c.max_abs_delta_bytes = std::max(c.max_abs_delta_bytes, abs_bytes(d.delta_bytes));
    if (!d.unexplained_within_tolerance) ++c.unexplained_outside_tolerance;
    c.max_abs_unexplained_bytes = std::max(c.max_abs_unexplained_bytes, abs_bytes(d.unexplained_bytes));
  }
  return c;
}

}  // namespace moonquota::reconcile
