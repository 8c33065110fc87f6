// Collects what a live master reports: K samples of GET /api/v1/tenant_quotas and /metrics taken
// alternately (live-master-api.md §8.7), or saved responses for offline audits.
//
// Retries: a transport failure (refused, timeout, reset, truncated body) or a 5xx is retried up to
// `retry.attempts` times in all, with exponential backoff (initial, doubled, capped); after that
// the request fails with `unavailable` (exit 4). With several --master endpoints (the replicas of
// an HA cell) each retry of the list goes to the next endpoint, so a standby's 503 moves on to the
// leader; the budget is then `attempts` rounds over all endpoints, backing off between rounds,
// and /metrics is read from the endpoint that answered the list. A 409 -1011 (multi-tenancy off) or a malformed
// 200 is final at once (exit 3). /metrics is fetched only after the list answered 200 in that
// sample, so a standby's metrics (no tenant block) are never compared (§3).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/finding.hpp"
#include "reconcile/live_types.hpp"
#include "reconcile/master_client.hpp"
#include "util/net_config.hpp"
#include "util/status.hpp"

namespace moonquota::reconcile {

struct RetryPolicy {
  std::uint32_t attempts = 4;  // in all, >= 1
  std::uint32_t initial_backoff_ms = 250;
  std::uint32_t max_backoff_ms = 4000;
};

struct LiveRequest {
  std::vector<std::string> master_urls;    // --master (repeatable: HA replicas); empty with saved responses
  std::vector<std::string> list_files;     // --live-json (repeatable: one reading each)
  std::vector<std::string> metrics_files;  // --live-metrics (repeatable)
  bool use_metrics = true;                 // false: --no-metrics (list only)
  std::uint32_t samples = 1;               // --samples K (>= 1)
  std::uint32_t interval_ms = 1000;        // --interval-ms T between samples
  HttpTimeouts timeouts;
  RetryPolicy retry;
  util::NetLog log;  // each attempt, retry and backoff (info) and request (debug); may be empty
  std::optional<std::uint64_t> sampled_at_ms;       // --sampled-at: capture time of saved responses
  std::size_t max_tenants = k_default_max_tenants;  // --max-tenants: per answer, beyond it exit 3
};

enum class ReadingKind { list, metrics };

struct LiveReading {
  ReadingKind kind = ReadingKind::list;
  std::uint32_t sample = 0;            // 0-based sample index
  std::optional<std::uint64_t> at_ms;  // when it was taken (unknown for files without --sampled-at)
  std::string origin;                  // URL path or file name
  std::vector<LiveTenant> tenants;
  std::optional<TenantMetrics> metrics;  // for metrics readings: globals and block presence
};

// One tenant over every reading: absent from a reading means "not visible", i.e. charged 0.
struct LiveTenantView {
  LiveTenant last;  // the latest list row (or metrics row without a list)
  std::uint64_t min_charged_bytes = 0;
  std::uint64_t max_charged_bytes = 0;
  std::uint32_t readings_present = 0;
};

struct LiveObservation {
  std::string source;  // URL, or the file names
  std::uint32_t samples = 0;
  std::uint32_t tenant_readings = 0;  // readings that carried tenant data
  std::optional<std::uint64_t> first_sample_ms;
  std::optional<std::uint64_t> last_sample_ms;
  std::uint32_t requests = 0;             // HTTP requests made
  std::uint32_t retries = 0;              // of which repeated after a failure
  std::uint32_t unavailable_answers = 0;  // 503s seen
  std::uint32_t transport_failures = 0;
  std::optional<std::uint64_t> capacity_bytes;  // the last capacity gauge seen
  std::vector<LiveReading> readings;            // every reading, in order
  std::vector<LiveTenantView> tenants;          // bytewise by id
  model::Findings findings;                     // consistency checks on the live data alone
};

// Errors: invalid_argument (no source, bad URL), io_error / not_found (unreadable file),
// unavailable (master unreachable or 503 after retries), unsupported (multi-tenancy off),
// corruption (a malformed response, naming the member or line).
[[nodiscard]] util::Result<LiveObservation> collect_live(const LiveRequest& request);

// Folds readings into per-tenant views (min/max charge, last row). Exposed for tests.
[[nodiscard]] std::vector<LiveTenantView> fold_readings(const std::vector<LiveReading>& readings);

}  // namespace moonquota::reconcile
