// The Redis snapshot catalog (snapshot-format.md §2.11). Snapshot objects stay in the object
// store (--store); only the latest pointer and the list live in Redis:
//   mooncake-store/{<ns>}/snapshot/latest   STRING  "<snapshot_id>" (trimmed, validated on read)
//   mooncake-store/{<ns>}/snapshot/index    ZSET    member = id, score = id without '_'
// <ns> = the cluster id (empty: $MC_STORE_CLUSTER_ID, then "mooncake_cluster") with one trailing
// '/' dropped and every '{' and '}' replaced by '_'; the braces around it are literal hash tags.
// GetLatest: GET latest, trim, validate, load the descriptor (missing: PERSISTENT_FAIL).
// List: ZREVRANGE index 0 -1; invalid ids and ids without a readable descriptor are skipped.
#pragma once

#include <string>

#include "source/embedded_catalog.hpp"
#include "util/net_config.hpp"
#include "util/status.hpp"

namespace moonquota::source {

struct RedisCatalogKeys {
  std::string latest;
  std::string index;
};

// The namespace resolution and key names above. `env_cluster_id` is $MC_STORE_CLUSTER_ID.
[[nodiscard]] RedisCatalogKeys redis_catalog_keys(const std::string& cluster_id, const std::string& env_cluster_id);

// Reads the catalog from Redis at `host_port`; descriptors from `store` under `store_dir`.
// Up to 3 attempts (backoff 100 ms, doubled) on transport failures, each reported on net's hook.
// Errors: unavailable (Redis unreachable, timed out, reset, a reply of the wrong type; the
// message says which and how many attempts), invalid_argument (HOST:PORT).
[[nodiscard]] util::Result<CatalogListing> read_redis_catalog(ObjectStore& store, const std::string& host_port,
                                                              const std::string& store_dir,
                                                              const std::string& cluster_id,
                                                              const util::NetConfig& net = {});

}  // namespace moonquota::source
