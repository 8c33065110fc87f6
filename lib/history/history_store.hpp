// The reconcile history: an embedded RocksDB store (--db DIR). RocksDB stays behind this header.
//
// Layout (keys sort by time; values are compact JSON):
//   "meta/schema"                              -> "moonquota-history/1"
//   "run/<run_at_ms: 16 hex>/<run_id>"         -> the whole RunRecord
//   "tenant/<hex(tenant_id)>/<run_at_ms: 16 hex>/<run_id>" -> that run's TenantPoint
//   "repair/<at_ms: 16 hex>/<step: 8 hex>"     -> a step of an applied repair plan (RepairRecord)
//   "ha/<hex(cluster)>/<at_ms: 16 hex>"        -> a sample of the OpLog positions (oplog-inspect lag
//                                                 --db, serve with an OpLog): {"durable", "standby_applied",
//                                                 "snapshot"}, each a sequence or null
// A run is written as ONE WriteBatch with sync=true: after append() returns OK the run survives a
// crash or power loss, and a process killed at any point leaves either the whole run or none of it
// (RocksDB's WAL replays whole batches only). Earlier runs are never rewritten.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "history/repair_record.hpp"
#include "history/run_record.hpp"
#include "reconcile/lag_positions.hpp"
#include "util/status.hpp"

namespace moonquota::history {

class HistoryStore {
 public:
  // Opens (creating when missing) the store in `dir`. Errors: io_error (RocksDB refused: lock held
  // by another process, permissions), corruption (a store of another schema, damaged files).
  [[nodiscard]] static util::Result<std::unique_ptr<HistoryStore>> open(const std::string& dir);
  // Opens an existing store read-only-in-spirit (create_if_missing = false). Creates nothing: a
  // missing directory, or one without a RocksDB store in it, is not_found naming `dir`.
  [[nodiscard]] static util::Result<std::unique_ptr<HistoryStore>> open_existing(const std::string& dir);
  ~HistoryStore();
  HistoryStore(const HistoryStore&) = delete;
  HistoryStore& operator=(const HistoryStore&) = delete;

  // Records one run atomically and durably. Assigns run.run_id when empty. Errors: io_error.
  [[nodiscard]] util::Status append(RunRecord& run);

  // Every run with run_at_ms >= since_ms, oldest first. Errors: corruption naming the key.
  [[nodiscard]] util::Result<std::vector<RunRecord>> runs(std::uint64_t since_ms = 0) const;

  // One tenant's points with their run times, oldest first (reads only that tenant's keys).
  struct TimedPoint {
    std::uint64_t run_at_ms = 0;
    std::string run_id;
    TenantPoint point;
  };
  [[nodiscard]] util::Result<std::vector<TimedPoint>> tenant_points(const std::string& tenant_id,
                                                                    std::uint64_t since_ms = 0) const;

  // Records one step of a repair, durably. Errors: io_error.
  [[nodiscard]] util::Status append_repair(const RepairRecord& record);
  // The repair steps recorded at or after `since_ms`, oldest first. Errors: corruption naming the key.
  [[nodiscard]] util::Result<std::vector<RepairRecord>> repairs(std::uint64_t since_ms = 0) const;

  // Records one sample of cluster `cluster`'s OpLog positions, durably (a sample of the same
  // millisecond replaces it). Errors: io_error.
  [[nodiscard]] util::Status append_lag_sample(const std::string& cluster, const reconcile::LagSample& sample);
  // The cluster's samples at or after `since_ms`, oldest first. Errors: corruption naming the key.
  [[nodiscard]] util::Result<std::vector<reconcile::LagSample>> lag_samples(const std::string& cluster,
                                                                            std::uint64_t since_ms) const;

 private:
  struct Impl;
  explicit HistoryStore(std::unique_ptr<Impl> impl);
  [[nodiscard]] static util::Result<std::unique_ptr<HistoryStore>> open_with(const std::string& dir, bool create);
  std::unique_ptr<Impl> m_impl;
};

}  // namespace moonquota::history
