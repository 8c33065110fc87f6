#include "reconcile/live_source.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <thread>

#include "reconcile/live_checks.hpp"
#include "reconcile/tenant_list.hpp"
#include "reconcile/tenant_metrics.hpp"
#include "util/elapsed.hpp"
#include "util/file_reader.hpp"

namespace moonquota::reconcile {

namespace {

constexpr std::uint64_t k_max_response_bytes = 256ull << 20;
constexpr const char* k_list_path = "/api/v1/tenant_quotas";
constexpr const char* k_metrics_path = "/metrics";

// The --master endpoints, one client each. `serving` is the one that last answered the list: its
// /metrics is read in the same sample, never another endpoint's (a standby's has no tenant block).
struct Endpoints {
  std::vector<std::unique_ptr<MasterClient>> clients;
  std::vector<std::string> skipped;  // per endpoint: why it was passed over last (503, refused...)
  std::size_t serving = 0;
};

// One logical request with the retry policy. `classify` turns an HTTP answer into a result; an
// `unavailable` result (503, any 5xx) is retried like a transport failure, anything else is final.
// With `rotate`, each retry goes to the next endpoint (an HA standby answers 503: try the others)
// and the budget is `attempts` full rounds, backing off between rounds; without it only the
// serving endpoint is asked. Every attempt, failure and backoff is reported at info on `log`;
// every message names the request ("master GET http://HOST:PORT/path: ...").
template <typename T, typename Classify>
util::Result<T> fetch_with_retry(Endpoints& endpoints, bool rotate, const std::string& path, const RetryPolicy& retry,
                                 const util::NetLog& log, LiveObservation& obs, Classify classify) {
  util::Status last;
  std::uint32_t backoff_ms = retry.initial_backoff_ms;
  const std::size_t n = rotate ? endpoints.clients.size() : 1;
  const std::size_t attempts = std::max<std::size_t>(retry.attempts, 1) * n;
  std::size_t index = endpoints.serving;
  auto info = [&log](const std::string& message) {
    if (log) log(util::NetLogLevel::info, message);
  };
  for (std::size_t attempt = 1; attempt <= attempts; ++attempt) {
    if (attempt > 1) {
      ++obs.retries;
      if (rotate) index = (index + 1) % endpoints.clients.size();
      if ((attempt - 1) % n == 0) {  // a full round failed: back off before the next one
        std::this_thread::sleep_for(std::chrono::milliseconds(backoff_ms));
        backoff_ms = std::min(retry.max_backoff_ms,
                              backoff_ms > retry.max_backoff_ms / 2 ? retry.max_backoff_ms : backoff_ms * 2);
      }
    }
    ++obs.requests;
    auto& client = *endpoints.clients[index];
    const std::string request = "master GET " + client.address().display + path;
    info(request + ": attempt " + std::to_string(attempt) + " of " + std::to_string(attempts));
    auto answer = client.get(path);
    if (!answer.ok() && answer.status().code() != util::StatusCode::unavailable) {
      return util::Status::corruption("master " + answer.status().message());
    }
    if (!answer.ok()) {
      ++obs.transport_failures;
      last = util::Status::unavailable("master " + answer.status().message());
    } else {
      if (answer->status == 503) ++obs.unavailable_answers;
      util::Result<T> result = classify(*answer);
      if (result.ok() || result.status().code() != util::StatusCode::unavailable) {
        endpoints.serving = index;
        if (!result.ok()) return result.status().with_context(request);
        return result;
      }
      last = result.status().with_context(request);
    }
    endpoints.skipped[index] = last.message();
    std::string reason = last.message();
    if (reason.rfind(request + ": ", 0) == 0) reason.erase(0, request.size() + 2);
    info(util::attempt_failed(request, attempt, attempts, reason, attempt % n == 0 ? backoff_ms : 0));
  }
  std::string context = "after " + std::to_string(attempts) + " attempt" + (attempts == 1 ? "" : "s");
  if (n > 1) context += " over " + std::to_string(n) + " master endpoints, none serving";
  return util::Status::unavailable(last.message() + " (" + context + ")");
}

// What a non-2xx answer of /metrics means: 503 and any 5xx (a proxy's 502) are worth retrying.
util::Status metrics_answer_status(const HttpAnswer& a) {
  const std::string what = "/metrics answered " + source::describe_http_answer(a);
  if (a.status >= 500) return util::Status::unavailable(what);
  return util::Status::corruption(what);
}

util::Result<std::string> read_response_file(const std::string& path) {
  return util::read_small_file(path, k_max_response_bytes);
}

util::Result<LiveReading> metrics_reading(std::string_view body, std::string origin, std::uint32_t sample,
                                          std::optional<std::uint64_t> at_ms, std::size_t max_tenants) {
  auto metrics = parse_tenant_metrics(body, max_tenants);
  if (!metrics.ok()) return metrics.status().with_context(origin);
  LiveReading r;
  r.kind = ReadingKind::metrics;
  r.sample = sample;
  r.at_ms = at_ms;
  r.origin = std::move(origin);
  r.tenants = std::move(metrics->tenants);  // held once: the reading's metrics keep the rest
  metrics->tenants.clear();
  r.metrics = std::move(*metrics);
  return r;
}

util::Status sample_master(const LiveRequest& request, LiveObservation& obs) {
  Endpoints endpoints;
  for (const auto& url : request.master_urls) {
    MQ_ASSIGN_OR_RETURN(auto address, parse_master_url(url));
    endpoints.clients.push_back(
        std::make_unique<MasterClient>(address, request.timeouts, k_default_max_body_bytes, request.log));
  }
  endpoints.skipped.resize(endpoints.clients.size());
  for (std::uint32_t k = 0; k < request.samples; ++k) {
    if (k > 0) std::this_thread::sleep_for(std::chrono::milliseconds(request.interval_ms));
    const std::uint64_t list_at = util::epoch_ms_now();
    auto rows = fetch_with_retry<std::vector<LiveTenant>>(
        endpoints, true, k_list_path, request.retry, request.log, obs,
        [&](const HttpAnswer& a) { return parse_tenant_list_response(a.status, a.body, request.max_tenants); });
    if (!rows.ok()) return rows.status();
    const std::string& display = endpoints.clients[endpoints.serving]->address().display;
    obs.source = display;
    obs.readings.push_back({ReadingKind::list, k, list_at, k_list_path, std::move(*rows), std::nullopt});
    if (!request.use_metrics) continue;
    const std::uint64_t metrics_at = util::epoch_ms_now();
    auto reading = fetch_with_retry<LiveReading>(endpoints, false, k_metrics_path, request.retry, request.log, obs,
                                                 [&](const HttpAnswer& a) -> util::Result<LiveReading> {
                                                   if (a.status != 200) return metrics_answer_status(a);
                                                   return metrics_reading(a.body, k_metrics_path, k, metrics_at,
                                                                          request.max_tenants);
                                                 });
    if (!reading.ok()) return reading.status();
    obs.readings.push_back(std::move(*reading));
  }
  for (std::size_t i = 0; i < endpoints.clients.size(); ++i) {
    if (endpoints.skipped[i].empty()) continue;
    obs.findings.push_back({model::Severity::info, endpoints.clients[i]->address().display,
                            "passed over at least once: " + endpoints.skipped[i]});
  }
  return {};
}

util::Status read_saved(const LiveRequest& request, LiveObservation& obs) {
  std::string source;
  const std::size_t samples = std::max(request.list_files.size(), request.metrics_files.size());
  for (std::size_t k = 0; k < samples; ++k) {
    const auto sample = static_cast<std::uint32_t>(k);
    if (k < request.list_files.size()) {
      const auto& file = request.list_files[k];
      MQ_ASSIGN_OR_RETURN(auto body, read_response_file(file));
      auto rows = parse_tenant_list_response(std::nullopt, body, request.max_tenants);
      if (!rows.ok()) return rows.status().with_context(file);
      obs.readings.push_back({ReadingKind::list, sample, request.sampled_at_ms, file, std::move(*rows), std::nullopt});
      source += (source.empty() ? "" : ", ") + file;
    }
    if (k < request.metrics_files.size()) {
      const auto& file = request.metrics_files[k];
      MQ_ASSIGN_OR_RETURN(auto body, read_response_file(file));
      MQ_ASSIGN_OR_RETURN(auto reading,
                          metrics_reading(body, file, sample, request.sampled_at_ms, request.max_tenants));
      obs.readings.push_back(std::move(reading));
      source += (source.empty() ? "" : ", ") + file;
    }
  }
  obs.source = source;
  return {};
}

bool carries_tenants(const LiveReading& r) { return r.kind == ReadingKind::list || r.metrics->block_present; }

}  // namespace

std::vector<LiveTenantView> fold_readings(const std::vector<LiveReading>& readings) {
  std::size_t counted = 0;
  bool any_list = false;
  for (const auto& r : readings) any_list = any_list || r.kind == ReadingKind::list;
  std::map<std::string, LiveTenantView> views;
  // Readings that could not say a tenant's charge (its /metrics series are incomplete): they
  // neither show it nor count as "not visible" for it.
  std::map<std::string, std::uint32_t> excused;
  for (const auto& r : readings) {
    if (!carries_tenants(r)) continue;
    if (r.metrics) {
      for (const auto& i : r.metrics->incomplete) ++excused[i.seen.tenant_id];
    }
    for (const auto& t : r.tenants) {
      auto [it, inserted] = views.try_emplace(t.tenant_id);
      auto& v = it->second;
      if (inserted) {
        v.min_charged_bytes = t.charged_bytes;
        v.max_charged_bytes = t.charged_bytes;
        v.last = t;
      }
      v.min_charged_bytes = std::min(v.min_charged_bytes, t.charged_bytes);
      v.max_charged_bytes = std::max(v.max_charged_bytes, t.charged_bytes);
      ++v.readings_present;
      if (r.kind == ReadingKind::list || !any_list) v.last = t;
    }
    ++counted;
  }
  std::vector<LiveTenantView> out;
  out.reserve(views.size());
  for (auto& [id, v] : views) {
    // Absent from some reading: not visible then, i.e. charged 0.
    if (v.readings_present + excused[id] < counted) v.min_charged_bytes = 0;
    out.push_back(std::move(v));
  }
  return out;
}

util::Result<LiveObservation> collect_live(const LiveRequest& request) {
  LiveObservation obs;
  const bool files = !request.list_files.empty() || !request.metrics_files.empty();
  if (request.master_urls.empty() == !files) {
    return util::Status::invalid_argument("give either --master or saved responses (--live-json / --live-metrics)");
  }
  if (request.samples < 1) return util::Status::invalid_argument("--samples must be at least 1");
  if (files && request.samples > 1) {
    return util::Status::invalid_argument(
        "--samples applies to --master; with saved responses each --live-json / --live-metrics file is one sample");
  }
  if (files) {
    MQ_RETURN_IF_ERROR(read_saved(request, obs));
  } else {
    MQ_RETURN_IF_ERROR(sample_master(request, obs));
  }
  // A tenant whose /metrics series are incomplete is compared with the list of the same sample
  // (a finding); without a list /metrics is the only source and cannot be trusted.
  for (const auto& r : obs.readings) {
    if (!r.metrics || r.metrics->incomplete.empty()) continue;
    const bool listed = std::any_of(obs.readings.begin(), obs.readings.end(), [&r](const LiveReading& l) {
      return l.kind == ReadingKind::list && l.sample == r.sample;
    });
    if (!listed) {
      const auto& i = r.metrics->incomplete.front();
      return util::Status::corruption(r.origin + ": metrics: tenant '" + i.seen.tenant_id + "' has no " +
                                      std::string(i.missing_series().front()) +
                                      " series (and no tenant list to take its values from)");
    }
  }
  for (const auto& r : obs.readings) {
    obs.samples = std::max(obs.samples, r.sample + 1);
    if (r.at_ms) {
      obs.first_sample_ms = obs.first_sample_ms ? std::min(*obs.first_sample_ms, *r.at_ms) : *r.at_ms;
      obs.last_sample_ms = obs.last_sample_ms ? std::max(*obs.last_sample_ms, *r.at_ms) : *r.at_ms;
    }
    if (r.metrics && r.metrics->capacity_bytes) obs.capacity_bytes = r.metrics->capacity_bytes;
    if (carries_tenants(r)) ++obs.tenant_readings;
  }
  if (obs.tenant_readings == 0) {
    return util::Status::unsupported(
        "no live reading carries tenant data: the /metrics tenant block is absent (an HA standby, multi-tenancy "
        "off, or a listing/capacity failure at scrape time)");
  }
  obs.tenants = fold_readings(obs.readings);
  auto checks = check_live_observation(obs);  // after the endpoint notes of sample_master
  obs.findings.insert(obs.findings.end(), checks.begin(), checks.end());
  return obs;
}

}  // namespace moonquota::reconcile
