// What a restore leaves behind, reduced to what quota accounting and reports need: per-tenant
// tallies of the surviving objects, drop counts, the mounted segments, and findings.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
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

struct TenantTally {
  std::uint64_t objects = 0;     // restored (surviving) objects
  util::u128 charged_bytes = 0;  // sum of size x COMPLETE MEMORY replicas over restored objects
  std::uint32_t shards = 0;      // metadata shards holding >= 1 restored object of the tenant
  DropCounts dropped;
  void merge(const TenantTally& o) {
    objects += o.objects;
    charged_bytes += o.charged_bytes;
    shards += o.shards;
    dropped += o.dropped;
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
