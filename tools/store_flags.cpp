#include "store_flags.hpp"

#include "s3_flags.hpp"
#include "tool_common.hpp"

namespace moonquota::tools {

void add_store_flags(CLI::App& app, app::StoreArgs& a) {
  app.add_option("--store", a.store,
                 "Snapshot object-store base directory, or s3://BUCKET[/PREFIX] (excludes --snapshot-dir)");
  app.add_option("--snapshot-dir", a.snapshot_dir, "One snapshot directory instead of a store");
  app.add_option("--cluster-id", a.cluster_id,
                 "Cluster id (default mooncake_cluster; with --snapshot-dir only the cluster of an OpLog)");
  app.add_option("--snapshot", a.snapshot, "Snapshot id or 'latest' (default: the master's first candidate)");
  app.add_option("--catalog", a.catalog, "Snapshot catalog: embedded (default) | redis")
      ->check(CLI::IsMember({"embedded", "redis"}));
  app.add_option("--redis", a.redis, "Redis HOST:PORT of the redis catalog");
  app.add_option("--restore-time", a.restore_time,
                 "now | +DELAY (+30s: that long after now) | MS: the instant used for lease expiry (default now)")
      ->type_name("TIME");
  app.add_option("--max-payload-bytes", a.max_payload_bytes,
                 "Memory guard: largest decompressed payload or shard accepted (default 1 GiB)");
  add_s3_flags(app, a.s3);
}

void add_rebuild_flags(CLI::App& app, app::RebuildArgs& a) {
  add_store_flags(app, a.store);
  app.add_option("--policy", a.policy, "Tenant quota policy YAML (version 1)");
  app.add_option("--policy-etcd", a.policy_etcd, "Read the policy YAML from etcd HOST:PORT (excludes --policy)");
  app.add_option("--oplog-etcd", a.oplog_etcd, "Read the OpLog from etcd HOST:PORT");
  app.add_option("--oplog-file", a.oplog_file, "Read the OpLog from an export file (excludes --oplog-etcd)");
  app.add_option("--until-seq", a.until_seq, "Replay the OpLog only up to sequence N")->default_str("none");
  app.add_option("--capacity", a.capacity, "auto | failover | BYTES (default auto; failover on the promote path)");
  app.add_option("--lease-model", a.lease_model,
                 "upstream | keep: erase lease-expired objects at restore as upstream 3b5a5941 does (default), or "
                 "keep them (a master that ignores leases at restore)")
      ->check(CLI::IsMember({"upstream", "keep"}));
  app.add_option("--path", a.path, "Master code path to model: restore | promote (default promote with an OpLog)")
      ->check(CLI::IsMember({"restore", "promote"}));
  app.add_flag("--fixed-master", a.fixed_master,
               "Model a master with the non-OK segment unmount bug fixed (upstream 3b5a5941 rejects such snapshots)");
  auto* explain = app.add_option("--explain", a.explain,
                                 "One tenant's drill-down: the objects behind its charge, its writes in flight and "
                                 "what the restore drops, with the largest of each (restore path)")
                      ->type_name("TENANT");
  app.add_option("--explain-top", a.explain_top, "Objects listed per part of --explain (1 .. 1000)")
      ->default_str("10")
      ->check(CLI::Range(std::size_t{1}, restore::k_max_explain_top))
      ->needs(explain);
  app.add_option(
         "--timeout-ms", a.timeout_ms,
         "Connect and read timeout of each request to etcd or Redis (quota-reconcile: and to the master), in ms "
         "(default 5000)")
      ->check(CLI::Range(1u, 600000u));
  app.add_option("--connect-timeout-ms", a.connect_timeout_ms, "Connect timeout alone, in ms (default: --timeout-ms)")
      ->check(CLI::Range(1u, 600000u));
  a.net_log = net_log();
}

util::Result<app::RebuildArgs> parse_rebuild_words(const std::vector<std::string>& words) {
  CLI::App app{"quota-rebuild flags"};
  app::RebuildArgs args;
  add_rebuild_flags(app, args);
  std::vector<std::string> reversed(words.rbegin(), words.rend());  // CLI11 takes them last first
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& e) { return util::Status::invalid_argument(e.what()); }
  return args;
}

}  // namespace moonquota::tools
