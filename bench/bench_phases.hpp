// The ways of reading a metadata payload that the benchmark compares, each run over the
// same store with the same thread count:
//   floor  - read every shard blob and zstd-decompress it, nothing else (the lower bound): the
//            same format::scan_metadata as ours, so the same buffer strategy (each blob
//            decompressed whole into one reused buffer per worker), with a handler that only
//            adds up the decompressed sizes;
//   naive  - decompress, then msgpack::unpack each shard into an object tree and walk it to sum
//            charges per tenant (how the master itself decodes);
//   frames - the floor plus the segments payload decompressed and every allocator frame in it
//            (node table, free-node list) decompressed, on one more thread as ours does: every
//            zstd frame a restore must decompress (the master rejects a candidate whose frame
//            fails, snapshot-format.md §3), with the payload's msgpack walked only to find them;
//   naive-restore - naive plus the segments payload as frames has it: the naive walk doing what
//            a restore must do besides the shards (a rebuild that skipped the segments payload
//            could not say whether the master keeps the snapshot);
//   ours   - the full quota-rebuild restore path (segments, streaming metadata decode into
//            per-tenant tallies, task_manager, account table).
#pragma once

#include <cstdint>
#include <string>

namespace moonquota::bench {

struct PhaseResult {
  double seconds = 0;
  std::uint64_t objects = 0;
  std::uint64_t decompressed_bytes = 0;
  std::uint64_t charged_bytes = 0;  // reported as a sanity check of the work done
  std::string error;
};

PhaseResult run_floor(const std::string& metadata_path, unsigned threads);
PhaseResult run_naive(const std::string& metadata_path, unsigned threads);
PhaseResult run_frames(const std::string& metadata_path, const std::string& segments_path, unsigned threads);
PhaseResult run_naive_restore(const std::string& metadata_path, const std::string& segments_path, unsigned threads);
PhaseResult run_ours(const std::string& store_dir, unsigned threads);

}  // namespace moonquota::bench
