#include "source/policy_etcd.hpp"

#include "source/etcd_gateway.hpp"

namespace moonquota::source {

util::Result<std::string> policy_etcd_key(const std::string& cluster_id) {
  std::string id = cluster_id.empty() ? "mooncake_cluster" : cluster_id;
  while (!id.empty() && id.back() == '/') id.pop_back();
  bool valid = !id.empty() && id.size() <= 128;
  for (char c : id) {
    valid = valid && ((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' ||
                      c == '.' || c == '-');
  }
  if (!valid) {
    return util::Status::refused("cluster id '" + cluster_id +
                                 "' is not valid for the etcd policy connector: the master does not start");
  }
  return "mooncake-store/" + id + "/tenant_quota_policy";
}

util::Result<PolicyText> read_policy_etcd(const std::string& host_port, const std::string& cluster_id,
                                          const util::NetConfig& net) {
  MQ_ASSIGN_OR_RETURN(std::string key, policy_etcd_key(cluster_id));
  MQ_ASSIGN_OR_RETURN(HostPort endpoint, parse_host_port(host_port, "--policy-etcd"));
  EtcdOptions options;
  options.net = net;
  EtcdGateway gateway(endpoint, options);
  MQ_ASSIGN_OR_RETURN(auto value, gateway.get(key));
  return PolicyText{std::move(key), std::move(value)};
}

}  // namespace moonquota::source
