#include "reconcile/lag_positions.hpp"

#include <limits>

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

std::optional<WindowAge> age_at(std::uint64_t reached, const std::vector<LagSample>& samples, std::uint64_t now_ms) {
  const LagSample* newest_reached = nullptr;
  const LagSample* oldest = nullptr;
  for (const auto& s : samples) {
    if (!s.durable) continue;
    if (oldest == nullptr) oldest = &s;
    if (*s.durable <= reached) newest_reached = &s;
  }
  const auto since = [&](const LagSample& s) { return now_ms > s.at_ms ? now_ms - s.at_ms : 0; };
  if (newest_reached != nullptr) return WindowAge{since(*newest_reached), false};
  if (oldest != nullptr) return WindowAge{since(*oldest), true};
  return std::nullopt;
}

}  // namespace

void add_sampled_ages(LagReport& r, const std::vector<LagSample>& samples) {
  for (auto* w : {&r.windows.catch_up, &r.windows.snapshot_gap}) {
    if (!w->has_value()) continue;
    (*w)->age = age_at((*w)->from_seq, samples, r.sampled_at_ms);
    if (!(*w)->age) {
      (*w)->age_note = "no sample of the durable position";
    } else if ((*w)->age->lower_bound && (*w)->age->ms == 0) {
      (*w)->age.reset();
      (*w)->age_note = "no earlier sample of the durable position yet (each reading with --db adds one)";
    }
  }
  const auto& durable = r.positions.durable.seq;
  if (!durable) return;
  const LagSample* first_at_today = nullptr;  // of the newest run holding today's durable position
  bool run_reaches_oldest = true;
  for (auto it = samples.rbegin(); it != samples.rend(); ++it) {
    if (!it->durable) continue;
    if (*it->durable != *durable) {
      run_reaches_oldest = false;
      break;
    }
    first_at_today = &*it;
  }
  if (first_at_today != nullptr) r.durable_advanced = DurableAdvance{first_at_today->at_ms, run_reaches_oldest};
}

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
  if (gates.max_catch_up_seconds) {
    const std::uint64_t max_ms = *gates.max_catch_up_seconds > std::numeric_limits<std::uint64_t>::max() / 1000
                                     ? std::numeric_limits<std::uint64_t>::max()
                                     : *gates.max_catch_up_seconds * 1000;
    const std::string flag = "--max-catch-up-seconds " + std::to_string(*gates.max_catch_up_seconds);
    const auto& age = w.catch_up ? w.catch_up->age : std::nullopt;
    if (!age) {
      broken.push_back(flag + ": the catch-up age is unknown");
    } else if (age->ms > max_ms) {
      broken.push_back(flag + ": the standby applied the durable position of " +
                       (age->lower_bound ? "more than " : "") + std::to_string(age->ms / 1000) + " s ago");
    } else if (age->lower_bound) {
      broken.push_back(flag + ": the catch-up age is unknown (at least " + std::to_string(age->ms / 1000) +
                       " s: no sample old enough)");
    }
  }
  gate(gates.max_snapshot_gap_entries, w.snapshot_gap, "--max-snapshot-gap-entries", "snapshot gap");
  return broken;
}

}  // namespace moonquota::reconcile
