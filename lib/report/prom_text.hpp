// Prometheus text exposition pieces shared by the textfile renderers (report/rebuild/rebuild_prom,
// report/reconcile/reconcile_prom).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>

namespace moonquota::report {

// The "# HELP <prefix><name> <help>" and "# TYPE <prefix><name> gauge" lines of one gauge family.
void gauge_family(std::ostream& out, std::string_view prefix, std::string_view name, std::string_view help);

// Milliseconds as seconds with three decimals, signed ("-1.250").
[[nodiscard]] std::string prom_seconds(std::int64_t ms);

// The outcome of one run of a check (a quota-reconcile audit, a quota-rebuild check).
struct RunFacts {
  std::uint64_t run_at_ms = 0;  // when the run ran (sampled the master, read the store)
  bool success = false;
  int exit_code = 5;
  std::string error;      // when !success
  std::string_view what;  // help text: what a success did, e.g. "compared metadata with the live master"
};

// The run's facts under the names every moonquota exposition shares (one-shot textfiles and
// `quota-reconcile serve` alike, so rules need no unions): <prefix>last_run_timestamp_seconds,
// last_run_success (1/0), last_run_exit_code, last_success_timestamp_seconds (a success only) and
// last_error_info{exit_code,message} 1 (a failure only; a message that is not UTF-8 keeps its
// ASCII, '?' for every other byte). Then the names of earlier releases, kept for one more:
// run_success, exit_code, error{message}.
void run_facts(std::ostream& out, std::string_view prefix, const RunFacts& run, const std::string& cluster);

}  // namespace moonquota::report
