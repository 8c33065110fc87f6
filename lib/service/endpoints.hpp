// The answers of `quota-reconcile serve`'s HTTP endpoints, as values (the transport is
// service/http_server.cpp): one function from a path, its query and the state to a status, a
// content type and a body. Only GET reaches here.
//
//   /metrics      200, service/metrics_text.hpp
//   /healthz      200 "ok" while the newest successful audit finished less than 3 intervals ago;
//                 503 and the reason otherwise (also before the first success)
//   /report       200, the newest comparison as the one-shot's --format html; 503 "no audit has
//                 finished yet" before the first comparison
//   /report.json  the same as --format json (quota-reconcile/1)
//   /history      JSON trend (quota-reconcile-history/1) of the newest recorded run; ?tenant=ID
//                 for one tenant (404 when it has no point). 404 JSON error without --db, 503 before
//                 a run was recorded, 400 on a query other than one non-empty tenant
//   anything else 404
// Errors of /history are JSON ({"error": "..."}); the others are text/plain.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "service/metrics_text.hpp"
#include "service/run_state.hpp"

namespace moonquota::service {

struct HttpAnswer {
  int status = 200;
  std::string content_type = "text/plain; charset=utf-8";
  std::string body;
};

struct EndpointContext {
  std::string cluster = "default";
  BuildInfo build;
  std::uint64_t interval_ms = 5 * 60 * 1000;
  bool has_db = false;
};

using QueryParams = std::vector<std::pair<std::string, std::string>>;  // decoded, in request order

// How many intervals may pass after the newest success before /healthz answers 503.
inline constexpr std::uint64_t k_healthy_intervals = 3;

struct Health {
  bool ok = false;
  std::string reason;  // "ok", or why not
};
[[nodiscard]] Health health_of(const StateView& view, std::uint64_t interval_ms, std::uint64_t now_ms);

[[nodiscard]] HttpAnswer answer_request(const std::string& path, const QueryParams& query, const StateView& view,
                                        const EndpointContext& context, std::uint64_t now_ms);

}  // namespace moonquota::service
