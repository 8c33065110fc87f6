#include "app/doctor_command.hpp"

#include <algorithm>

#include "app/exit_codes.hpp"
#include "reconcile/master_client.hpp"
#include "reconcile/tenant_list.hpp"
#include "source/embedded_catalog.hpp"
#include "source/etcd_gateway.hpp"
#include "source/oplog_keys.hpp"
#include "source/policy_etcd.hpp"
#include "source/redis_catalog.hpp"
#include "source/s3_url.hpp"
#include "util/text_encoding.hpp"

namespace moonquota::app {

namespace {

using util::Status;

constexpr std::size_t k_clusters_described = 8;  // a wrong --cluster-id: the clusters present, with snapshots

DoctorCheck failed(std::string name, std::string target, const Status& status, std::string hint) {
  return {std::move(name), std::move(target), false, exit_code_for(status), status.message(), std::move(hint)};
}

DoctorCheck passed(std::string name, std::string target, std::string detail) {
  return {std::move(name), std::move(target), true, 0, std::move(detail), {}};
}

std::string joined(const std::set<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + util::printable(n);
  return out;
}

std::string snapshots_phrase(const source::CatalogListing& listing) {
  std::string text =
      std::to_string(listing.listed.size()) + " published snapshot" + (listing.listed.size() == 1 ? "" : "s");
  if (!listing.listed.empty()) {
    text += " (newest " + listing.listed.front() + ", oldest " + listing.listed.back() + ")";
  }
  text += listing.latest ? "; latest " + *listing.latest
                         : "; no latest" + (listing.latest_error.empty() ? "" : " (" + listing.latest_error + ")");
  return text;
}

void check_store(const AuditArgs& a, const ResolvedStore& resolved, std::vector<DoctorCheck>& out) {
  const auto& sel = resolved.selection;
  const auto store = open_selected_store(resolved);
  if (!sel.snapshot_dir.empty()) {
    auto descriptor = source::read_descriptor(*store, sel.snapshot_dir);
    if (!descriptor.ok()) {
      out.push_back(failed("store", sel.snapshot_dir, descriptor.status(),
                           "--snapshot-dir names one snapshot's directory (holding manifest.txt, metadata, "
                           "descriptor.txt)"));
    } else {
      out.push_back(passed("store", sel.snapshot_dir,
                           "descriptor.txt read: created_at_ms " + std::to_string(descriptor->created_at_ms)));
    }
    return;
  }
  auto ids = source::cluster_ids_in_store(*store, sel.store_dir);
  if (!ids.ok()) {
    out.push_back(failed("store", sel.store_dir, ids.status(),
                         source::is_s3_url(sel.store_dir)
                             ? "check the S3 endpoint, bucket and credentials (--s3-endpoint, MOONCAKE_AWS_*)"
                             : "--store names the folder that holds mooncake_master_snapshot/"));
    return;
  }
  if (ids->empty()) {
    out.push_back(failed(
        "store", sel.store_dir,
        Status::not_found("no cluster under '" + source::snapshot_root(sel.store_dir, "") + "'"),
        "--store names the folder that holds mooncake_master_snapshot/" + source::doubled_root_hint(sel.store_dir)));
    return;
  }
  out.push_back(passed("store", sel.store_dir, "cluster ids: " + joined(*ids)));
  const std::string root = source::snapshot_root(sel.store_dir, sel.cluster_id);
  if (ids->count(sel.cluster_id) == 0) {
    // Each cluster present with its snapshots, so the right --cluster-id (and --snapshot) can be chosen.
    std::string present;
    std::size_t shown = 0;
    for (const auto& id : *ids) {
      if (++shown > k_clusters_described) {
        present += "; ...";
        break;
      }
      auto listing = source::read_embedded_catalog(*store, sel.store_dir, id);
      present += (present.empty() ? "" : "; ") + util::printable(id) + ": " +
                 (listing.ok() ? snapshots_phrase(*listing) : listing.status().message());
    }
    out.push_back(failed(
        "cluster", root, Status::not_found("no cluster '" + sel.cluster_id + "' in the store"),
        "give --cluster-id " + (ids->size() == 1 ? *ids->begin() : "one of: " + joined(*ids)) + " (" + present + ")"));
    return;
  }
  const bool redis = a.metadata.store.catalog.value_or("embedded") == "redis";
  auto listing = redis ? source::read_redis_catalog(*store, sel.redis, sel.store_dir, sel.cluster_id, sel.net)
                       : source::read_embedded_catalog(*store, sel.store_dir, sel.cluster_id);
  const std::string catalog = redis ? "catalog (redis)" : "catalog";
  const std::string target = redis ? sel.redis : root + "latest.txt";
  if (!listing.ok()) {
    out.push_back(failed(catalog, target, listing.status(),
                         redis ? "check --redis HOST:PORT and that the master's catalog lives there" : ""));
    return;
  }
  if (listing->listed.empty()) {
    out.push_back(failed(catalog, target, Status::not_found("no published snapshot: a restore starts EMPTY"),
                         "a master publishes a snapshot every --snapshot_interval_seconds"));
    return;
  }
  out.push_back(passed(catalog, target, snapshots_phrase(*listing)));
}

void check_master(const std::string& url, const util::NetConfig& net, std::vector<DoctorCheck>& out) {
  auto address = reconcile::parse_master_url(url);
  if (!address.ok()) {
    out.push_back(failed("master", url, address.status(), "--master http://HOST[:PORT] (admin port, default 9003)"));
    return;
  }
  reconcile::MasterClient client(*address, {net.connect_timeout_ms, net.read_timeout_ms}, 64ull << 20, net.log);
  const std::string list_path = "/api/v1/tenant_quotas";
  auto list = client.get(list_path);
  if (!list.ok()) {
    out.push_back(failed("master", address->display + list_path, list.status(),
                         "is the master running, and is this its admin/metrics port (default 9003)?"));
    return;
  }
  if (list->status == 503) {
    out.push_back(failed("master", address->display + list_path,
                         Status::unavailable("HTTP 503: not the serving leader (a standby, or the master is starting)"),
                         "give every replica of the cell as --master: the audit moves on to the leader"));
  } else if (list->status != 200) {
    out.push_back(failed("master", address->display + list_path,
                         Status::unavailable("HTTP " + std::to_string(list->status)),
                         "an admin port answers 200 with the tenant list"));
    return;
  } else {
    auto tenants = reconcile::parse_tenant_list_response(list->status, list->body);
    if (!tenants.ok()) {
      out.push_back(failed("master", address->display + list_path, tenants.status(),
                           "this port does not answer as a Mooncake master's admin port"));
    } else {
      out.push_back(
          passed("master", address->display + list_path,
                 "HTTP 200, " + std::to_string(tenants->size()) + " tenant" + (tenants->size() == 1 ? "" : "s")));
    }
  }
  auto metrics = client.get("/metrics");
  if (!metrics.ok() || metrics->status != 200) {
    out.push_back(
        failed("master metrics", address->display + "/metrics",
               metrics.ok() ? Status::unavailable("HTTP " + std::to_string(metrics->status)) : metrics.status(),
               "without /metrics, run the audit with --no-metrics"));
    return;
  }
  out.push_back(passed("master metrics", address->display + "/metrics",
                       "HTTP 200, " + std::to_string(metrics->body.size()) + " bytes"));
}

void check_etcd_policy(const std::string& host_port, const std::string& cluster_id, const util::NetConfig& net,
                       std::vector<DoctorCheck>& out) {
  auto key = source::policy_etcd_key(cluster_id);
  auto endpoint = source::parse_host_port(host_port, "--policy-etcd");
  if (!key.ok() || !endpoint.ok()) {
    out.push_back(failed("etcd policy", host_port, key.ok() ? endpoint.status() : key.status(), ""));
    return;
  }
  source::EtcdOptions options;
  options.net = net;
  source::EtcdGateway etcd(*endpoint, options);
  auto value = etcd.get(*key);
  if (!value.ok()) {
    out.push_back(failed("etcd policy", etcd.name() + " " + *key, value.status(),
                         "check --policy-etcd HOST:PORT (etcd's client port, its v3 JSON gateway)"));
  } else if (!*value) {
    out.push_back(passed("etcd policy", etcd.name() + " " + *key,
                         "no such key: the master serves an empty policy (every tenant with objects is an orphan)"));
  } else {
    out.push_back(passed("etcd policy", etcd.name() + " " + *key, std::to_string((*value)->size()) + " bytes"));
  }
}

void check_etcd_oplog(const std::string& host_port, const std::string& cluster_id, const util::NetConfig& net,
                      std::vector<DoctorCheck>& out) {
  const auto root = source::oplog_root(cluster_id);
  auto endpoint = source::parse_host_port(host_port, "--oplog-etcd");
  if (!root || !endpoint.ok()) {
    out.push_back(failed(
        "etcd oplog", host_port,
        root ? endpoint.status() : Status::invalid_argument("cluster id '" + cluster_id + "' names no OpLog keys"),
        ""));
    return;
  }
  source::EtcdOptions options;
  options.net = net;
  source::EtcdGateway etcd(*endpoint, options);
  const std::string key = *root + "durable_prefix";
  auto value = etcd.get(key);
  if (!value.ok()) {
    out.push_back(failed("etcd oplog", etcd.name() + " " + key, value.status(),
                         "check --oplog-etcd HOST:PORT (etcd's client port, its v3 JSON gateway)"));
  } else if (!*value) {
    out.push_back(failed("etcd oplog", etcd.name() + " " + key,
                         Status::not_found("no durable prefix: no OpLog for cluster '" + cluster_id + "'"),
                         "check --cluster-id: the OpLog lives under /oplog/<cluster-id>/"));
  } else {
    out.push_back(passed("etcd oplog", etcd.name() + " " + key, "durable prefix " + util::printable(**value)));
  }
}

}  // namespace

util::Result<DoctorReport> run_doctor(const AuditArgs& a) {
  const auto& m = a.metadata;
  if (!m.store.store && !m.store.snapshot_dir && a.live.master.empty() && !m.policy_etcd && m.oplog_etcd.empty()) {
    return Status::invalid_argument(
        "doctor checks what the audit's flags name: give --store, --master, --policy-etcd or --oplog-etcd");
  }
  StoreRules rules;
  rules.source_required = false;
  rules.cluster_names_oplog = !m.oplog_etcd.empty();
  MQ_ASSIGN_OR_RETURN(ResolvedStore resolved, resolve_store_args(m.store, rules, m.net_log));
  const util::NetConfig net = net_config_of(m);
  resolved.selection.net = net;
  DoctorReport report;
  if (m.store.store || m.store.snapshot_dir) check_store(a, resolved, report.checks);
  for (const auto& url : a.live.master) check_master(url, net, report.checks);
  const std::string& cluster = resolved.selection.cluster_id;
  if (m.policy_etcd) check_etcd_policy(*m.policy_etcd, cluster, net, report.checks);
  if (!m.oplog_etcd.empty()) check_etcd_oplog(m.oplog_etcd, cluster, net, report.checks);
  return report;
}

}  // namespace moonquota::app
