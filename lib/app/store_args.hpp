// The store-selection flags every tool that reads a snapshot store takes (--store, --snapshot-dir,
// --cluster-id, --snapshot, --catalog, --redis, --restore-time, --max-payload-bytes and the --s3-*
// flags), and their rules, decided here once: which flags exclude which, which one a source needs,
// and where an s3:// location points.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "app/s3_settings.hpp"
#include "restore/restore_path.hpp"
#include "source/object_store.hpp"
#include "util/net_config.hpp"
#include "util/status.hpp"

namespace moonquota::app {

// As given (nullopt: not given; the defaults are those of restore::StoreSelection).
struct StoreArgs {
  std::optional<std::string> store;         // --store: a store's base directory or s3:// URL
  std::optional<std::string> snapshot_dir;  // --snapshot-dir: one snapshot directory
  std::optional<std::string> cluster_id;
  std::optional<std::string> snapshot;      // an id or "latest"
  std::optional<std::string> catalog;       // embedded | redis
  std::optional<std::string> redis;         // HOST:PORT of the redis catalog
  std::optional<std::string> restore_time;  // now | ms since the epoch (default now)
  std::optional<std::size_t> max_payload_bytes;
  S3Args s3;
};

// What the command reading the store allows.
struct StoreRules {
  bool source_required = true;  // one of --store or --snapshot-dir must be given
  // --cluster-id also names the cluster of an OpLog read beside the store, so --snapshot-dir
  // (which has no cluster level) takes it.
  bool cluster_names_oplog = false;
};

struct ResolvedStore {
  restore::StoreSelection selection;  // s3:// locations resolved; selection.net is the caller's
  S3Settings s3;
  std::uint64_t restore_time_ms = 0;
  std::optional<std::size_t> max_payload_bytes;
};

// Applies the rules: --store and --snapshot-dir exclude each other; --snapshot-dir takes no
// --snapshot, --catalog or --redis (nor --cluster-id unless it names an OpLog's cluster); --redis
// needs --catalog redis and --catalog redis needs --redis; --restore-time parses. `net_log` is the
// S3 client's logging hook. Errors: invalid_argument (usage), naming the flag.
[[nodiscard]] util::Result<ResolvedStore> resolve_store_args(const StoreArgs& args, const StoreRules& rules,
                                                             const util::NetLog& net_log);

// "now" -> the current UTC ms; "+30s" -> 30 s after it (util/span_text.hpp, at most 100 years);
// otherwise a decimal ms value. Errors: invalid_argument.
[[nodiscard]] util::Result<std::uint64_t> parse_restore_time(const std::string& text);

// The store holding the selection (its --snapshot-dir, else its --store).
[[nodiscard]] std::unique_ptr<source::ObjectStore> open_selected_store(const ResolvedStore& resolved);

}  // namespace moonquota::app
