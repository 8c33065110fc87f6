#include "reconcile/lag_positions.hpp"

namespace moonquota::reconcile {

namespace {

std::optional<Window> window(const Position& from, const Position& to, const char* what,
                             std::vector<std::string>& warnings) {
  if (!from.seq || !to.seq) return std::nullopt;
  Window w;
  w.from_seq = *from.seq;
  w.to_seq = *to.seq;
  if (*to.seq < *from.seq) {
    warnings.push_back(std::string(what) + ": " + std::to_string(*from.seq) + " is past " + std::to_string(*to.seq) +
                       " (the window is empty)");
    w.to_seq = w.from_seq;
  }
  w.entries = w.to_seq - w.from_seq;
  return w;
}

}  // namespace

LagWindows lag_windows(const LagPositions& p, std::vector<std::string>& warnings) {
  LagWindows w;
  w.not_durable = window(p.durable, p.primary_committed, "not durable: the durable prefix", warnings);
  w.catch_up = window(p.standby_applied, p.durable, "catch-up: the standby's applied sequence", warnings);
  w.snapshot_gap = window(p.snapshot, p.durable, "snapshot gap: the snapshot's last_included_seq", warnings);
  return w;
}

std::vector<std::string> broken_gates(const LagWindows& w, const LagGates& gates) {
  std::vector<std::string> broken;
  const auto gate = [&](const std::optional<std::uint64_t>& max, const std::optional<Window>& window, const char* flag,
                        const char* what) {
    if (!max) return;
    if (!window) {
      broken.push_back(std::string(flag) + " " + std::to_string(*max) + ": the " + what + " is unknown");
    } else if (window->entries > *max) {
      broken.push_back(std::string(flag) + " " + std::to_string(*max) + ": the " + what + " is " +
                       std::to_string(window->entries) + " entries");
    }
  };
  gate(gates.max_catch_up_entries, w.catch_up, "--max-catch-up-entries", "catch-up window");
  gate(gates.max_snapshot_gap_entries, w.snapshot_gap, "--max-snapshot-gap-entries", "snapshot gap");
  return broken;
}

}  // namespace moonquota::reconcile
