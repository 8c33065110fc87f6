// Per tenant, what the restore dropped and what the tenant would have been charged without the
// drops (docs/accounting.md, "Per-tenant drops"). Two sources: the restore path's tallies
// (non-COMPLETE, lease-expired, undecodable) and the standby bootstrap of the promote path (its own
// filters: non-COMPLETE, lease-expired, size 0, invalid MEMORY segment).
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "quota/account_table.hpp"
#include "restore/restored_state.hpp"
#include "restore/standby_loader.hpp"

namespace moonquota::quota {

struct DropTally {
  std::uint64_t objects = 0;
  std::uint64_t bytes = 0;  // the committed charge the objects had: size x COMPLETE MEMORY replicas (saturated)
};

struct TenantDrops {
  DropTally non_complete;
  DropTally lease_expired;
  std::uint64_t undecodable = 0;     // restore path: entries the decoder skipped (no size known)
  std::uint64_t size_zero = 0;       // standby bootstrap: size-0 objects (charge 0)
  std::uint64_t invalid_memory = 0;  // standby bootstrap: a MEMORY replica on an invalid segment (no size known)
  bool has_account = false;          // the tenant has a row in the account table
  std::uint64_t charged_bytes = 0;   // the tenant's charge in the account table (0 without a row)
  // charged_bytes + the bytes of every drop above, saturated at 2^63-1 like a charge.
  std::uint64_t charged_bytes_without_drops = 0;
  [[nodiscard]] bool any() const {
    return non_complete.objects + lease_expired.objects + undecodable + size_zero + invalid_memory > 0;
  }
};

struct DropTable {
  bool standby = false;                        // the promote path's bootstrap filters (else the restore's)
  std::map<std::string, TenantDrops> tenants;  // bytewise by tenant id; only tenants with a drop
  [[nodiscard]] bool empty() const { return tenants.empty(); }
};

// The restore path: every tenant of `tallies` with a drop; charged bytes from `table`.
[[nodiscard]] DropTable restore_drop_table(const std::map<std::string, restore::TenantTally>& tallies,
                                           const AccountTable& table);

// The promote path: the standby bootstrap's drops per tenant; charged bytes from `table` (after
// the OpLog replay, so "without drops" adds the bootstrap's drops to the promoted charge).
[[nodiscard]] DropTable standby_drop_table(const restore::StandbyBootstrap& bootstrap, const AccountTable& table);

}  // namespace moonquota::quota
