// quota-rebuild's whole job as one library call: restore the metadata as the master would,
// load the policy, choose the capacity, build the account table.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "quota/account_table.hpp"
#include "quota/expected_table.hpp"
#include "quota/tenant_drops.hpp"
#include "restore/promote_path.hpp"
#include "restore/restore_path.hpp"
#include "restore/tenant_explain.hpp"
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

enum class MasterPath { restore, promote };

struct RebuildRequest {
  restore::StoreSelection selection;
  restore::RestoreOptions restore;
  std::optional<std::string> policy_file;  // none: empty policy, every tenant with objects is an orphan
  std::optional<std::string> policy_etcd;  // --policy-etcd HOST:PORT (a missing key: empty policy)
  CapacitySpec capacity;
  MasterPath path = MasterPath::restore;  // promote needs an OpLog
  source::OpLogSelection oplog;           // --oplog-etcd / --oplog-file
  restore::ReplayOptions replay;          // --until-seq
  std::optional<std::string> explain;     // --explain TENANT (restore path)
  std::size_t explain_top = restore::k_default_explain_top;
};

// The snapshot the metadata comes from (restored; on the promote path bootstrapped) when its
// descriptor.txt gives a created_at.
struct SnapshotPoint {
  std::string snapshot_id;
  std::int64_t created_at_ms = 0;
  std::int64_t age_at_restore_ms = 0;  // restore_time_ms - created_at_ms (clamped to int64)
};

struct RebuildResult {
  restore::StoreSelection selection;
  std::uint64_t restore_time_ms = 0;
  bool fixed_master = false;
  restore::ChargeModel charge_model = restore::ChargeModel::restore;  // request.restore.charge_model
  restore::LeaseModel lease_model = restore::LeaseModel::upstream;    // request.restore.lease_model
  restore::RestoreOutcome outcome;
  AccountTable table;
  CapacitySpec capacity;
  std::string policy_source;  // "" when no policy was given
  std::vector<std::string> policy_warnings;
  MasterPath path = MasterPath::restore;
  std::optional<restore::PromoteOutcome> promote;  // path promote only
  // Per tenant, what the restore (promote: the standby bootstrap) dropped. Empty in the live
  // model, which erases nothing (objects the decoder skips stay in the global undecodable count).
  DropTable drops;
  std::optional<SnapshotPoint> snapshot;
  // --explain: the tenant's objects in the restored snapshot (none when the master starts EMPTY).
  std::optional<restore::TenantExplanation> explain;
  // --expect FILE: the table compared with an expected one (set by the command, app/rebuild_command).
  std::optional<TableComparison> expect;
  std::string expect_file;
  [[nodiscard]] bool starts_empty() const { return promote ? promote->starts_empty() : !outcome.state.has_value(); }
};

// Which model made a table (docs/accounting.md, section 11): "live" (what a running master holds),
// "restore" (a restore at the restore time) or "promote" (a standby that bootstrapped at the restore
// time and replayed the OpLog, then promoted).
[[nodiscard]] const char* model_name(const RebuildResult& result);
// The promote model: the restore charge on the promote path.
[[nodiscard]] bool promote_model(const RebuildResult& result);

// Restores (or bootstraps the standby) from `store`, the store of `request.selection` (its
// --store or --snapshot-dir, resolved by the caller). Path promote: standby bootstrap + OpLog replay + promotion
// validation (restore/promote_path.hpp); a failed validation is a result (starts_empty), a fatal OpLog reader rule is
// corruption. Errors: refused (policy the master would not load, a tenant above 2^63-1), not_found / io_error (no
// store, unreadable), invalid_argument (a bad selection), corruption (OpLog), unavailable (etcd or Redis).
[[nodiscard]] util::Result<RebuildResult> run_rebuild(source::ObjectStore& store, const RebuildRequest& request);

}  // namespace moonquota::quota
