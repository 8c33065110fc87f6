#include "rebuild_flags.hpp"

#include "tool_common.hpp"
#include "util/thread_pool.hpp"

namespace moonquota::tools {

void add_rebuild_flags(CLI::App& app, RebuildFlags& f) {
  auto& r = f.request;
  auto* store = app.add_option("--store", r.selection.store_dir, "Snapshot object-store base directory");
  f.cluster_id =
      app.add_option("--cluster-id", r.selection.cluster_id, "Cluster id (with --snapshot-dir: the OpLog's cluster)");
  app.add_option("--snapshot", r.selection.snapshot, "Snapshot id or 'latest'");
  auto* dir = app.add_option("--snapshot-dir", r.selection.snapshot_dir, "One snapshot directory");
  store->excludes(dir);
  dir->excludes("--snapshot");
  f.snapshot_dir = dir;
  f.catalog = app.add_option("--catalog", r.selection.catalog, "Snapshot catalog: embedded | redis")
                  ->check(CLI::IsMember({"embedded", "redis"}));
  f.redis = app.add_option("--redis", r.selection.redis, "Redis HOST:PORT of the redis catalog");
  auto* policy_file = app.add_option("--policy", f.policy, "Tenant quota policy YAML (version 1)");
  app.add_option("--policy-etcd", f.policy_etcd, "Read the policy YAML from etcd HOST:PORT")->excludes(policy_file);
  auto* oplog_etcd = app.add_option("--oplog-etcd", r.oplog.etcd, "Read the OpLog from etcd HOST:PORT");
  app.add_option("--oplog-file", r.oplog.file, "Read the OpLog from an export file")->excludes(oplog_etcd);
  f.until = app.add_option("--until-seq", f.until_seq, "Replay the OpLog only up to sequence N")->default_str("none");
  app.add_option("--capacity", f.capacity, "auto | failover | BYTES (default auto; failover on the promote path)");
  app.add_option("--restore-time", f.restore_time, "now | MS: the instant used for lease expiry");
  app.add_option("--lease-model", f.lease_model,
                 "upstream | keep: erase lease-expired objects at restore as upstream 3b5a5941 does (default), or "
                 "keep them (a master that ignores leases at restore)")
      ->check(CLI::IsMember({"upstream", "keep"}));
  app.add_option("--path", f.path, "Master code path to model: restore | promote (default promote with an OpLog)")
      ->check(CLI::IsMember({"restore", "promote"}));
  app.add_flag("--fixed-master", r.restore.fixed_master,
               "Model a master with the non-OK segment unmount bug fixed (upstream 3b5a5941 rejects such snapshots)");
  app.add_option("--max-payload-bytes", r.restore.max_payload_bytes,
                 "Memory guard: largest decompressed payload or shard accepted (default 1 GiB)");
  app.add_option("--timeout-ms", f.timeout_ms,
                 "Connect and read timeout of each request to etcd, Redis or the master, in ms (default 5000)")
      ->check(CLI::Range(1u, 600000u));
  app.add_option("--connect-timeout-ms", f.connect_timeout_ms, "Connect timeout alone, in ms (default: --timeout-ms)")
      ->check(CLI::Range(1u, 600000u));
  add_s3_flags(app, f.s3);
}

util::Status finish_rebuild_flags(RebuildFlags& f, unsigned threads) {
  using util::Status;
  auto& r = f.request;
  MQ_ASSIGN_OR_RETURN(f.s3_settings, s3_settings_from_flags(f.s3));
  MQ_RETURN_IF_ERROR(resolve_store_location(r.selection.store_dir, f.s3_settings));
  MQ_RETURN_IF_ERROR(resolve_store_location(r.selection.snapshot_dir, f.s3_settings));
  if (f.path.empty()) f.path = r.oplog.given() ? "promote" : "restore";
  r.path = f.path == "promote" ? quota::MasterPath::promote : quota::MasterPath::restore;
  if (r.path == quota::MasterPath::restore) {
    if (r.oplog.given() || f.until->count() > 0) {
      return Status::invalid_argument("--path restore reads no OpLog: drop --oplog-etcd/--oplog-file/--until-seq");
    }
    if (r.selection.store_dir.empty() && r.selection.snapshot_dir.empty()) {
      return Status::invalid_argument("one of --store or --snapshot-dir is required");
    }
  } else if (!r.oplog.given()) {
    return Status::invalid_argument("--path promote needs --oplog-etcd or --oplog-file");
  }
  // With --snapshot-dir the cluster id names only the OpLog's cluster (the directory is read as is).
  if (f.snapshot_dir->count() > 0 && f.cluster_id->count() > 0 && !r.oplog.given()) {
    return Status::invalid_argument(
        "--cluster-id excludes --snapshot-dir, which reads that one snapshot directory (with an OpLog, "
        "--cluster-id names the OpLog's cluster)");
  }
  if (f.snapshot_dir->count() > 0 && (f.catalog->count() > 0 || f.redis->count() > 0)) {
    return Status::invalid_argument("--snapshot-dir reads one snapshot directory, no catalog: drop --catalog/--redis");
  }
  if (f.redis->count() > 0 && r.selection.catalog != "redis") {
    return Status::invalid_argument("--redis is read only with --catalog redis (the catalog is embedded by default)");
  }
  if (r.selection.catalog == "redis" && r.selection.redis.empty()) {
    return Status::invalid_argument("--catalog redis needs --redis HOST:PORT");
  }
  if (f.until->count() > 0) r.replay.until_seq = f.until_seq;
  if (!f.policy_etcd.empty()) r.policy_etcd = f.policy_etcd;
  if (f.capacity.empty()) f.capacity = r.path == quota::MasterPath::promote ? "failover" : "auto";
  auto when = parse_restore_time(f.restore_time);
  if (!when.ok()) return when.status();
  auto cap = quota::parse_capacity(f.capacity);
  if (!cap.ok()) return cap.status();
  r.restore.restore_time_ms = *when;
  r.restore.lease_model = restore::parse_lease_model(f.lease_model).value_or(restore::LeaseModel::upstream);
  r.capacity = *cap;
  r.restore.threads = threads == 0 ? util::default_thread_count() : threads;
  if (!f.policy.empty()) r.policy_file = f.policy;
  f.net.read_timeout_ms = f.timeout_ms;
  f.net.connect_timeout_ms = f.connect_timeout_ms.value_or(f.timeout_ms);
  f.net.log = net_log();
  r.selection.net = f.net;
  r.oplog.net = f.net;
  return {};
}

std::unique_ptr<source::ObjectStore> open_selected_store(const RebuildFlags& flags) {
  return open_store(restore::store_location(flags.request.selection), flags.s3_settings);
}

}  // namespace moonquota::tools
