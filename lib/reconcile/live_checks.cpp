#include "reconcile/live_checks.hpp"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "quota/effective_quota.hpp"

namespace moonquota::reconcile {

namespace {

using model::Finding;
using model::Severity;

std::string where(const LiveReading& r) { return r.origin + " (sample " + std::to_string(r.sample + 1) + ")"; }

void check_rows(const LiveReading& r, model::Findings& out) {
  for (std::size_t i = 0; i < r.tenants.size(); ++i) {
    const auto& t = r.tenants[i];
    const std::string who = "tenant '" + t.tenant_id + "'";
    if (i > 0 && r.kind == ReadingKind::list && !(r.tenants[i - 1].tenant_id < t.tenant_id)) {
      out.push_back({Severity::error, where(r), who + " breaks the bytewise order or is duplicated"});
    }
    if (t.over_quota != (t.charged_bytes > t.effective_quota_bytes)) {
      out.push_back({Severity::error, where(r),
                     who + ": over_quota is " + (t.over_quota ? "true" : "false") + " but charged " +
                         std::to_string(t.charged_bytes) + " vs effective " + std::to_string(t.effective_quota_bytes)});
    }
    if (t.admission_closed == t.has_explicit_policy) {
      out.push_back({Severity::warning, where(r),
                     who + ": admission_closed == has_explicit_policy (expected the opposite in steady state; "
                           "transient while a policy is being changed)"});
    }
    if (!t.has_explicit_policy && (t.requested_quota_bytes != 0 || t.effective_quota_bytes != 0)) {
      out.push_back({Severity::error, where(r), who + ": no explicit policy but requested/effective are not 0"});
    }
    if (!t.has_explicit_policy && t.charged_bytes == 0) {
      out.push_back({Severity::error, where(r), who + ": listed although invisible (no policy, charged 0)"});
    }
  }
}

void check_effective(const LiveReading& r, std::uint64_t capacity, model::Findings& out) {
  std::map<std::string, std::uint64_t> requested;
  for (const auto& t : r.tenants) {
    if (t.has_explicit_policy) requested[t.tenant_id] = t.requested_quota_bytes;
  }
  auto expected = quota::compute_effective_quotas(requested, capacity);
  for (const auto& t : r.tenants) {
    if (!t.has_explicit_policy) continue;
    if (expected[t.tenant_id] != t.effective_quota_bytes) {
      out.push_back({Severity::warning, where(r),
                     "tenant '" + t.tenant_id + "': effective " + std::to_string(t.effective_quota_bytes) +
                         " but §11.3 at the capacity gauge " + std::to_string(capacity) + " gives " +
                         std::to_string(expected[t.tenant_id]) +
                         ": stale recompute or capacity drift (the gauge is sampled at scrape time)"});
    }
  }
}

void check_metrics(const LiveReading& m, const LiveReading* list, model::Findings& out) {
  if (!m.metrics->block_present) {
    if (list != nullptr) {
      out.push_back({Severity::warning, where(m),
                     "no tenant block while the list answered 200: listing or capacity sampling failed at scrape "
                     "time; relying on the list"});
    }
    return;
  }
  std::uint64_t requested_sum = 0;
  std::uint64_t effective_sum = 0;
  for (const auto& t : m.tenants) {
    requested_sum += t.requested_quota_bytes;  // wraps like the master's uint64 addition
    effective_sum += t.effective_quota_bytes;
  }
  const auto& g = *m.metrics;
  // Tenants lacking a series (an older or newer master): reported, their known values summed; a
  // sum whose terms are not all known is not checked.
  bool requested_known = true;
  bool effective_known = true;
  std::map<std::string, const LiveTenant*> listed;
  if (list != nullptr) {
    for (const auto& t : list->tenants) listed[t.tenant_id] = &t;
  }
  for (const auto& i : g.incomplete) {
    requested_sum += i.seen.requested_quota_bytes;
    effective_sum += i.seen.effective_quota_bytes;
    std::string names;
    for (const auto name : i.missing_series()) {
      names += (names.empty() ? "" : ", ") + std::string(name);
      requested_known = requested_known && name != "mooncake_tenant_quota_requested_bytes";
      effective_known = effective_known && name != "mooncake_tenant_quota_effective_bytes";
    }
    const bool in_list = listed.count(i.seen.tenant_id) > 0;
    out.push_back({Severity::warning, where(m),
                   "tenant '" + i.seen.tenant_id + "' lacks the series " + names + " (an older or newer master?): " +
                       (in_list ? "its values are taken from the tenant list"
                                : "it is not in the tenant list either, so it is not compared")});
  }
  if (requested_known && g.requested_sum_bytes && *g.requested_sum_bytes != requested_sum) {
    out.push_back({Severity::error, where(m),
                   "requested_bytes_sum " + std::to_string(*g.requested_sum_bytes) + " != Σ requested " +
                       std::to_string(requested_sum)});
  }
  if (effective_known && g.effective_sum_bytes && *g.effective_sum_bytes != effective_sum) {
    out.push_back({Severity::error, where(m),
                   "effective_bytes_sum " + std::to_string(*g.effective_sum_bytes) + " != Σ effective " +
                       std::to_string(effective_sum)});
  }
  // §11.3 needs every tenant's requested quota: not checked when some tenant is incomplete.
  if (g.capacity_bytes && g.incomplete.empty()) check_effective(m, *g.capacity_bytes, out);
  if (list == nullptr) return;
  const auto& by_id = listed;
  std::size_t matched = 0;
  for (const auto& i : g.incomplete) matched += listed.count(i.seen.tenant_id);
  for (const auto& t : m.tenants) {
    auto it = by_id.find(t.tenant_id);
    if (it == by_id.end()) {
      out.push_back(
          {Severity::warning, where(m), "tenant '" + t.tenant_id + "' has metric series but is not in the list"});
      continue;
    }
    ++matched;
    if (!(*it->second == t)) {
      out.push_back({Severity::info, where(m),
                     "tenant '" + t.tenant_id + "': metric values differ from the list (charged " +
                         std::to_string(it->second->charged_bytes) + " in the list, " +
                         std::to_string(t.charged_bytes) + " in /metrics): separate requests, writes in flight"});
    }
  }
  if (matched != list->tenants.size()) {
    out.push_back({Severity::warning, where(m),
                   std::to_string(list->tenants.size() - matched) + " listed tenant(s) have no metric series"});
  }
}

// "(sample 2)", "(samples 1-3)", "(samples 1, 3)".
std::string samples_text(const std::vector<std::uint32_t>& samples) {
  if (samples.size() == 1) return "(sample " + std::to_string(samples[0]) + ")";
  const bool run = samples.back() - samples.front() + 1 == samples.size();
  if (run) return "(samples " + std::to_string(samples.front()) + "-" + std::to_string(samples.back()) + ")";
  std::string text = "(samples ";
  for (std::size_t i = 0; i < samples.size(); ++i) text += (i > 0 ? ", " : "") + std::to_string(samples[i]);
  return text + ")";
}

// One finding per fact: the same message about the same origin in several samples is listed once,
// naming the samples (audit: 3 samples printed each fact 3 times). First-seen order is kept.
model::Findings merge_samples(model::Findings findings) {
  struct Group {
    Finding finding;
    std::string origin;
    std::vector<std::uint32_t> samples;
  };
  std::vector<Group> groups;
  std::map<std::tuple<int, std::string, std::string>, std::size_t> index;
  constexpr std::string_view k_marker = " (sample ";
  for (auto& f : findings) {
    const auto at = f.location.rfind(k_marker);
    std::optional<std::uint32_t> sample;
    if (at != std::string::npos && !f.location.empty() && f.location.back() == ')') {
      const std::string digits = f.location.substr(at + k_marker.size(), f.location.size() - at - k_marker.size() - 1);
      if (!digits.empty() && digits.size() < 10 && digits.find_first_not_of("0123456789") == std::string::npos) {
        sample = static_cast<std::uint32_t>(std::stoul(digits));
      }
    }
    if (!sample) {
      groups.push_back({std::move(f), {}, {}});
      continue;
    }
    std::string origin = f.location.substr(0, at);
    const auto key = std::make_tuple(static_cast<int>(f.severity), origin, f.message);
    auto it = index.find(key);
    if (it == index.end()) {
      index.emplace(key, groups.size());
      groups.push_back({std::move(f), std::move(origin), {*sample}});
    } else {
      groups[it->second].samples.push_back(*sample);
    }
  }
  model::Findings out;
  out.reserve(groups.size());
  for (auto& g : groups) {
    if (!g.samples.empty()) g.finding.location = g.origin + " " + samples_text(g.samples);
    out.push_back(std::move(g.finding));
  }
  return out;
}

}  // namespace

model::Findings check_live_observation(const LiveObservation& observation) {
  model::Findings out;
  std::map<std::uint32_t, const LiveReading*> list_of_sample;
  for (const auto& r : observation.readings) {
    if (r.kind == ReadingKind::list) list_of_sample[r.sample] = &r;
  }
  for (const auto& r : observation.readings) {
    if (r.kind == ReadingKind::list) {
      check_rows(r, out);
    } else {
      if (r.metrics->block_present) check_rows(r, out);
      auto it = list_of_sample.find(r.sample);
      check_metrics(r, it == list_of_sample.end() ? nullptr : it->second, out);
    }
  }
  return merge_samples(std::move(out));
}

}  // namespace moonquota::reconcile
