// The tenant quota policy from etcd (quota-semantics.md §9.3): key
// "mooncake-store/<cluster_id>/tenant_quota_policy" (no leading slash), value = the policy YAML.
// The cluster id is normalised (empty -> mooncake_cluster, trailing '/' stripped) and must match
// [0-9A-Za-z_.-]{1,128}, else the master does not start. A missing key is an empty policy.
#pragma once

#include <optional>
#include <string>

#include "util/net_config.hpp"
#include "util/status.hpp"

namespace moonquota::source {

// The key, or refused when the cluster id is invalid for the etcd connector.
[[nodiscard]] util::Result<std::string> policy_etcd_key(const std::string& cluster_id);

struct PolicyText {
  std::string key;
  std::optional<std::string> yaml;  // none: the key is missing (an empty policy)
};

// Errors: refused (cluster id), unavailable (etcd), invalid_argument (HOST:PORT).
[[nodiscard]] util::Result<PolicyText> read_policy_etcd(const std::string& host_port, const std::string& cluster_id,
                                                        const util::NetConfig& net = {});

}  // namespace moonquota::source
