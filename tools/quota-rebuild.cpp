// quota-rebuild: the account table a Mooncake master serves after restoring a snapshot store.
#include <spdlog/spdlog.h>

#include <iostream>
#include <sstream>

#include "quota/rebuild.hpp"
#include "report/rebuild_report.hpp"
#include "tool_common.hpp"
#include "util/thread_pool.hpp"

namespace mq = moonquota;
using mq::tools::k_exit_found;
using mq::tools::k_exit_ok;

int main(int argc, char** argv) {
  CLI::App app{"Predict the tenant quota account table a Mooncake master serves after restoring a snapshot store "
               "or after a hot-standby promotion (snapshot + OpLog tail)"};
  app.name("quota-rebuild");
  mq::tools::CommonFlags common;
  mq::quota::RebuildRequest request;
  std::string policy;
  std::string capacity;  // default: auto (restore), failover (promote)
  std::string restore_time = "now";
  std::string path;  // default: promote with an OpLog, else restore
  std::string policy_etcd;
  std::uint64_t until_seq = 0;
  auto* store = app.add_option("--store", request.selection.store_dir, "Snapshot object-store base directory");
  app.add_option("--cluster-id", request.selection.cluster_id, "Cluster id (default mooncake_cluster)");
  app.add_option("--snapshot", request.selection.snapshot, "Snapshot id or 'latest' (default)");
  auto* dir = app.add_option("--snapshot-dir", request.selection.snapshot_dir, "One snapshot directory");
  store->excludes(dir);
  dir->excludes("--snapshot")->excludes("--cluster-id");
  app.add_option("--catalog", request.selection.catalog, "Snapshot catalog: embedded (default) | redis")
      ->check(CLI::IsMember({"embedded", "redis"}));
  app.add_option("--redis", request.selection.redis, "Redis HOST:PORT of the redis catalog");
  auto* policy_file = app.add_option("--policy", policy, "Tenant quota policy YAML (version 1)");
  app.add_option("--policy-etcd", policy_etcd, "Read the policy YAML from etcd HOST:PORT")->excludes(policy_file);
  auto* oplog_etcd = app.add_option("--oplog-etcd", request.oplog.etcd, "Read the OpLog from etcd HOST:PORT");
  app.add_option("--oplog-file", request.oplog.file, "Read the OpLog from an export file")->excludes(oplog_etcd);
  auto* until = app.add_option("--until-seq", until_seq, "Replay the OpLog only up to sequence N");
  app.add_option("--capacity", capacity, "auto | failover | BYTES (default auto; failover on the promote path)");
  app.add_option("--restore-time", restore_time, "now | MS: the instant used for lease expiry");
  app.add_option("--path", path, "Master code path to model: restore | promote (default promote with an OpLog)")
      ->check(CLI::IsMember({"restore", "promote"}));
  app.add_flag("--fixed-master", request.restore.fixed_master,
               "Model a master with the non-OK segment unmount bug fixed (upstream 3b5a5941 rejects such snapshots)");
  app.add_option("--max-payload-bytes", request.restore.max_payload_bytes,
                 "Memory guard: largest decompressed payload or shard accepted (default 1 GiB)");
  mq::tools::add_common_flags(app, common, {"text", "json"});
  if (int rc = mq::tools::parse_command_line(app, argc, argv); rc >= 0) return rc;
  mq::tools::setup_logging(common);
  using mq::util::Status;
  if (path.empty()) path = request.oplog.given() ? "promote" : "restore";
  request.path = path == "promote" ? mq::quota::MasterPath::promote : mq::quota::MasterPath::restore;
  if (request.path == mq::quota::MasterPath::restore) {
    if (request.oplog.given() || until->count() > 0) {
      return mq::tools::fail("quota-rebuild", Status::invalid_argument("--path restore reads no OpLog: drop "
                                                                       "--oplog-etcd/--oplog-file/--until-seq"));
    }
    if (request.selection.store_dir.empty() && request.selection.snapshot_dir.empty()) {
      return mq::tools::fail("quota-rebuild", Status::invalid_argument("one of --store or --snapshot-dir is required"));
    }
  } else if (!request.oplog.given()) {
    return mq::tools::fail("quota-rebuild", Status::invalid_argument("--path promote needs --oplog-etcd or --oplog-file"));
  }
  if (request.selection.catalog == "redis" && request.selection.redis.empty()) {
    return mq::tools::fail("quota-rebuild", Status::invalid_argument("--catalog redis needs --redis HOST:PORT"));
  }
  if (until->count() > 0) request.replay.until_seq = until_seq;
  if (!policy_etcd.empty()) request.policy_etcd = policy_etcd;
  if (capacity.empty()) capacity = request.path == mq::quota::MasterPath::promote ? "failover" : "auto";
  auto when = mq::tools::parse_restore_time(restore_time);
  if (!when.ok()) return mq::tools::fail("quota-rebuild", when.status());
  auto cap = mq::quota::parse_capacity(capacity);
  if (!cap.ok()) return mq::tools::fail("quota-rebuild", cap.status());
  request.restore.restore_time_ms = *when;
  request.capacity = *cap;
  request.restore.threads = common.threads == 0 ? mq::util::default_thread_count() : common.threads;
  if (!policy.empty()) request.policy_file = policy;

  auto result = mq::quota::run_rebuild(request);
  if (!result.ok()) return mq::tools::fail("quota-rebuild", result.status());
  std::ostringstream text;
  if (common.format == "json") {
    text << mq::report::rebuild_report_json_text(*result);
  } else {
    mq::report::render_rebuild_text(*result, text);
  }
  if (auto s = mq::tools::emit_report(common, text.str()); !s.ok()) return mq::tools::fail("quota-rebuild", s);
  if (result->starts_empty()) {
    spdlog::warn("the master would start with EMPTY metadata: {}",
                 result->promote ? "promotion restore validation fails: " + result->promote->validation.failure
                                 : result->outcome.empty_reason);
    return k_exit_found;
  }
  return k_exit_ok;
}
