#include "report/inspect/survival_report.hpp"

#include <ctime>
#include <set>
#include <string>

#include "report/escape.hpp"
#include "report/inspect/inspect_summary_report.hpp"
#include "report/reconcile/reconcile_html.hpp"
#include "report/reconcile/svg_chart.hpp"
#include "util/text_encoding.hpp"
#include "util/text_table.hpp"

namespace moonquota::report {

namespace {

using util::TextTable;
constexpr auto L = TextTable::Align::left;
constexpr auto R = TextTable::Align::right;
constexpr const char* k_schema = "snapshot-inspect-survival/1";

std::string dec(util::u128 v) { return std::to_string(saturate(v)); }

std::string utc_text(std::uint64_t ms) {
  const auto t = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[40];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm);
  char out[48];
  std::snprintf(out, sizeof out, "%s.%03u UTC", buf, static_cast<unsigned>(ms % 1000));
  return out;
}

std::string path_text(const SurvivalReport& r) {
  if (r.path != "promote") return "restore (the master's restore: the post-restore filter, snapshot-format.md §10)";
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
std::string promotion_note(const SurvivalPointRows& p) {
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

const char* lease_text(restore::LeaseModel model) {
  return model == restore::LeaseModel::keep
             ? "keep (leases ignored at restore: only objects with a non-COMPLETE replica are erased)"
             : "upstream (3b5a5941: an object is erased when restore time >= its lease_timeout)";
}

std::string share_text(const SurvivalRow& row) {
  auto p = row.share_kept_permille();
  if (!p) return "-";
  return std::to_string(*p / 10) + "." + std::to_string(*p % 10) + "%";
}

std::string gone_text(const std::optional<std::int64_t>& ms, const SurvivalReport& r) {
  if (ms) return delay_text(*ms);
  return "beyond " + delay_text(r.points.empty() ? 0 : r.points.back().point.delay_ms);
}

Json amount_json(const SurvivalRow& row) {
  Json j;
  j["objects_kept"] = row.kept.objects;
  j["bytes_kept"] = saturate(row.kept.bytes);
  j["charged_bytes"] = saturate(row.kept.charged_bytes);
  j["objects_dropped"] = row.dropped.objects;
  j["bytes_dropped"] = saturate(row.dropped.bytes);
  j["charged_bytes_dropped"] = saturate(row.dropped.charged_bytes);
  j["undecodable"] = row.undecodable;
  auto p = row.share_kept_permille();
  j["share_kept_permille"] = p ? Json(*p) : Json(nullptr);
  return j;
}

Json point_json(const SurvivalPointRows& p) {
  Json j;
  j["label"] = p.point.label;
  j["at_ms"] = p.point.at_ms;
  j["delay_ms"] = p.point.delay_ms;
  j["is_now"] = p.point.is_now;
  j["added"] = p.point.added;
  return j;
}

Json promotion_json(const SurvivalPromotion& p) {
  Json j;
  j["bootstrap_loaded"] = p.bootstrap_loaded;
  j["bootstrap_failure"] = p.bootstrap_failure.empty() ? Json(nullptr) : Json(p.bootstrap_failure);
  j["starts_empty"] = p.starts_empty;
  j["failure"] = p.failure.empty() ? Json(nullptr) : Json(p.failure);
  return j;
}

Json optional_ms(const std::optional<std::int64_t>& ms) { return ms ? Json(*ms) : Json(nullptr); }

Json report_json(const SurvivalReport& r, const restore::ScannedSnapshot& snap) {
  Json j = header_json(r.context, snap, k_schema);
  j["path"] = r.path;
  if (r.oplog) {
    j["oplog"] = {{"origin", r.oplog->origin},
                  {"first_expected_seq", r.oplog->first_expected},
                  {"applied_seq", r.oplog->applied_seq},
                  {"per_point_runs", r.oplog->per_point_runs},
                  {"durable_prefix_missing", r.oplog->prefix_missing}};
  }
  j["lease_model"] = restore::lease_model_name(r.lease_model);
  // The shared header's block (id, created_at_ms, created_at, age_at_restore_ms), plus survival's
  // own reading of "now" (the --restore-time).
  Json& snapshot = j["snapshot"];
  snapshot["snapshot_id"] = r.context.selected.snapshot_id;
  snapshot["created_at_ms"] = r.created_at_ms;
  snapshot["now_ms"] = r.now_ms;
  snapshot["age_now_ms"] = static_cast<std::int64_t>(r.now_ms) - r.created_at_ms;
  Json points = Json::array();
  for (const auto& p : r.points) {
    Json pj = point_json(p);
    if (p.promotion) pj["promotion"] = promotion_json(*p.promotion);
    pj["totals"] = amount_json(p.totals);
    Json tenants = Json::array();
    for (const auto& t : p.tenants) {
      Json tj;
      put_bytes(tj, "tenant_id", t.tenant_id);
      tj.update(amount_json(t));
      tenants.push_back(std::move(tj));
    }
    pj["tenants"] = std::move(tenants);
    points.push_back(std::move(pj));
  }
  j["points"] = std::move(points);
  Json decay = Json::array();
  for (const auto& d : r.decay) {
    Json dj;
    put_bytes(dj, "tenant_id", d.tenant_id);
    dj["charged_bytes_at_delay_0"] = saturate(d.charged_at_zero);
    dj["half_gone_after_ms"] = optional_ms(d.half_gone_after_ms);
    dj["all_gone_after_ms"] = optional_ms(d.all_gone_after_ms);
    decay.push_back(std::move(dj));
  }
  j["tenants"] = std::move(decay);
  return j;
}

void render_ndjson(const SurvivalReport& r, std::ostream& out) {
  for (const auto& p : r.points) {
    for (const auto& t : p.tenants) {
      Json j;
      j["schema"] = k_schema;
      j["snapshot_id"] = r.context.selected.snapshot_id;
      j["path"] = r.path;
      j["lease_model"] = restore::lease_model_name(r.lease_model);
      j.update(point_json(p));
      if (p.promotion) j["starts_empty"] = p.promotion->starts_empty;
      put_bytes(j, "tenant_id", t.tenant_id);
      j.update(amount_json(t));
      out << dump_inspect_json(j, -1) << "\n";
    }
  }
}

void add_amount_cells(std::vector<std::string>& cells, const SurvivalRow& row) {
  cells.push_back(std::to_string(row.kept.objects));
  cells.push_back(dec(row.kept.bytes));
  cells.push_back(dec(row.kept.charged_bytes));
  cells.push_back(std::to_string(row.dropped.objects));
  cells.push_back(dec(row.dropped.bytes));
  cells.push_back(share_text(row));
}

std::string point_label(const inspect::SurvivalPoint& p) {
  std::string s = p.is_now ? "now" : p.label;
  if (p.is_now && p.label != "now") s = p.label + " (now)";
  return p.added ? s + "*" : s;
}

void render_text(const SurvivalReport& r, const restore::ScannedSnapshot& snap, std::ostream& out) {
  render_header_text(r.context, snap, out);
  const std::int64_t age = static_cast<std::int64_t>(r.now_ms) - r.created_at_ms;
  // The header's `created:` line gives created_at and the age at --restore-time, which is "now" here.
  if (age < 0) out << "note:        the snapshot was created " << delay_text(-age) << " after now\n";
  out << "path:        " << path_text(r) << "\n";
  out << "lease model: " << lease_text(r.lease_model) << "\n\n";
  TextTable table;
  for (const char* h : {"point", "at (UTC)", "delay", "tenant"}) table.add_column(h, L);
  for (const char* h : {"objects kept", "bytes kept", "charged bytes", "objects dropped", "bytes dropped", "kept"}) {
    table.add_column(h, R);
  }
  for (const auto& p : r.points) {
    std::vector<std::string> cells = {point_label(p.point), utc_text(p.point.at_ms), delay_text(p.point.delay_ms),
                                      "(all)"};
    add_amount_cells(cells, p.totals);
    table.add_row(std::move(cells));
    for (const auto& t : p.tenants) {
      std::vector<std::string> row = {"", "", "", util::printable(t.tenant_id)};
      add_amount_cells(row, t);
      table.add_row(std::move(row));
    }
  }
  table.render(out);
  out << "(* added: delay 0 is the reference of the columns below, `now` what a restore right now keeps; "
         "kept = share of the charge kept)\n";
  if (r.path == "promote") {
    out << "(promote: kept = what the promoted master holds, snapshot and OpLog tail; dropped = what the standby's "
           "bootstrap drops)\n";
    if (r.oplog && r.oplog->per_point_runs) {
      out << "(the bootstrap fails with leases ignored, so each point ran the whole promotion at its instant)\n";
    }
  }
  for (const auto& p : r.points) {
    const std::string note = promotion_note(p);
    if (!note.empty()) out << "!! at " << point_label(p.point) << ": " << note << "\n";
  }
  out << "\n";
  TextTable decay;
  decay.add_column("tenant", L);
  decay.add_column("charged at delay 0", R);
  decay.add_column("half gone after", R);
  decay.add_column("all gone after", R);
  for (const auto& d : r.decay) {
    decay.add_row({util::printable(d.tenant_id), dec(d.charged_at_zero), gone_text(d.half_gone_after_ms, r),
                   gone_text(d.all_gone_after_ms, r)});
  }
  decay.render(out);
}

void render_html(const SurvivalReport& r, std::ostream& out) {
  const std::string& id = r.context.selected.snapshot_id;
  out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/><title>snapshot-inspect survival: "
      << html_escape(id) << "</title><style>body{font-family:system-ui,sans-serif;margin:2em}"
      << "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px}td.n{text-align:right}"
      << "</style></head><body>\n";
  out << "<h1>Restore survival of snapshot " << html_escape(id) << "</h1>\n";
  out << "<p>created_at " << r.created_at_ms << " (" << utc_text(static_cast<std::uint64_t>(r.created_at_ms))
      << "), now " << r.now_ms << " (" << utc_text(r.now_ms) << "); path " << html_escape(path_text(r))
      << "; lease model " << html_escape(lease_text(r.lease_model)) << "</p>\n";
  out << "<table><thead><tr><th>point</th><th>delay</th><th>objects kept</th><th>bytes kept</th><th>charged "
         "bytes</th><th>objects dropped</th><th>bytes dropped</th><th>kept</th></tr></thead><tbody>\n";
  for (const auto& p : r.points) {
    std::vector<std::string> cells;
    add_amount_cells(cells, p.totals);
    out << "<tr><td>" << html_escape(point_label(p.point)) << "</td><td>" << html_escape(delay_text(p.point.delay_ms))
        << "</td>";
    for (const auto& c : cells) out << "<td class=\"n\">" << html_escape(c) << "</td>";
    out << "</tr>\n";
  }
  out << "</tbody></table>\n";
  for (const auto& p : r.points) {
    const std::string note = promotion_note(p);
    if (!note.empty())
      out << "<p><strong>at " << html_escape(point_label(p.point)) << ": " << html_escape(note) << "</strong></p>\n";
  }
  for (std::size_t t = 0; t < r.decay.size(); ++t) {
    const auto& d = r.decay[t];
    out << "<h2>" << html_escape(d.tenant_id) << "</h2>\n<p>charged at delay 0: " << dec(d.charged_at_zero)
        << " bytes; half gone after " << html_escape(gone_text(d.half_gone_after_ms, r)) << "; all gone after "
        << html_escape(gone_text(d.all_gone_after_ms, r)) << "</p>\n";
    ChartSeries series{d.tenant_id, {}};
    for (const auto& p : r.points) {
      const auto charged = saturate(p.tenants[t].kept.charged_bytes);
      series.points.push_back(
          {p.point.at_ms, static_cast<std::int64_t>(std::min<std::uint64_t>(charged, util::k_max_charged_bytes))});
    }
    render_svg_chart({series}, out,
                     {"survival-" + std::to_string(t), "Charged bytes a restore keeps, by restore time",
                      "charged bytes kept per restore time"});
  }
  out << "</body></html>\n";
}

// Per tenant (in the order of the points' rows): the charge kept at delay 0 and the first point
// with delay >= 0 at which at most half / none of it is kept.
void fill_decay(SurvivalReport& r) {
  if (r.points.empty()) return;
  for (std::size_t t = 0; t < r.points.front().tenants.size(); ++t) {
    TenantDecay d;
    d.tenant_id = r.points.front().tenants[t].tenant_id;
    bool reference = false;
    for (const auto& p : r.points) {
      if (p.point.delay_ms < 0) continue;
      const util::u128 kept = p.tenants[t].kept.charged_bytes;
      if (!reference) {  // the first point with delay >= 0 is delay 0 (always in the list)
        d.charged_at_zero = kept;
        reference = true;
      }
      if (!d.half_gone_after_ms && kept * 2 <= d.charged_at_zero) d.half_gone_after_ms = p.point.delay_ms;
      if (!d.all_gone_after_ms && kept == 0) d.all_gone_after_ms = p.point.delay_ms;
    }
    r.decay.push_back(std::move(d));
  }
}

}  // namespace

std::optional<std::uint64_t> SurvivalRow::share_kept_permille() const {
  const util::u128 all = kept.charged_bytes + dropped.charged_bytes;
  if (all == 0) return std::nullopt;
  return static_cast<std::uint64_t>(kept.charged_bytes * 1000 / all);
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

SurvivalReport build_survival_report(const InspectContext& context, const restore::SurvivalScan& scan,
                                     const std::vector<inspect::SurvivalPoint>& points, restore::LeaseModel lease_model,
                                     std::int64_t created_at_ms, std::uint64_t now_ms) {
  SurvivalReport r;
  r.context = context;
  r.lease_model = lease_model;
  r.created_at_ms = created_at_ms;
  r.now_ms = now_ms;
  for (std::size_t p = 0; p < points.size(); ++p) {
    SurvivalPointRows rows;
    rows.point = points[p];
    for (const auto& [tenant, survival] : scan.tenants) {
      SurvivalRow row;
      row.tenant_id = tenant;
      row.kept = survival.kept_at(p);
      row.dropped = survival.dropped_at(p);
      row.undecodable = survival.undecodable;
      rows.totals.kept += row.kept;
      rows.totals.dropped += row.dropped;
      rows.totals.undecodable += row.undecodable;
      rows.tenants.push_back(std::move(row));
    }
    r.points.push_back(std::move(rows));
  }
  fill_decay(r);
  return r;
}

SurvivalReport build_promote_survival_report(const InspectContext& context, const restore::PromoteSurvival& survival,
                                             const std::vector<inspect::SurvivalPoint>& points,
                                             restore::LeaseModel lease_model, std::int64_t created_at_ms,
                                             std::uint64_t now_ms) {
  SurvivalReport r;
  r.context = context;
  r.path = "promote";
  r.lease_model = lease_model;
  r.created_at_ms = created_at_ms;
  r.now_ms = now_ms;
  r.oplog = SurvivalOpLog{survival.outcome.replay.origin, survival.outcome.replay.first_expected,
                          survival.outcome.replay.applied_seq, survival.per_point_runs,
                          !survival.outcome.replay.prefix.has_value()};
  std::set<std::string> tenants;
  for (const auto& p : survival.points) {
    for (const auto& [tenant, amount] : p.kept) tenants.insert(tenant);
    for (const auto& [tenant, amount] : p.dropped) tenants.insert(tenant);
  }
  for (std::size_t p = 0; p < points.size() && p < survival.points.size(); ++p) {
    const auto& at = survival.points[p];
    SurvivalPointRows rows;
    rows.point = points[p];
    rows.promotion =
        SurvivalPromotion{at.bootstrap_loaded, at.bootstrap_failure, at.starts_empty, at.validation_failure};
    for (const auto& tenant : tenants) {
      SurvivalRow row;
      row.tenant_id = tenant;
      if (auto it = at.kept.find(tenant); it != at.kept.end()) row.kept = it->second;
      if (auto it = at.dropped.find(tenant); it != at.dropped.end()) row.dropped = it->second;
      rows.totals.kept += row.kept;
      rows.totals.dropped += row.dropped;
      rows.tenants.push_back(std::move(row));
    }
    r.points.push_back(std::move(rows));
  }
  fill_decay(r);
  return r;
}

void render_survival(const SurvivalReport& report, const restore::ScannedSnapshot& snapshot, OutputFormat format,
                     std::ostream& out) {
  switch (format) {
    case OutputFormat::json: out << dump_inspect_json(report_json(report, snapshot), 2) << "\n"; break;
    case OutputFormat::ndjson: render_ndjson(report, out); break;
    case OutputFormat::html: render_html(report, out); break;
    default: render_text(report, snapshot, out);
  }
}

}  // namespace moonquota::report
