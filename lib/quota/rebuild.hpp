// quota-rebuild's whole job as one library call: restore the metadata as the master would,
// load the policy, choose the capacity, build the account table.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "quota/account_table.hpp"
#include "restore/restore_path.hpp"
#include "util/status.hpp"

namespace moonquota::quota {

enum class CapacityMode { automatic, failover, fixed_bytes };

struct CapacitySpec {
  CapacityMode mode = CapacityMode::automatic;
  std::uint64_t bytes = 0;  // for fixed_bytes
};

// Parses "auto" | "failover" | a decimal byte count.
[[nodiscard]] util::Result<CapacitySpec> parse_capacity(const std::string& text);
[[nodiscard]] std::string capacity_mode_name(CapacityMode mode);

struct RebuildRequest {
  restore::StoreSelection selection;
  restore::RestoreOptions restore;
  std::optional<std::string> policy_file;  // none: empty policy, every tenant with objects is an orphan
  CapacitySpec capacity;
};

struct RebuildResult {
  restore::StoreSelection selection;
  std::uint64_t restore_time_ms = 0;
  bool fixed_master = false;
  restore::RestoreOutcome outcome;
  AccountTable table;
  CapacitySpec capacity;
  std::string policy_source;  // "" when no policy was given
  std::vector<std::string> policy_warnings;
  [[nodiscard]] bool starts_empty() const { return !outcome.state.has_value(); }
};

// Errors: refused (policy the master would not load, a tenant above 2^63-1), not_found / io_error
// (no store, unreadable), invalid_argument (a bad selection).
[[nodiscard]] util::Result<RebuildResult> run_rebuild(const RebuildRequest& request);

}  // namespace moonquota::quota
