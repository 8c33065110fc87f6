// The metadata-side flags of quota-rebuild and quota-reconcile (cli-contract.md shared input
// flags): one definition, so both tools accept the same sources with the same rules.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>

#include "quota/rebuild.hpp"
#include "s3_flags.hpp"
#include "util/net_config.hpp"
#include "util/status.hpp"

namespace moonquota::tools {

// Filled by CLI11, then turned into `request` by finish_rebuild_flags.
struct RebuildFlags {
  quota::RebuildRequest request;
  std::string policy;
  std::string policy_etcd;
  std::string capacity;  // default: auto (restore), failover (promote)
  std::string restore_time = "now";
  std::string lease_model = "upstream";  // --lease-model upstream | keep
  std::string path;                      // default: promote with an OpLog, else restore
  std::uint64_t until_seq = 0;
  CLI::Option* until = nullptr;
  CLI::Option* snapshot_dir = nullptr;
  CLI::Option* cluster_id = nullptr;
  CLI::Option* catalog = nullptr;
  CLI::Option* redis = nullptr;
  // --timeout-ms: connect and read timeout of etcd, Redis (and the master in quota-reconcile);
  // --connect-timeout-ms overrides the connect part.
  std::uint32_t timeout_ms = util::k_default_timeout_ms;
  std::optional<std::uint32_t> connect_timeout_ms;
  S3Flags s3;              // how s3:// stores are reached
  S3Settings s3_settings;  // the result of `s3`
  // The result: timeouts and the spdlog hook, also copied into request.selection and request.oplog.
  util::NetConfig net;
};

// --store --cluster-id --snapshot --snapshot-dir --catalog --redis --policy --policy-etcd
// --oplog-etcd --oplog-file --until-seq --capacity --restore-time --lease-model --path --fixed-master
// --max-payload-bytes --timeout-ms --connect-timeout-ms, and the --s3-* flags.
void add_rebuild_flags(CLI::App& app, RebuildFlags& flags);

// The post-parse rules: path default and consistency, a source is required, Redis needs an
// address and --redis needs --catalog redis, --snapshot-dir takes no catalog, capacity default by path, restore time
// and capacity parsed, threads (0 = all cores), the S3 settings built and s3:// locations
// resolved. Errors: invalid_argument (usage, exit 2).
[[nodiscard]] util::Status finish_rebuild_flags(RebuildFlags& flags, unsigned threads);

// The store the request's selection names (--snapshot-dir, else --store), after finish_rebuild_flags.
[[nodiscard]] std::unique_ptr<source::ObjectStore> open_selected_store(const RebuildFlags& flags);

}  // namespace moonquota::tools
