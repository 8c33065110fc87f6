// RestoreFromStandbySnapshot's validation (oplog-format.md §16), run on the replayed state before
// anything is inserted; the first violation aborts the whole restore and the promoted master
// serves EMPTY metadata (every charge 0).
//   tenant = TenantId(entry tenant) ("" -> default); if that is "default" and the key holds a NUL
//   with a non-default prefix, the prefix is the tenant; with a NUL the user key is the part after
//   the first NUL; the tenant must be valid; duplicate (tenant, key) pairs are an error.
//   memory registry segments: non-empty name and endpoint, capacity > 0, no name/endpoint alias
//   claimed by two segments.
//   MEMORY replica: endpoint resolves to a memory segment (by endpoint or name); size_ == size != 0;
//   address + size_ does not overflow; unless REMOVED/FAILED: counts against the segment's capacity
//   and may not overlap another counted range of that segment.
//   NoF: size_ == size != 0.  DISK / LOCAL_DISK: object_size == size.  DFS: invalid.
// On success the per-tenant usage is rebuilt (charge = size x COMPLETE MEMORY replicas).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "restore/promotion_checks.hpp"
#include "restore/restored_state.hpp"
#include "restore/standby_store.hpp"

namespace moonquota::restore {

struct PromotionValidation {
  bool ok = true;
  std::string failure;                                    // the first violation, with its error code
  std::map<std::string, TenantTally> tenants;             // empty when !ok
  std::map<std::string, util::u128> tenant_object_bytes;  // per tenant: sum of the held objects' sizes
  std::uint64_t objects = 0;                              // objects the promoted master holds
  std::uint64_t placeholders = 0;                         // zero-size placeholder objects among them
  std::uint64_t registry_segments = 0;
  std::uint64_t registry_memory_segments = 0;
  std::uint64_t registry_memory_capacity_bytes = 0;  // saturating: --capacity auto on this path
  // Objects holding non-COMPLETE replicas, by "<REPLICA KIND> <STATUS>" (oplog-format.md §14).
  std::map<std::string, std::uint64_t> non_complete;
  std::uint64_t legacy_scoped_keys = 0;  // keys resolved through the NUL-scoped form
};

// The two verdicts, whichever engine reached them: a failure carries the registry's counts only; a
// success the registry's counts and the held objects' totals.
[[nodiscard]] PromotionValidation failed_validation(const PromotionSegments& segments, std::string failure);
[[nodiscard]] PromotionValidation passed_validation(const PromotionSegments& segments, PromotionTotals&& totals);

// `bootstrap_at_ms`: validate the state a standby that bootstrapped at that instant would hold:
// objects the bootstrap loaded with a lease_timeout <= it are absent (its lease filter drops them;
// StandbyObject::bootstrap_lease_timeout_ms). None: every object of `store` is present.
[[nodiscard]] PromotionValidation validate_promotion(const StandbyStore& store,
                                                     std::optional<std::uint64_t> bootstrap_at_ms = std::nullopt);

}  // namespace moonquota::restore
