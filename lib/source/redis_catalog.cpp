#include "source/redis_catalog.hpp"

#include <hiredis/hiredis.h>

#include <cstdlib>
#include <memory>

#include "source/etcd_gateway.hpp"
#include "source/snapshot_id.hpp"

namespace moonquota::source {

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

std::string trim_ascii(const std::string& s) {
  const char* ws = " \t\n\r\f\v";
  const auto b = s.find_first_not_of(ws);
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(ws) - b + 1);
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

util::Result<CatalogListing> read_redis_catalog(const std::string& host_port, const std::string& store_dir,
                                                const std::string& cluster_id) {
  MQ_ASSIGN_OR_RETURN(HostPort endpoint, parse_host_port(host_port, "--redis"));
  const char* env = std::getenv("MC_STORE_CLUSTER_ID");
  const std::string env_id = env == nullptr ? "" : env;
  const RedisCatalogKeys keys = redis_catalog_keys(cluster_id, env_id);
  timeval timeout{2, 0};
  std::unique_ptr<redisContext, ContextDeleter> ctx(
      redisConnectWithTimeout(endpoint.host.c_str(), endpoint.port, timeout));
  if (!ctx || ctx->err != 0) {
    return Status::unavailable("Redis " + host_port + ": " + (ctx ? std::string(ctx->errstr) : "cannot allocate"));
  }
  redisSetTimeout(ctx.get(), timeval{5, 0});
  CatalogListing out;
  out.root = snapshot_root(store_dir, resolve_namespace(cluster_id, env_id));

  ReplyPtr list(
      static_cast<redisReply*>(redisCommand(ctx.get(), "ZREVRANGE %b 0 -1", keys.index.data(), keys.index.size())));
  if (!list) return Status::unavailable("Redis " + host_port + ": ZREVRANGE failed: " + ctx->errstr);
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
    if (!read_descriptor(out.root + id).ok()) {
      out.findings.push_back({model::Severity::warning, out.root + id,
                              "listed in " + keys.index + " but its descriptor is missing or unparsable (skipped)"});
      continue;
    }
    out.listed.push_back(std::move(id));
  }

  ReplyPtr latest(static_cast<redisReply*>(redisCommand(ctx.get(), "GET %b", keys.latest.data(), keys.latest.size())));
  if (!latest) return Status::unavailable("Redis " + host_port + ": GET failed: " + ctx->errstr);
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
  auto descriptor = read_descriptor(out.root + id);
  if (!descriptor.ok()) {
    out.latest_error =
        "latest snapshot " + id + ": descriptor: " + descriptor.status().message() + " (PERSISTENT_FAIL)";
    return out;
  }
  out.latest = id;
  return out;
}

}  // namespace moonquota::source
