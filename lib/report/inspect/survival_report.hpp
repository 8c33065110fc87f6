// `snapshot-inspect survival` (docs/cli/snapshot-inspect.md): what a restore of the inspected
// snapshot keeps and drops at each point, per tenant and in total, and when each tenant's charge
// is half and wholly gone. One model (SurvivalReport, built by build_survival_report), rendered as
// text, the `snapshot-inspect-survival/1` JSON document, NDJSON (one line per point x tenant) or
// a self-contained HTML page with one SVG survival curve per tenant.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "inspect/survival_points.hpp"
#include "report/inspect/inspect_json.hpp"
#include "report/output_format.hpp"
#include "restore/promote_survival.hpp"
#include "restore/survival.hpp"

namespace moonquota::report {

struct SurvivalRow {
  std::string tenant_id;  // empty for the totals row
  restore::SurvivalAmount kept;
  restore::SurvivalAmount dropped;
  std::uint64_t undecodable = 0;
  // floor(1000 x charged kept / (charged kept + charged dropped)); none when both are 0.
  [[nodiscard]] std::optional<std::uint64_t> share_kept_permille() const;
};

// The promotion path's outcome at one point (a standby bootstrapping at that instant).
struct SurvivalPromotion {
  bool bootstrap_loaded = false;
  std::string bootstrap_failure;  // the standby started EMPTY and replayed from sequence 1
  bool starts_empty = false;      // the promotion validation failed: EMPTY metadata, every charge 0
  std::string failure;
};

struct SurvivalPointRows {
  inspect::SurvivalPoint point;
  std::optional<SurvivalPromotion> promotion;  // path promote only
  SurvivalRow totals;
  std::vector<SurvivalRow> tenants;  // bytewise by tenant id: every tenant seen in the metadata
};

struct TenantDecay {
  std::string tenant_id;
  util::u128 charged_at_zero = 0;  // charged bytes kept at delay 0 (0 when the promotion is EMPTY there)
  // The reference of "half gone" / "all gone": the first point with delay >= 0 at which the master
  // does not start EMPTY (delay 0 on the restore path); none when it is EMPTY at every such point.
  std::optional<std::int64_t> reference_delay_ms;
  util::u128 charged_at_reference = 0;
  // The first point at or after the reference at which at most half (2 x kept <= charged at the
  // reference) / none of that charge is kept; none: beyond the last point, or no reference.
  std::optional<std::int64_t> half_gone_after_ms;
  std::optional<std::int64_t> all_gone_after_ms;
};

// The OpLog tail replayed on the promotion path.
struct SurvivalOpLog {
  std::string origin;
  std::uint64_t first_expected = 1;  // last_included_seq + 1
  std::uint64_t applied_seq = 0;
  bool per_point_runs = false;  // the bootstrap failed with leases ignored: each point ran on its own
  bool prefix_missing = false;  // no durable_prefix key for the cluster: nothing replayed
};

struct SurvivalReport {
  InspectContext context;
  std::string path = "restore";        // restore | promote
  std::string restored_snapshot_id;    // path restore: the snapshot every point restores (a fallback
                                       // when a restore rejects the latest); empty on path promote
  std::optional<SurvivalOpLog> oplog;  // path promote only
  restore::LeaseModel lease_model = restore::LeaseModel::upstream;
  std::int64_t created_at_ms = 0;
  std::uint64_t now_ms = 0;
  std::vector<SurvivalPointRows> points;  // by instant
  std::vector<TenantDecay> decay;         // bytewise by tenant id
};

// `points` are those the scan was run with (same order).
[[nodiscard]] SurvivalReport build_survival_report(const InspectContext& context, const restore::SurvivalScan& scan,
                                                   const std::vector<inspect::SurvivalPoint>& points,
                                                   restore::LeaseModel lease_model, std::int64_t created_at_ms,
                                                   std::uint64_t now_ms);

// The promotion path: `survival` was computed for `points` (same order). Tenants are every tenant
// held or dropped at some point, each listed at every point.
[[nodiscard]] SurvivalReport build_promote_survival_report(const InspectContext& context,
                                                           const restore::PromoteSurvival& survival,
                                                           const std::vector<inspect::SurvivalPoint>& points,
                                                           restore::LeaseModel lease_model, std::int64_t created_at_ms,
                                                           std::uint64_t now_ms);

void render_survival(const SurvivalReport& report, const restore::ScannedSnapshot& snapshot, OutputFormat format,
                     std::ostream& out);

// "1h", "10s", "1d2h3m4s567ms", "-5s", "0": an exact delay.
[[nodiscard]] std::string delay_text(std::int64_t delay_ms);

}  // namespace moonquota::report
