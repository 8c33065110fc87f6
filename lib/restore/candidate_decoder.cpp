#include "restore/candidate_decoder.hpp"

#include <algorithm>
#include <vector>

#include "restore/snapshot_reader.hpp"
#include "util/checked_math.hpp"

namespace moonquota::restore {

using util::Status;

namespace {

// ApplySnapshotState: non-OK segments are unmounted (upstream 3b5a5941 throws there: the reader
// decided that; with --fixed-master they are unmounted and named). OK segments stay mounted.
void apply_segments(const ScannedSnapshot& snap, ChargeModel charge_model, RestoredState& state) {
  for (const auto& seg : snap.segments.mounted) {
    state.segments.push_back({seg.id, seg.name, seg.size, seg.status, seg.has_allocator});
    if (seg.status == model::segment_status::ok) {
      state.mounted_capacity_bytes = util::saturating_add(state.mounted_capacity_bytes, seg.size);
      continue;
    }
    if (charge_model == ChargeModel::live) {
      state.findings.push_back({model::Severity::warning, "segments",
                                "segment " + seg.id + " ('" + seg.name +
                                    "') is not OK: the decoder skips objects with a MEMORY replica on it, so their "
                                    "charge on a running master is not part of the live model"});
      continue;
    }
    state.findings.push_back({model::Severity::warning, "segments",
                              "segment " + seg.id + " ('" + seg.name +
                                  "') is not OK: unmounted after restore "
                                  "(modelling a fixed master)"});
  }
}

}  // namespace

util::Result<RestoredState> decode_candidate(source::ObjectStore& store, const std::string& dir,
                                             const std::string& snapshot_id, const RestoreOptions& options) {
  ScanOptions scan;
  static_cast<RestoreModel&>(scan) = options;
  scan.descriptor_finding = false;  // the restore path names a missing descriptor among the catalog findings
  const std::vector<ShardAnalyzer*> workers(std::max(1u, options.threads), nullptr);
  MQ_ASSIGN_OR_RETURN(ScannedSnapshot snap, scan_snapshot(store, dir, snapshot_id, scan, workers));
  if (snap.non_ok_segment && !options.fixed_master && options.charge_model == ChargeModel::restore) {
    return Status::corruption(non_ok_segment_reason(*snap.non_ok_segment) +
                              ", so this candidate is rejected (use --fixed-master to see what a fixed master would "
                              "serve)");
  }
  RestoredState state;
  state.snapshot_id = snapshot_id;
  state.snapshot_dir = dir;
  state.descriptor = snap.descriptor;
  for (auto& [tenant, tally] : snap.restored_tenants) state.tenants.emplace(tenant, std::move(tally));
  state.dropped = snap.dropped;
  state.objects = snap.restored_objects;
  state.metadata_bytes = snap.metadata.file_bytes;
  state.metadata_shards = snap.metadata.shard_entries;
  state.decompressed_metadata_bytes = snap.metadata.decompressed_shard_bytes;
  state.discarded_items = snap.metadata.discarded.size();
  state.replica_next_id = snap.metadata.replica_next_id;
  state.tasks = snap.tasks.size();
  state.findings = std::move(snap.findings);
  apply_segments(snap, options.charge_model, state);
  std::stable_sort(state.findings.begin(), state.findings.end(), [](const model::Finding& a, const model::Finding& b) {
    return std::tie(a.location, a.message) < std::tie(b.location, b.message);
  });
  return state;
}

}  // namespace moonquota::restore
