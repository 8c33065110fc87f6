// The phrases of `snapshot-inspect survival` that the text and HTML renderers share, and delay_text.
#include <cstdio>
#include <ctime>
#include <string>
#include <utility>

#include "report/inspect/survival_report_parts.hpp"

namespace moonquota::report {

namespace {

std::string survival_share_text(const SurvivalRow& row) {
  auto p = row.share_kept_permille();
  if (!p) return "-";
  return std::to_string(*p / 10) + "." + std::to_string(*p % 10) + "%";
}

}  // namespace

std::string survival_dec(util::u128 v) { return std::to_string(saturate(v)); }

std::string survival_utc_text(std::uint64_t ms) {
  const auto t = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[40];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm);
  char out[48];
  std::snprintf(out, sizeof out, "%s.%03u UTC", buf, static_cast<unsigned>(ms % 1000));
  return out;
}

std::string survival_path_text(const SurvivalReport& r) {
  if (r.path != "promote") {
    std::string s = "restore (the master's restore: the post-restore filter, snapshot-format.md §10)";
    if (r.restored_snapshot_id.empty()) {
      s += "; a restore rejects every candidate and starts EMPTY, keeping nothing at any point (see master): the "
           "amounts below are what this snapshot holds, which no restore serves";
    } else if (r.restored_snapshot_id != r.context.selected.snapshot_id) {
      s += " of snapshot " + r.restored_snapshot_id +
           ", the candidate a restore accepts (the latest is rejected: see "
           "master)";
    }
    return s;
  }
  std::string s =
      "promote (a standby bootstraps from the latest snapshot at each point (snapshot-format.md §11), replays the "
      "OpLog tail";
  if (r.oplog && r.oplog->prefix_missing) {
    s += " (" + r.oplog->origin +
         ": no durable_prefix for this cluster, nothing replayed; is --cluster-id the OpLog's?)";
  } else if (r.oplog) {
    s += " from sequence " + std::to_string(r.oplog->first_expected) + " to " + std::to_string(r.oplog->applied_seq) +
         " (" + r.oplog->origin + ")";
  }
  s += " and is promoted (oplog-format.md §15-§16))";
  return s;
}

// A point at which the promoted master holds less than the bootstrap and the OpLog give it.
std::string survival_promotion_note(const SurvivalPointRows& p) {
  if (!p.promotion) return {};
  std::string s;
  if (!p.promotion->bootstrap_failure.empty()) {
    s += "the standby's bootstrap fails (" + p.promotion->bootstrap_failure +
         "): it starts EMPTY and replays the OpLog from sequence 1";
  }
  if (p.promotion->starts_empty) {
    if (!s.empty()) s += "; ";
    s += "the promotion validation fails (" + p.promotion->failure +
         "): the promoted master serves EMPTY metadata, every charge 0";
  }
  return s;
}

const char* survival_lease_text(restore::LeaseModel model) {
  return model == restore::LeaseModel::keep
             ? "keep (leases ignored at restore: only objects with a non-COMPLETE replica are erased)"
             : "upstream (3b5a5941: an object is erased when restore time >= its lease_timeout)";
}

std::string survival_gone_text(const std::optional<std::int64_t>& ms, const TenantDecay& d, const SurvivalReport& r) {
  if (!d.reference_delay_ms) return "n/a";
  if (ms) return delay_text(*ms);
  return "beyond " + delay_text(r.points.empty() ? 0 : r.points.back().point.delay_ms);
}

std::string survival_reference_text(const TenantDecay& d) {
  if (!d.reference_delay_ms) return "none: EMPTY at every point";
  if (*d.reference_delay_ms == 0) return "0";
  return delay_text(*d.reference_delay_ms) + " (EMPTY before)";
}

void survival_add_amount_cells(std::vector<std::string>& cells, const SurvivalRow& row) {
  cells.push_back(std::to_string(row.kept.objects));
  cells.push_back(survival_dec(row.kept.bytes));
  cells.push_back(survival_dec(row.kept.charged_bytes));
  cells.push_back(std::to_string(row.dropped.objects));
  cells.push_back(survival_dec(row.dropped.bytes));
  cells.push_back(survival_dec(row.dropped.charged_bytes));
  cells.push_back(survival_share_text(row));
}

std::string survival_point_label(const inspect::SurvivalPoint& p) {
  std::string s = p.is_now ? "now" : p.label;
  if (p.is_now && p.label != "now") s = p.label + " (now)";
  return p.added ? s + "*" : s;
}

std::string delay_text(std::int64_t delay_ms) {
  if (delay_ms == 0) return "0";
  std::string sign = delay_ms < 0 ? "-" : "";
  auto rest = delay_ms < 0 ? static_cast<std::uint64_t>(0) - static_cast<std::uint64_t>(delay_ms)
                           : static_cast<std::uint64_t>(delay_ms);
  std::string out;
  for (const auto& [unit, ms] : {std::pair<const char*, std::uint64_t>{"d", 86'400'000},
                                 {"h", 3'600'000},
                                 {"m", 60'000},
                                 {"s", 1000},
                                 {"ms", 1}}) {
    if (rest >= ms) {
      out += std::to_string(rest / ms) + unit;
      rest %= ms;
    }
  }
  return sign + out;
}

}  // namespace moonquota::report
