// One tenant's drill-down (`quota-rebuild --explain TENANT`, `quota-reconcile --explain TENANT`):
// the objects behind its expected charge, its writes in flight and what the restore drops, each
// with totals and the largest N objects (key, size, MEMORY replicas by status, lease, put start).
// Read in one more pass over the snapshot the account table came from, under the same model
// (restore at a time, or live), with the same duplicate resolution (restore/shard_tally.hpp): the
// totals equal the table's and the drop table's figures for the tenant. Memory: N objects per
// category and shard, whatever the tenant's size.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "restore/snapshot_reader.hpp"
#include "util/checked_math.hpp"
#include "util/status.hpp"

namespace moonquota::restore {

inline constexpr std::size_t k_default_explain_top = 10;
inline constexpr std::size_t k_max_explain_top = 1000;

struct ExplainedObject {
  std::string key;
  std::uint32_t shard = 0;
  std::uint64_t size = 0;
  std::uint32_t complete_memory = 0;    // COMPLETE MEMORY replicas: the charge is size x this
  std::uint32_t processing_memory = 0;  // PROCESSING MEMORY replicas: a write in flight
  std::uint32_t removed_memory = 0;
  bool all_complete = true;  // every replica (any type) COMPLETE
  std::uint64_t lease_timeout_ms = 0;
  std::uint64_t put_start_time_ms = 0;
  std::uint64_t bytes = 0;  // what the object counts for in its category (saturated)
};

struct ExplainCategory {
  std::uint64_t objects = 0;
  util::u128 bytes = 0;
  std::vector<ExplainedObject> largest;  // by bytes, then size, then key; at most top
};

struct TenantExplanation {
  std::string tenant_id;
  std::size_t top = k_default_explain_top;
  ExplainCategory charged;                // kept; bytes: size x COMPLETE MEMORY replicas (the expected charge)
  ExplainCategory in_flight;              // objects with PROCESSING MEMORY replicas; bytes: size x those
  ExplainCategory dropped_non_complete;   // restore model: erased for a non-COMPLETE replica; bytes: their charge
  ExplainCategory dropped_lease_expired;  // restore model: erased for an ended lease; bytes: their charge
  std::uint64_t undecodable = 0;          // entries of the tenant the decoder skipped
  bool restore_model = true;              // false: the live model, which drops nothing
};

// Reads the snapshot at `snapshot_dir` under `model` (restore_time_ms, charge_model, lease_model,
// max_payload_bytes) with `threads` workers and explains `tenant_id`. Errors: those of
// scan_snapshot (the snapshot was readable for the table, so they are rare).
[[nodiscard]] util::Result<TenantExplanation> explain_tenant(source::ObjectStore& store,
                                                             const std::string& snapshot_dir,
                                                             const std::string& snapshot_id, const RestoreModel& model,
                                                             const std::string& tenant_id, std::size_t top,
                                                             unsigned threads);

}  // namespace moonquota::restore
