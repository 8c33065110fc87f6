// Failover readiness (docs/design/failover-positions.md): the four OpLog positions of a cluster,
// each with where it was read, and the three windows between them, in entries.
//   primary_committed P   the primary's last assigned sequence: no master exports it at 3b5a5941;
//                         a perf build's gauges give a lower bound (durable + committed queue)
//   durable          D    the durable prefix's last_seq (etcd or an export)
//   standby_applied  A    the standby's ha_oplog_applied_sequence_id
//   snapshot         S    the latest snapshot's last_included_seq
// Windows: not_durable (D, P] (lost if the primary dies now), catch_up (A, D] (what the standby
// must replay before it serves), snapshot_gap (S, D] (what a snapshot-only restart loses); a
// window is unknown when one of its positions is.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace moonquota::reconcile {

struct Position {
  std::optional<std::uint64_t> seq;
  std::string source;  // "etcd 127.0.0.1:2379 /oplog/c/durable_prefix", "standby /metrics ...", ...
  std::string note;    // why it is unknown, or what qualifies it ("at least": a lower bound)
  bool lower_bound = false;
};

// One tenant in a window: the object keys its entries touch, and how the promotion's account
// table moves between the window's two ends (a standby replaying the OpLog up to each).
struct WindowTenant {
  std::string tenant_id;
  std::uint64_t keys = 0;
  std::int64_t charged_bytes_delta = 0;
  std::int64_t objects_delta = 0;
};

// How long ago the durable prefix stood where a window starts ("the standby applied the durable
// position of N seconds ago", as PostgreSQL's replay_lag): now minus the newest sample whose
// durable position is at or before the window's start. When every sample is past it, the age is
// at least now minus the oldest sample (lower_bound).
struct WindowAge {
  std::uint64_t ms = 0;
  bool lower_bound = false;
};

struct Window {
  std::uint64_t from_seq = 0;  // exclusive
  std::uint64_t to_seq = 0;    // inclusive
  std::uint64_t entries = 0;
  std::optional<WindowAge> age;                      // catch_up and snapshot_gap, from sampled history (--db)
  std::string age_note;                              // why the age is unknown
  std::optional<std::vector<WindowTenant>> tenants;  // by tenant id; none: not computed (tenants_note)
  std::string tenants_note;
};

struct LagPositions {
  Position primary_committed, durable, standby_applied, snapshot;
};

struct LagWindows {
  std::optional<Window> not_durable, catch_up, snapshot_gap;
};

// The windows of `p`. A position past the one it should follow (a standby ahead of the durable
// prefix, a snapshot past it) makes an empty window and a warning in `warnings`.
[[nodiscard]] LagWindows lag_windows(const LagPositions& p, std::vector<std::string>& warnings);

struct LagGates {
  std::optional<std::uint64_t> max_catch_up_entries;
  std::optional<std::uint64_t> max_catch_up_seconds;
  std::optional<std::uint64_t> max_snapshot_gap_entries;
};

// The gates broken, each as a sentence; a gate whose window is unknown is broken too (a failover
// script cannot call unknown safe).
[[nodiscard]] std::vector<std::string> broken_gates(const LagWindows& w, const LagGates& gates);

// The positions at one wall-clock instant (the OpLog has no timestamps): what the history keeps
// (--db) so that positions can be told in seconds.
struct LagSample {
  std::uint64_t at_ms = 0;
  std::optional<std::uint64_t> durable, standby_applied, snapshot;
  bool operator==(const LagSample&) const = default;
};

// When the durable prefix last moved: the oldest sample of the newest run of samples holding
// today's durable position (lower_bound: that run reaches back to the oldest sample read).
struct DurableAdvance {
  std::uint64_t at_ms = 0;
  bool lower_bound = false;
};

// What `oplog-inspect lag` reports.
struct LagReport {
  std::uint64_t sampled_at_ms = 0;
  LagPositions positions;
  LagWindows windows;
  bool sampled_history = false;                    // --db: the windows' ages were asked for
  std::optional<DurableAdvance> durable_advanced;  // with sampled history
  std::vector<std::string> warnings;
  std::vector<std::string> broken_gates;
};

// The ages of the catch-up and snapshot-gap windows and when the durable prefix last advanced,
// from `samples` (oldest first; the report's own sample among them), at `report.sampled_at_ms`.
void add_sampled_ages(LagReport& report, const std::vector<LagSample>& samples);

}  // namespace moonquota::reconcile
