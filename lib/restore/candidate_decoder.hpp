// One restore candidate as the master's RestoreState sees it (snapshot-format.md §3.1 step 3,
// §9, §10, §16): restore::scan_snapshot (the one reader) does the decoding and decides; this turns
// its result into the restored state quota accounting needs, and a decodable snapshot that the
// master still rejects (a non-OK segment at upstream 3b5a5941) into the rejection.
// A rejection is returned as an error Status whose message names file, shard, entry, offset.
#pragma once

#include <cstdint>
#include <string>

#include "restore/restored_state.hpp"
#include "source/object_store.hpp"
#include "util/status.hpp"

namespace moonquota::restore {

// The restore model (restore_time_ms; charge_model: restore, what a master that restored the
// candidate serves, or live, what a running master held for the same metadata (no lease or
// non-COMPLETE erasure, no non-OK segment rejection); lease_model: upstream erases lease-expired
// objects at restore_time_ms, keep ignores leases; max_payload_bytes), then the candidate's own.
struct RestoreOptions : RestoreModel {
  // false: model upstream 3b5a5941, where a non-OK segment makes the unmount step throw
  // ("Resource deadlock avoided") and rejects the candidate. true: a fixed master.
  bool fixed_master = false;
  unsigned threads = 1;
};

// Decodes the candidate whose objects live in `store` under `snapshot_dir`.
[[nodiscard]] util::Result<RestoredState> decode_candidate(source::ObjectStore& store, const std::string& snapshot_dir,
                                                           const std::string& snapshot_id,
                                                           const RestoreOptions& options);

}  // namespace moonquota::restore
