// What a restore leaves behind, reduced to what quota accounting and reports need: per-tenant
// tallies of the surviving objects, drop counts, the mounted segments, and findings.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/finding.hpp"
#include "model/snapshot_types.hpp"
#include "util/checked_math.hpp"

namespace moonquota::restore {

struct DropCounts {
  std::uint64_t non_complete = 0;   // some replica not COMPLETE (counted here first)
  std::uint64_t lease_expired = 0;  // lease_timeout <= restore time
  std::uint64_t undecodable = 0;    // skipped by the decoder
  DropCounts& operator+=(const DropCounts& o) {
    non_complete += o.non_complete;
    lease_expired += o.lease_expired;
    undecodable += o.undecodable;
    return *this;
  }
};

// Which master's charge a tally models (docs/accounting.md, "The two models").
enum class ChargeModel {
  // What a master that restored this metadata rebuilt (quota-semantics.md §5, §7.1): objects with
  // a non-COMPLETE replica or an expired lease are erased first.
  restore,
  // What a running master holds for this metadata at its point (quota-semantics.md §2-§3, §15 I6):
  // every decoded object stays, size x COMPLETE MEMORY replicas charged; no lease filter, no
  // non-COMPLETE erasure, no non-OK segment rejection.
  live,
};

[[nodiscard]] const char* charge_model_name(ChargeModel model);

// How the restore model treats leases (docs/accounting.md, "The two lease models"). Applies only
// to ChargeModel::restore and the standby bootstrap; the live model has no lease filter.
enum class LeaseModel {
  // What upstream 3b5a5941 does (snapshot-format.md §10, §11): an object whose lease_timeout <= the
  // restore time is erased.
  upstream,
  // A master that ignores leases at restore: an expired lease never drops an object; the
  // non-COMPLETE erasure (and the standby's other filters) stay.
  keep,
};

[[nodiscard]] const char* lease_model_name(LeaseModel model);
// "upstream" | "keep" -> that model; nullopt for any other name.
[[nodiscard]] std::optional<LeaseModel> parse_lease_model(std::string_view name);

// What a restore keeps, shared by the reader's options (ScanOptions) and a candidate's
// (RestoreOptions), each of which is one: the instant of the post-restore filter, the charge and
// lease models, and our memory guard per decompressed payload or shard.
struct RestoreModel {
  std::uint64_t restore_time_ms = 0;                     // for the post-restore filter (§10)
  ChargeModel charge_model = ChargeModel::restore;       // what ShardTallyBuilder keeps
  LeaseModel lease_model = LeaseModel::upstream;         // its lease filter (restore model)
  std::size_t max_payload_bytes = std::size_t{1} << 30;  // our guard per decompressed payload/shard
};

// A write in flight when the metadata was written: an object with PROCESSING MEMORY replicas.
struct InFlightWrite {
  std::uint64_t put_start_time_ms = 0;  // of the PutStart or the size-changing UpsertStart
  std::uint64_t size = 0;               // the new object size
  std::uint32_t processing_memory = 0;
};

// Size-changing Upserts in flight (live-master-api.md §11 item 8): the object holds the new size
// in PROCESSING MEMORY replicas, its old MEMORY buffers wait in "discarded_replicas" with
// ttl_ms = upsert time + put_start_release_timeout; the running master still charges the old bytes.
struct UpsertsInFlight {
  std::uint64_t objects = 0;
  util::u128 old_bytes = 0;  // sum of the matched discarded items' mem_size: still charged
  util::u128 new_bytes = 0;  // size x PROCESSING MEMORY of those objects (part of in_flight_bytes)
};

// Per-tenant evidence beside the charge: what in the metadata explains a live master charging
// more than the model's committed value (quota-semantics.md §16). Counted over every decoded
// object of the metadata, whatever the model keeps.
struct TenantEvidence {
  util::u128 in_flight_bytes = 0;  // size x PROCESSING MEMORY replicas (PutStart/Copy/Move/promotion targets)
  std::uint64_t in_flight_objects = 0;
  util::u128 removed_bytes = 0;  // size x REMOVED MEMORY replicas: charged until the durable OpLog finalize
  std::uint64_t removed_objects = 0;
  util::u128 dropped_lease_expired_bytes = 0;  // restore model: committed charge of lease-expired drops
  util::u128 dropped_non_complete_bytes = 0;   // restore model: committed charge of non-COMPLETE drops
  UpsertsInFlight upserts;
  std::vector<InFlightWrite> in_flight;  // at most k_in_flight_listed per tenant, for upsert matching
  std::uint64_t in_flight_unlisted = 0;  // in-flight objects beyond that cap
  // One object's in-flight and REMOVED MEMORY replicas: size x count each, clamped like the
  // master's charge (util::clamped_mul). The in-flight list is the caller's (it needs the put time).
  void record_object(std::uint64_t size, std::uint32_t processing_memory, std::uint32_t removed_memory);
  void merge(TenantEvidence&& o);
};

// Per tenant, in-flight objects kept for the upsert match (a bound on memory for hostile stores).
inline constexpr std::size_t k_in_flight_listed = 4096;

struct TenantTally {
  std::uint64_t objects = 0;     // objects the model keeps (restore: survivors; live: every decoded one)
  util::u128 charged_bytes = 0;  // sum of size x COMPLETE MEMORY replicas over those objects
  std::uint32_t shards = 0;      // metadata shards holding >= 1 kept object of the tenant
  DropCounts dropped;
  TenantEvidence evidence;
  void merge(TenantTally o) {
    objects += o.objects;
    charged_bytes += o.charged_bytes;
    shards += o.shards;
    dropped += o.dropped;
    evidence.merge(std::move(o.evidence));
  }
};

struct SegmentSummary {
  std::string id;
  std::string name;
  std::uint64_t size = 0;
  std::int16_t status = 0;
  bool has_allocator = false;
};

struct RestoredState {
  std::string snapshot_id;
  std::string snapshot_dir;
  std::optional<model::SnapshotDescriptor> descriptor;
  std::map<std::string, TenantTally> tenants;  // every tenant seen in metadata (objects may be 0)
  DropCounts dropped;
  std::uint64_t objects = 0;
  std::vector<SegmentSummary> segments;      // "ms" in file order
  std::uint64_t mounted_capacity_bytes = 0;  // sum of sizes that stay mounted (saturating)
  std::uint64_t metadata_bytes = 0;
  std::uint64_t metadata_shards = 0;
  std::uint64_t decompressed_metadata_bytes = 0;
  std::uint64_t discarded_items = 0;
  std::uint64_t replica_next_id = 0;
  std::uint64_t tasks = 0;
  model::Findings findings;
};

struct CandidateAttempt {
  std::string snapshot_id;
  bool restored = false;
  std::string reason;  // why it was rejected
};

struct RestoreOutcome {
  std::vector<CandidateAttempt> attempts;
  std::optional<RestoredState> state;  // empty: the master starts with empty metadata
  std::string empty_reason;            // when state is empty
  model::Findings catalog_findings;
  std::string catalog_root;
};

}  // namespace moonquota::restore
