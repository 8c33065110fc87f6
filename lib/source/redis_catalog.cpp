#include "source/redis_catalog.hpp"

#include <hiredis/hiredis.h>

#include <chrono>
#include <cstdlib>
#include <memory>
#include <thread>

#include "source/etcd_gateway.hpp"
#include "source/snapshot_id.hpp"
#include "util/net_config.hpp"
#include "util/text_encoding.hpp"

namespace moonquota::source {

using util::trim_ascii;

namespace {

using util::Status;

struct ContextDeleter {
  void operator()(redisContext* c) const { redisFree(c); }
};
struct ReplyDeleter {
  void operator()(redisReply* r) const { freeReplyObject(r); }
};
using ReplyPtr = std::unique_ptr<redisReply, ReplyDeleter>;

std::string resolve_namespace(const std::string& cluster_id, const std::string& env_cluster_id) {
  if (!cluster_id.empty()) return cluster_id;
  return env_cluster_id.empty() ? "mooncake_cluster" : env_cluster_id;
}

}  // namespace

RedisCatalogKeys redis_catalog_keys(const std::string& cluster_id, const std::string& env_cluster_id) {
  std::string ns = resolve_namespace(cluster_id, env_cluster_id);
  if (!ns.empty() && ns.back() == '/') ns.pop_back();
  for (char& c : ns) {
    if (c == '{' || c == '}') c = '_';
  }
  const std::string base = "mooncake-store/{" + ns + "}/snapshot/";
  return {base + "latest", base + "index"};
}

namespace {

constexpr int k_redis_attempts = 3;
constexpr std::uint32_t k_redis_initial_backoff_ms = 100;

timeval to_timeval(std::uint32_t ms) {
  return timeval{static_cast<time_t>(ms / 1000), static_cast<suseconds_t>((ms % 1000) * 1000)};
}

// hiredis's errstr ("Resource temporarily unavailable") in the words every service client uses.
std::string describe_redis_error(const redisContext* ctx, bool connecting, const util::NetConfig& net) {
  if (ctx == nullptr) return "cannot allocate a Redis context";
  const std::string text = ctx->errstr;
  if (ctx->err == REDIS_ERR_EOF) return "connection reset or closed before the answer";
  if (text.find("refused") != std::string::npos) return "connection refused";
  if (text.find("timed out") != std::string::npos || text.find("temporarily unavailable") != std::string::npos) {
    return connecting ? "connect timed out after " + std::to_string(net.connect_timeout_ms) + " ms"
                      : "timed out after " + std::to_string(net.read_timeout_ms) + " ms waiting for the answer";
  }
  if (text.find("reset") != std::string::npos) return "connection reset or closed before the answer";
  if (text.find("Name or service") != std::string::npos || text.find("resolve") != std::string::npos) {
    return "name not resolved";
  }
  return (connecting ? "connection failed: " : "") + text;
}

// One command; a transport failure is `unavailable` (worth retrying), anything else final.
util::Result<ReplyPtr> command(redisContext* ctx, const std::string& what, const std::string& key,
                               const util::NetConfig& net, const std::string& name) {
  const auto start = std::chrono::steady_clock::now();
  ReplyPtr reply(static_cast<redisReply*>(
      redisCommand(ctx, (what + " %b" + (what == "ZREVRANGE" ? " 0 -1" : "")).c_str(), key.data(), key.size())));
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
  if (!reply) {
    const std::string error = describe_redis_error(ctx, false, net);
    net.debug("Redis " + name + " " + what + " " + key + " -> " + error + ", " + std::to_string(ms.count()) + " ms");
    return Status::unavailable("Redis " + name + ": " + what + " " + key + ": " + error);
  }
  net.debug("Redis " + name + " " + what + " " + key + " -> reply type " + std::to_string(reply->type) + ", " +
            std::to_string(ms.count()) + " ms");
  return reply;
}

util::Result<CatalogListing> read_redis_catalog_once(ObjectStore& store, const HostPort& endpoint,
                                                     const std::string& host_port, const std::string& store_dir,
                                                     const std::string& cluster_id, const util::NetConfig& net) {
  const char* env = std::getenv("MC_STORE_CLUSTER_ID");
  const std::string env_id = env == nullptr ? "" : env;
  const RedisCatalogKeys keys = redis_catalog_keys(cluster_id, env_id);
  const auto start = std::chrono::steady_clock::now();
  std::unique_ptr<redisContext, ContextDeleter> ctx(
      redisConnectWithTimeout(endpoint.host.c_str(), endpoint.port, to_timeval(net.connect_timeout_ms)));
  if (!ctx || ctx->err != 0) {
    const std::string error = describe_redis_error(ctx.get(), true, net);
    net.debug(
        "Redis " + host_port + " connect -> " + error + ", " +
        std::to_string(
            std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count()) +
        " ms");
    return Status::unavailable("Redis " + host_port + ": " + error);
  }
  redisSetTimeout(ctx.get(), to_timeval(net.read_timeout_ms));
  CatalogListing out;
  out.root = snapshot_root(store_dir, resolve_namespace(cluster_id, env_id));

  MQ_ASSIGN_OR_RETURN(ReplyPtr list, command(ctx.get(), "ZREVRANGE", keys.index, net, host_port));
  if (list->type == REDIS_REPLY_ERROR) return Status::unavailable("Redis ZREVRANGE " + keys.index + ": " + list->str);
  if (list->type != REDIS_REPLY_ARRAY) return Status::unavailable("Redis ZREVRANGE " + keys.index + ": not an array");
  for (std::size_t i = 0; i < list->elements; ++i) {
    const redisReply* e = list->element[i];
    if (e->type != REDIS_REPLY_STRING) continue;
    std::string id(e->str, e->len);
    if (!is_valid_snapshot_id(id)) {
      out.findings.push_back(
          {model::Severity::warning, keys.index, "member '" + id + "' is not a valid snapshot id (skipped)"});
      continue;
    }
    auto listed = read_descriptor(store, out.root + id);
    if (!listed.ok() && listed.status().code() == util::StatusCode::unavailable) return listed.status();
    if (!listed.ok()) {
      out.findings.push_back({model::Severity::warning, out.root + id,
                              "listed in " + keys.index + " but its descriptor is missing or unparsable (skipped)"});
      continue;
    }
    out.listed.push_back(std::move(id));
  }

  MQ_ASSIGN_OR_RETURN(ReplyPtr latest, command(ctx.get(), "GET", keys.latest, net, host_port));
  if (latest->type == REDIS_REPLY_NIL) return out;
  if (latest->type != REDIS_REPLY_STRING) {
    out.latest_error = "GET " + keys.latest + " did not answer a string";
    return out;
  }
  const std::string id = trim_ascii(std::string(latest->str, latest->len));
  if (id.empty()) return out;
  if (!is_valid_snapshot_id(id)) {
    out.latest_error = keys.latest + " names '" + id + "', not a valid snapshot id";
    return out;
  }
  auto descriptor = read_descriptor(store, out.root + id);
  if (!descriptor.ok() && descriptor.status().code() == util::StatusCode::unavailable) return descriptor.status();
  if (!descriptor.ok()) {
    out.latest_error =
        "latest snapshot " + id + ": descriptor: " + descriptor.status().message() + " (PERSISTENT_FAIL)";
    return out;
  }
  out.latest = id;
  return out;
}

}  // namespace

util::Result<CatalogListing> read_redis_catalog(ObjectStore& store, const std::string& host_port,
                                                const std::string& store_dir, const std::string& cluster_id,
                                                const util::NetConfig& net) {
  MQ_ASSIGN_OR_RETURN(HostPort endpoint, parse_host_port(host_port, "--redis"));
  const std::string what = "Redis " + host_port;
  std::uint32_t backoff_ms = k_redis_initial_backoff_ms;
  util::Status last;
  for (int attempt = 1; attempt <= k_redis_attempts; ++attempt) {
    net.info(what + ": attempt " + std::to_string(attempt) + " of " + std::to_string(k_redis_attempts));
    auto listing = read_redis_catalog_once(store, endpoint, host_port, store_dir, cluster_id, net);
    if (listing.ok() || listing.status().code() != util::StatusCode::unavailable) return listing;
    last = listing.status();
    std::string reason = last.message();
    if (reason.rfind(what + ": ", 0) == 0) reason.erase(0, what.size() + 2);
    net.info(util::attempt_failed(what, static_cast<std::size_t>(attempt), k_redis_attempts, reason, backoff_ms));
    if (attempt < k_redis_attempts) {
      std::this_thread::sleep_for(std::chrono::milliseconds(backoff_ms));
      backoff_ms *= 2;
    }
  }
  return Status::unavailable(last.message() + " (after " + std::to_string(k_redis_attempts) + " attempts)");
}

}  // namespace moonquota::source
