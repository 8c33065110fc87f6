// `oplog-inspect lag` (docs/cli/oplog-inspect.md, "lag"): where the primary, etcd, the standby and
// the latest snapshot stand (reconcile/lag_positions.hpp), read from the OpLog (etcd or an
// export), the store, and the masters' /metrics (a URL or a saved file), and the gates a failover
// script asks ("is it safe now?").
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

#include "app/store_args.hpp"
#include "reconcile/lag_positions.hpp"
#include "report/output_format.hpp"
#include "util/net_config.hpp"
#include "util/status.hpp"

namespace moonquota::app {

struct LagArgs {
  std::string cluster_id = "mooncake_cluster";
  std::string oplog_etcd, oplog_file;    // D
  StoreArgs store;                       // S (optional: --store or --snapshot-dir)
  std::string standby, standby_metrics;  // A: a URL, or a saved /metrics file
  std::string primary, primary_metrics;  // P (perf builds), and D as the primary reports it
  reconcile::LagGates gates;
  std::string db;                              // --db: the history store the samples go to (the seconds); empty: none
  std::string history_cluster;                 // the samples' cluster in --db (default: cluster_id)
  std::optional<std::uint64_t> sampled_at_ms;  // --sampled-at: saved inputs only (default: now)
  std::uint32_t timeout_ms = util::k_default_timeout_ms;
  report::OutputFormat format = report::OutputFormat::text;
  util::NetLog net_log;
};

struct LagOutcome {
  reconcile::LagReport report;
  int exit_code = 0;  // 1: a gate is broken
};

// How far back the samples of --db are read: an age beyond it is "more than" this.
inline constexpr std::uint64_t k_lag_history_ms = 7ULL * 24 * 3600 * 1000;

// Reads every position it was given a source for (the OpLog is required); with --db records them
// as a sample and tells the windows' ages from the samples. Errors: invalid_argument (usage: no
// OpLog, a URL and a file for one master, --max-catch-up-seconds without --db, --sampled-at with
// a live source), those of reading the OpLog, the store and the /metrics (unavailable for a master
// that cannot be reached: exit 4, a failover script must not read an unreachable standby as caught
// up), and the history's (io_error, corruption).
[[nodiscard]] util::Result<LagOutcome> run_lag(const LagArgs& args);

}  // namespace moonquota::app
