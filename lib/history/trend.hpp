// Drift trends over the recorded runs of one model (live or restore: never mixed): a tenant whose
// unexplained remainder is outside tolerance with the same sign for K consecutive runs (its
// latest K, default 3) is `persistent`: a leak (live over) or a loss (live under), not traffic.
// Its rate is the least-squares slope of the remainder over run time across that streak, in bytes
// per hour (absent when the streak spans no time).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "history/repair_record.hpp"
#include "history/run_record.hpp"
#include "util/status.hpp"

namespace moonquota::history {

inline constexpr std::uint32_t k_default_persistence_runs = 3;

struct TrendPoint {
  std::uint64_t run_at_ms = 0;
  TenantPoint point;
};

struct TenantTrend {
  std::string tenant_id;
  std::vector<TrendPoint> points;  // oldest first, runs where the tenant appeared
  std::uint32_t streak_runs = 0;   // latest consecutive runs outside tolerance with one sign
  int streak_sign = 0;             // +1 live over, -1 live under, 0 none
  bool persistent = false;
  std::optional<double> rate_bytes_per_hour;  // rounded to whole bytes per hour
};

struct TrendTable {
  std::string model;  // the model whose runs were considered
  std::uint32_t persistence_runs = k_default_persistence_runs;
  std::vector<std::uint64_t> run_times_ms;  // every run considered, oldest first
  std::vector<TenantTrend> tenants;         // bytewise
  std::vector<RepairRecord> repairs;        // steps of applied repair plans in the same span, oldest first
  [[nodiscard]] const TenantTrend* find(const std::string& tenant_id) const;
};

// `runs` oldest first; only those recorded under `model` count. A tenant absent from a run (not in
// metadata nor live) breaks its streak.
[[nodiscard]] TrendTable analyse_trends(const std::vector<RunRecord>& runs, std::uint32_t persistence_runs,
                                        const std::string& model);

// The model of the newest run ("live" when there is none): what `history` shows by default.
[[nodiscard]] std::string latest_model(const std::vector<RunRecord>& runs);

// "--since": milliseconds since the epoch, or an age relative to `now_ms`: N followed by s, m, h
// or d ("90m", "24h", "7d"). Errors: invalid_argument.
[[nodiscard]] util::Result<std::uint64_t> parse_since(const std::string& text, std::uint64_t now_ms);

// Opens (creating) the store in `db_dir`, appends `run` durably, reads back every run at or after
// `since_ms` (0: all; a long-running caller bounds its memory with it) and returns the trends of
// run.model including it. While another process holds the store's lock it retries for up to
// `lock_wait_ms`. Errors: those of HistoryStore (io_error naming the lock after the wait).
[[nodiscard]] util::Result<TrendTable> record_and_analyse(const std::string& db_dir, RunRecord run,
                                                          std::uint32_t persistence_runs,
                                                          std::uint32_t lock_wait_ms = 10'000,
                                                          std::uint64_t since_ms = 0);

}  // namespace moonquota::history
