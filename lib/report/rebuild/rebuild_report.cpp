#include "report/rebuild/rebuild_report.hpp"

#include <sstream>

#include "report/explain_report.hpp"
#include "report/rebuild/drops_report.hpp"
#include "report/rebuild/expect_report.hpp"
#include "report/rebuild/promote_report.hpp"
#include "util/text_encoding.hpp"
#include "util/text_table.hpp"
#include "util/time_text.hpp"

namespace moonquota::report {

namespace {

using nlohmann::ordered_json;

std::size_t count_findings(const model::Findings& findings, model::Severity s) {
  std::size_t n = 0;
  for (const auto& f : findings) n += f.severity == s ? 1 : 0;
  return n;
}

ordered_json source_json(const quota::RebuildResult& r) {
  ordered_json source;
  const auto& sel = r.selection;
  source["store"] = sel.snapshot_dir.empty() ? sel.store_dir : sel.snapshot_dir;
  source["cluster_id"] = sel.cluster_id;
  if (r.outcome.state) {
    source["snapshot_id"] = r.outcome.state->snapshot_id;
    source["last_included_seq"] = r.outcome.state->descriptor ? r.outcome.state->descriptor->last_included_seq : 0;
  } else {
    source["snapshot_id"] = nullptr;
    source["last_included_seq"] = 0;
  }
  source["oplog_applied_seq"] = 0;
  source["path"] = "restore";
  if (r.promote) {
    const auto& b = r.promote->bootstrap;
    source["snapshot_id"] = b.loaded && b.snapshot_id ? ordered_json(*b.snapshot_id) : ordered_json(nullptr);
    source["last_included_seq"] = b.last_included_seq;
    source["oplog_applied_seq"] = r.promote->replay.applied_seq;
    source["path"] = "promote";
    source["oplog"] = r.promote->replay.origin;
  }
  if (!sel.snapshot_dir.empty()) source["snapshot_dir"] = sel.snapshot_dir;
  if (r.outcome.state && r.outcome.state->descriptor) {
    source["created_at_ms"] = r.outcome.state->descriptor->created_at_ms;
    source["producer_view_version"] = r.outcome.state->descriptor->producer_view_version;
  }
  return source;
}

}  // namespace

ordered_json snapshot_point_json(const quota::RebuildResult& r, bool with_age) {
  if (!r.snapshot) return nullptr;
  const auto& s = *r.snapshot;
  return {{"id", s.snapshot_id},
          {"created_at_ms", s.created_at_ms},
          {"created_at", util::utc_iso8601(s.created_at_ms)},
          {"age_at_restore_ms", with_age ? ordered_json(s.age_at_restore_ms) : ordered_json(nullptr)}};
}

std::string snapshot_point_text(const quota::SnapshotPoint& s, bool with_age) {
  std::string text = util::utc_iso8601(s.created_at_ms) + " (created_at_ms " + std::to_string(s.created_at_ms) + ")";
  if (with_age) text += ", age at restore " + util::hms_text(s.age_at_restore_ms);
  return text;
}

ordered_json rebuild_report_json(const quota::RebuildResult& r) {
  ordered_json j;
  j["schema"] = "quota-rebuild/1";
  j["source"] = source_json(r);
  j["restore_time_ms"] = r.restore_time_ms;
  j["snapshot"] = snapshot_point_json(r);
  j["capacity_bytes"] = r.table.capacity_bytes;
  j["capacity_mode"] = quota::capacity_mode_name(r.capacity.mode);
  j["totals"] = {{"tenants", r.table.rows.size()},
                 {"objects", r.table.total_objects},
                 {"charged_bytes", r.table.total_charged_bytes}};
  restore::DropCounts dropped = r.outcome.state ? r.outcome.state->dropped : restore::DropCounts{};
  if (r.promote) {
    const auto& d = r.promote->bootstrap.dropped;
    dropped = {d.non_complete, d.lease_expired, d.invalid_memory};
  }
  j["dropped"] = {{"non_complete", dropped.non_complete},
                  {"lease_expired", dropped.lease_expired},
                  {"undecodable", dropped.undecodable}};
  ordered_json tenants = ordered_json::array();
  for (const auto& row : r.table.rows) {
    // JSON strings are UTF-8: an id that is not keeps its exact bytes in tenant_id_hex.
    const bool utf8 = util::is_valid_utf8(row.tenant_id);
    tenants.push_back({{"tenant_id", row.tenant_id},
                       {"object_count", row.object_count},
                       {"charged_bytes", row.charged_bytes},
                       {"requested_quota_bytes", row.requested_quota_bytes},
                       {"effective_quota_bytes", row.effective_quota_bytes},
                       {"has_explicit_policy", row.has_explicit_policy},
                       {"admission_closed", row.admission_closed},
                       {"over_quota", row.over_quota},
                       {"orphan", row.orphan},
                       {"visible", row.visible},
                       {"shards", row.shards}});
    if (!utf8) tenants.back()["tenant_id_hex"] = util::to_hex(row.tenant_id);
    const quota::TenantDrops d = drops_of(r.drops, row.tenant_id, row.charged_bytes);
    tenants.back()["dropped"] = tenant_drops_json(d, r.drops.standby);
    tenants.back()["charged_bytes_without_drops"] = d.charged_bytes_without_drops;
  }
  j["tenants"] = std::move(tenants);
  // Tenants whose every object was dropped and that have no policy: no account row, drops only.
  ordered_json dropped_only = ordered_json::array();
  for (const auto& [tenant, d] : r.drops.tenants) {
    if (d.has_account) continue;
    ordered_json t = {{"tenant_id", tenant}};
    if (!util::is_valid_utf8(tenant)) t["tenant_id_hex"] = util::to_hex(tenant);
    t["dropped"] = tenant_drops_json(d, r.drops.standby);
    t["charged_bytes_without_drops"] = d.charged_bytes_without_drops;
    dropped_only.push_back(std::move(t));
  }
  j["dropped_only_tenants"] = std::move(dropped_only);
  j["master_starts_empty"] = r.starts_empty();
  if (r.starts_empty()) {
    j["empty_reason"] =
        r.promote ? "promotion restore validation fails: " + r.promote->validation.failure : r.outcome.empty_reason;
  }
  ordered_json candidates = ordered_json::array();
  for (const auto& a : r.outcome.attempts) {
    ordered_json c = {{"snapshot_id", a.snapshot_id}, {"restored", a.restored}};
    if (!a.restored) c["reason"] = a.reason;
    candidates.push_back(std::move(c));
  }
  if (r.promote && r.promote->bootstrap.snapshot_id) {
    const auto& b = r.promote->bootstrap;
    ordered_json c = {{"snapshot_id", *b.snapshot_id}, {"restored", b.loaded}};
    if (!b.loaded) c["reason"] = b.failure;
    candidates.push_back(std::move(c));
  }
  j["candidates"] = std::move(candidates);
  j["model"] = r.fixed_master ? "fixed-master" : "upstream-3b5a5941";
  j["lease_model"] = restore::lease_model_name(r.lease_model);
  j["policy"] = {{"source", r.policy_source.empty() ? ordered_json(nullptr) : ordered_json(r.policy_source)},
                 {"warnings", r.policy_warnings}};
  model::Findings all = r.outcome.catalog_findings;
  if (r.outcome.state) all.insert(all.end(), r.outcome.state->findings.begin(), r.outcome.state->findings.end());
  if (r.promote) {
    const auto& p = *r.promote;
    all.insert(all.end(), p.catalog_findings.begin(), p.catalog_findings.end());
    all.insert(all.end(), p.bootstrap.findings.begin(), p.bootstrap.findings.end());
    all.insert(all.end(), p.replay.findings.begin(), p.replay.findings.end());
    j["promotion"] = promotion_json(r);
  }
  j["findings"] = {{"errors", count_findings(all, model::Severity::error)},
                   {"warnings", count_findings(all, model::Severity::warning)},
                   {"info", count_findings(all, model::Severity::info)}};
  if (r.expect) j["expect"] = expect_json(*r.expect, r.expect_file);
  if (r.explain) j["explain"] = explain_json(*r.explain, explain_model_text(r));
  return j;
}

std::string explain_model_text(const quota::RebuildResult& r) {
  if (r.charge_model == restore::ChargeModel::live) return "live model: what a running master holds";
  return "restore at " + util::utc_iso8601(static_cast<std::int64_t>(r.restore_time_ms)) + " (restore_time_ms " +
         std::to_string(r.restore_time_ms) + "), lease model " + restore::lease_model_name(r.lease_model) +
         (r.snapshot ? ", snapshot " + r.snapshot->snapshot_id : std::string());
}

std::string rebuild_report_json_text(const quota::RebuildResult& result) {
  // Invalid UTF-8 (only possible in tenant ids and paths) is replaced by U+FFFD in the text;
  // tenant ids then carry tenant_id_hex with the exact bytes.
  return rebuild_report_json(result).dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

void render_rebuild_text(const quota::RebuildResult& r, std::ostream& out) {
  const auto& sel = r.selection;
  out << "source:    "
      << (sel.snapshot_dir.empty() ? sel.store_dir + " (cluster " + sel.cluster_id + ")" : sel.snapshot_dir) << "\n";
  for (const auto& a : r.outcome.attempts) {
    if (!a.restored) out << "rejected:  " << a.snapshot_id << ": " << a.reason << "\n";
  }
  if (r.promote) {
    render_promotion_header(r, out);
  } else if (r.outcome.state) {
    const auto& s = *r.outcome.state;
    out << "snapshot:  " << s.snapshot_id;
    if (s.descriptor)
      out << " (created_at_ms " << s.descriptor->created_at_ms << ", last_included_seq "
          << s.descriptor->last_included_seq << ")";
    out << "\n";
  } else {
    out << "PREDICTION: the master starts with EMPTY metadata (" << r.outcome.empty_reason
        << "): every charge is 0 and no segment is mounted\n";
  }
  if (r.snapshot) out << "created:   " << snapshot_point_text(*r.snapshot, true) << "\n";
  if (!r.promote) {
    out << "path:      restore (master snapshot restore, "
        << (r.fixed_master ? "modelling a fixed master" : "modelling upstream 3b5a5941") << "), restore time "
        << r.restore_time_ms << " ms\n";
  }
  out << "leases:    lease model " << restore::lease_model_name(r.lease_model)
      << (r.lease_model == restore::LeaseModel::keep
              ? " (leases ignored at restore: no object is erased for an expired lease)"
              : " (as upstream 3b5a5941: an object whose lease_timeout <= the restore time is erased)")
      << "\n";
  out << "capacity:  " << r.table.capacity_bytes << " bytes (" << quota::capacity_mode_name(r.capacity.mode) << ")\n";
  if (r.promote && r.capacity.mode == quota::CapacityMode::failover) {
    const auto over = over_quota_tenants(r);
    out << "failover:  right after promotion no segment is mounted (capacity 0): "
        << (over.empty() ? std::string("no tenant") : std::to_string(over.size()) + " tenants")
        << " read over_quota until clients re-mount";
    for (std::size_t i = 0; i < over.size() && i < 20; ++i) out << (i == 0 ? ": " : ", ") << util::printable(over[i]);
    out << "\n";
  }
  for (const auto& w : r.policy_warnings) out << "policy:    warning: " << util::printable(w) << "\n";
  out << "policy:    " << (r.policy_source.empty() ? "none: every tenant with objects is an orphan" : r.policy_source)
      << "\n\n";

  util::TextTable table;
  using A = util::TextTable::Align;
  for (auto [h, a] : {std::pair{"TENANT", A::left},
                      {"OBJECTS", A::right},
                      {"CHARGED", A::right},
                      {"REQUESTED", A::right},
                      {"EFFECTIVE", A::right},
                      {"POLICY", A::left},
                      {"ADMISSION", A::left},
                      {"OVER", A::left},
                      {"VISIBLE", A::left},
                      {"SHARDS", A::right}}) {
    table.add_column(h, a);
  }
  for (const auto& row : r.table.rows) {
    table.add_row({util::printable(row.tenant_id), std::to_string(row.object_count), std::to_string(row.charged_bytes),
                   std::to_string(row.requested_quota_bytes), std::to_string(row.effective_quota_bytes),
                   row.has_explicit_policy ? "explicit" : "orphan", row.admission_closed ? "closed" : "open",
                   row.over_quota ? "yes" : "no", row.visible ? "yes" : "no", std::to_string(row.shards)});
  }
  table.render(out);
  out << "\ntotals:    " << r.table.rows.size() << " tenants, " << r.table.total_objects << " objects, "
      << r.table.total_charged_bytes << " bytes charged\n";
  if (r.outcome.state) {
    const auto& d = r.outcome.state->dropped;
    out << "dropped:   " << d.non_complete << " non-complete, " << d.lease_expired << " lease-expired, "
        << d.undecodable << " undecodable\n";
  }
  for (const auto& row : r.table.rows) {
    if (row.orphan && row.visible) {
      out << "note:      '" << util::printable(row.tenant_id) << "' is an orphan: charged " << row.charged_bytes
          << " bytes with no policy; admission closed, over quota\n";
    } else if (row.orphan) {
      out << "note:      '" << util::printable(row.tenant_id)
          << "' has objects but no policy and no charge: an invisible tombstone (GET answers 404)\n";
    }
    if (!row.valid_tenant_id) {
      out << "warning:   '" << util::printable(row.tenant_id)
          << "' is not a valid tenant id: no request can reach it\n";
    }
  }
  render_drop_table(r.drops, out);
  if (r.expect) render_expect_text(*r.expect, r.expect_file, out);
  if (r.explain) render_explain_text(*r.explain, explain_model_text(r), out);
  model::Findings all = r.outcome.catalog_findings;
  if (r.outcome.state) all.insert(all.end(), r.outcome.state->findings.begin(), r.outcome.state->findings.end());
  if (r.promote) {
    all.insert(all.end(), r.promote->bootstrap.findings.begin(), r.promote->bootstrap.findings.end());
    all.insert(all.end(), r.promote->replay.findings.begin(), r.promote->replay.findings.end());
  }
  std::size_t shown = 0;
  for (const auto& f : all) {
    if (f.severity == model::Severity::info) continue;
    if (++shown > 20) {
      out << "...        more findings not shown (counts are in --format json)\n";
      break;
    }
    out << model::severity_name(f.severity) << ":  " << (f.location.empty() ? "" : f.location + ": ") << f.message
        << "\n";
  }
}

void render_rebuild(const quota::RebuildResult& result, OutputFormat format, std::ostream& out) {
  if (format == OutputFormat::json || format == OutputFormat::ndjson) {
    out << rebuild_report_json_text(result);
  } else {
    render_rebuild_text(result, out);
  }
}

}  // namespace moonquota::report
