#include "source/oplog_source.hpp"

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>

#include "source/etcd_gateway.hpp"
#include "source/oplog_keys.hpp"
#include "util/atomic_file.hpp"
#include "util/file_reader.hpp"

namespace moonquota::source {

namespace {

using nlohmann::json;
using util::Status;

util::Result<std::string> root_for(const std::string& cluster_id) {
  auto root = oplog_root(cluster_id);
  if (!root) {
    return Status::invalid_argument("cluster id '" + cluster_id +
                                    "' is not valid for OpLog keys (1-128 characters of [A-Za-z0-9_.-])");
  }
  return *root;
}

Status sort_and_check(OpLogKeySet& set) {
  std::sort(set.kvs.begin(), set.kvs.end(), [](const KeyValue& a, const KeyValue& b) { return a.key < b.key; });
  for (std::size_t i = 1; i < set.kvs.size(); ++i) {
    if (set.kvs[i].key == set.kvs[i - 1].key) {
      return Status::corruption(set.origin + ": key '" + set.kvs[i].key + "' appears twice");
    }
  }
  return {};
}

constexpr std::string_view k_oplog_prefix = "/oplog/";

// Records the cluster id of an OpLog key outside the chosen root ("/oplog/<id>/...").
void note_other_cluster(const std::string& key, std::vector<std::string>& clusters) {
  if (key.rfind(k_oplog_prefix, 0) != 0) return;
  const std::size_t slash = key.find('/', k_oplog_prefix.size());
  if (slash == std::string::npos) return;
  std::string id = key.substr(k_oplog_prefix.size(), slash - k_oplog_prefix.size());
  auto at = std::lower_bound(clusters.begin(), clusters.end(), id);
  if (at != clusters.end() && *at == id) return;
  if (clusters.size() >= k_max_other_clusters) return;
  clusters.insert(at, std::move(id));
}

}  // namespace

util::Result<OpLogKeySet> read_oplog_export_file(const std::string& path, const std::string& cluster_id,
                                                 const OpLogReadLimits& limits) {
  MQ_ASSIGN_OR_RETURN(std::string root, root_for(cluster_id));
  MQ_ASSIGN_OR_RETURN(std::string text, util::read_small_file(path, limits.max_total_bytes * 2));
  OpLogKeySet set;
  set.origin = "file " + path;
  set.root = root;
  std::size_t pos = 0;
  std::uint64_t line_number = 0;
  std::uint64_t bytes = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + pos, end - pos);
    pos = end + 1;
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    const std::string where = path + " line " + std::to_string(line_number);
    json object = json::parse(line, nullptr, false);
    if (object.is_discarded() || !object.is_object()) return Status::corruption(where + ": not a JSON object");
    auto k = object.find("key");
    auto v = object.find("value");
    if (k == object.end() || !k->is_string() || v == object.end() || !v->is_string()) {
      return Status::corruption(where + ": needs string members \"key\" and \"value\"");
    }
    std::string key = k->get<std::string>();
    if (key.rfind(root, 0) != 0) {
      ++set.outside_root;
      note_other_cluster(key, set.other_clusters);
      continue;
    }
    bytes += key.size() + v->get_ref<const std::string&>().size();
    if (bytes > limits.max_total_bytes || set.kvs.size() >= limits.max_keys) {
      return Status::limit_exceeded(where + ": the export exceeds the read limit");
    }
    set.kvs.push_back({std::move(key), v->get<std::string>()});
  }
  if (set.outside_root > 0) {
    set.findings.push_back({model::Severity::warning, path,
                            std::to_string(set.outside_root) + " lines hold keys outside " + root + " (ignored)"});
  }
  MQ_RETURN_IF_ERROR(sort_and_check(set));
  return set;
}

util::Result<OpLogKeySet> read_oplog_etcd(const std::string& host_port, const std::string& cluster_id,
                                          const OpLogReadLimits& limits, const util::NetConfig& net) {
  MQ_ASSIGN_OR_RETURN(std::string root, root_for(cluster_id));
  MQ_ASSIGN_OR_RETURN(HostPort endpoint, parse_host_port(host_port, "--oplog-etcd"));
  EtcdOptions options;
  options.net = net;
  EtcdGateway gateway(endpoint, options);
  OpLogKeySet set;
  set.origin = "etcd " + gateway.name();
  set.root = root;
  MQ_ASSIGN_OR_RETURN(set.kvs, gateway.range_prefix(root, limits.max_total_bytes, limits.max_keys));
  if (set.kvs.empty()) {
    // Which cluster ids exist instead: one key per cluster, skipping over each cluster's range.
    std::string from = std::string(k_oplog_prefix);
    const std::string end = std::string(k_oplog_prefix.substr(0, k_oplog_prefix.size() - 1)) + "0";
    while (set.other_clusters.size() < k_max_other_clusters) {
      MQ_ASSIGN_OR_RETURN(RangePage page, gateway.range(from, end, 1, 0));
      if (page.kvs.empty()) break;
      const std::string& key = page.kvs.front().key;
      const std::size_t slash = key.find('/', k_oplog_prefix.size());
      if (slash == std::string::npos) break;  // a key directly under /oplog/: nothing follows it in a cluster
      set.other_clusters.push_back(key.substr(k_oplog_prefix.size(), slash - k_oplog_prefix.size()));
      from = key.substr(0, slash) + "0";  // '0' follows '/': past every key of this cluster
    }
  }
  MQ_RETURN_IF_ERROR(sort_and_check(set));
  return set;
}

util::Result<std::string> format_oplog_export(const std::vector<KeyValue>& kvs) {
  std::string out;
  for (const auto& kv : kvs) {
    try {
      out += json{{"key", kv.key}, {"value", kv.value}}.dump();
    } catch (const json::exception&) {
      return Status::invalid_argument("key '" + kv.key + "': key or value is not valid UTF-8 and cannot be exported");
    }
    out += '\n';
  }
  return out;
}

util::Status write_oplog_export_file(const std::string& path, const std::vector<KeyValue>& kvs) {
  MQ_ASSIGN_OR_RETURN(std::string text, format_oplog_export(kvs));
  return util::write_file_atomically(path, text);
}

util::Status write_oplog_etcd(const std::string& host_port, const std::string& cluster_id,
                              const std::vector<KeyValue>& kvs, const util::NetConfig& net) {
  MQ_ASSIGN_OR_RETURN(std::string root, root_for(cluster_id));
  MQ_ASSIGN_OR_RETURN(HostPort endpoint, parse_host_port(host_port, "--oplog-etcd"));
  EtcdOptions options;
  options.net = net;
  EtcdGateway gateway(endpoint, options);
  MQ_RETURN_IF_ERROR(gateway.delete_prefix(root));
  for (const auto& kv : kvs) MQ_RETURN_IF_ERROR(gateway.put(kv.key, kv.value));
  return {};
}

util::Result<OpLogKeySet> read_oplog(const OpLogSelection& oplog, const std::string& cluster_id) {
  if (!oplog.file.empty()) return read_oplog_export_file(oplog.file, cluster_id);
  return read_oplog_etcd(oplog.etcd, cluster_id, {}, oplog.net);
}

}  // namespace moonquota::source
