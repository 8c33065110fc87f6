// The promote model's phantoms (docs/accounting.md, "The promote model"): objects a standby loaded
// from the snapshot at its bootstrap whose lease has ended since, and that no OpLog entry touches.
// The primary may have evicted them for a tenant's quota (at 3b5a5941 EvictTenantMemoryForQuota,
// run at PutStart, writes no OpLog entry), so it no longer charges them, while the standby keeps
// them for ever: a promotion charges them again. Per tenant, the promotion's table at the bootstrap
// instant minus the table of a standby that bootstrapped at the live sample (same snapshot, the
// same OpLog replayed to the same sequence): only the lease filter differs between the two.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "quota/rebuild.hpp"
#include "source/object_store.hpp"
#include "util/status.hpp"

namespace moonquota::reconcile {

struct PhantomTally {
  std::uint64_t objects = 0;
  std::uint64_t bytes = 0;  // their charge in the promotion: size x COMPLETE MEMORY replicas (saturated)
};

struct PromotePhantoms {
  bool computed = false;
  std::uint64_t bootstrap_ms = 0;               // the promotion's bootstrap instant (--restore-time)
  std::uint64_t until_ms = 0;                   // the live sample
  std::map<std::string, PhantomTally> tenants;  // bytewise; only tenants with a phantom
  std::string note;                             // why they were not computed
};

// The phantoms of `promoted` (a promote-path result of `request` read from `store`) at `until_ms`.
// Not computed (a note says why) when the bootstrap instant is not before `until_ms`, or either
// promotion starts EMPTY or bootstrapped another snapshot. Errors: those of quota::run_rebuild.
[[nodiscard]] util::Result<PromotePhantoms> promote_phantoms(source::ObjectStore& store,
                                                             const quota::RebuildRequest& request,
                                                             const quota::RebuildResult& promoted,
                                                             std::uint64_t until_ms);

}  // namespace moonquota::reconcile
