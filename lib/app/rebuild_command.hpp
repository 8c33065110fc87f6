// quota-rebuild's command: the flags as given -> the rebuild request (defaults and conflicts
// decided here), then the account table a master serves and the exit decision. quota-reconcile
// reads its metadata side through the same plan.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "app/store_args.hpp"
#include "quota/rebuild.hpp"
#include "util/net_config.hpp"
#include "util/status.hpp"

namespace moonquota::app {

// As given (nullopt: not given).
struct RebuildArgs {
  StoreArgs store;
  std::optional<std::string> policy;       // --policy FILE
  std::optional<std::string> policy_etcd;  // --policy-etcd HOST:PORT
  std::string oplog_etcd;                  // --oplog-etcd HOST:PORT
  std::string oplog_file;                  // --oplog-file FILE
  std::optional<std::uint64_t> until_seq;
  std::optional<std::string> capacity;   // auto | failover | BYTES (default by path)
  std::string lease_model = "upstream";  // upstream | keep
  std::optional<std::string> path;       // restore | promote (default: promote with an OpLog)
  bool fixed_master = false;
  std::optional<std::string> expect;                         // --expect FILE
  std::optional<std::string> explain;                        // --explain TENANT
  std::size_t explain_top = restore::k_default_explain_top;  // --explain-top N
  // Connect and read timeout of etcd, Redis (and quota-reconcile's master); the connect part
  // may be set alone.
  std::uint32_t timeout_ms = util::k_default_timeout_ms;
  std::optional<std::uint32_t> connect_timeout_ms;
  unsigned threads = 0;  // 0: all cores
  util::NetLog net_log;  // the caller's logging of network attempts (may be empty)
};

// The request, and the store it reads (resolved once).
struct RebuildPlan {
  quota::RebuildRequest request;
  std::optional<std::string> expect_file;  // --expect
  ResolvedStore store;
  util::NetConfig net;  // timeouts and logging of every service the run calls
};

// The timeouts (--timeout-ms, --connect-timeout-ms) and logging of every service the flags name.
[[nodiscard]] util::NetConfig net_config_of(const RebuildArgs& args);

// The rules: --path restore reads no OpLog and needs a store; --path promote needs an OpLog;
// the store rules (store_args.hpp; --cluster-id names the OpLog's cluster when one is given);
// capacity defaults to failover on the promote path, auto on the restore path. Errors:
// invalid_argument (usage).
[[nodiscard]] util::Result<RebuildPlan> plan_rebuild(const RebuildArgs& args);

struct RebuildOutcome {
  quota::RebuildResult result;
  int exit_code = 0;  // 1 when the master would start with EMPTY metadata, or the table differs from --expect
};

// Opens the plan's store and rebuilds; with --expect, compares the table with the file's.
// Errors: those of quota::run_rebuild; the expected file's (not found, unreadable, bad: exit 3).
[[nodiscard]] util::Result<RebuildOutcome> run_rebuild_command(const RebuildPlan& plan);

}  // namespace moonquota::app
