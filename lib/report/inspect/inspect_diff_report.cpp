#include "report/inspect/inspect_diff_report.hpp"

#include "util/text_encoding.hpp"
#include "util/text_table.hpp"

namespace moonquota::report {

namespace {

Json summary_json(const inspect::ObjectSummary& o) {
  Json j;
  j["shard"] = o.shard;
  if (!o.decoded) {
    j["skipped"] = true;
    j["skip_reason"] = o.skip_reason;
    return j;
  }
  j["size"] = o.size;
  Json replicas = Json::array();
  for (const auto& r : o.replicas) {
    Json rj = {
        {"id", r.id}, {"type", model::replica_type::name(r.type)}, {"status", model::replica_status::name(r.status)}};
    put_bytes(rj, "location", r.location);
    rj["bytes"] = r.bytes;
    replicas.push_back(std::move(rj));
  }
  j["replicas"] = std::move(replicas);
  return j;
}

std::string summary_text(const inspect::ObjectSummary& o) {
  if (!o.decoded) return "skipped (" + o.skip_reason + ")";
  std::string s = std::to_string(o.size) + " B";
  for (const auto& r : o.replicas) {
    s += std::string(" ") + model::replica_type::name(r.type) + "/" + model::replica_status::name(r.status) + "/" +
         util::printable(r.location);
  }
  return s;
}

std::int64_t delta(std::uint64_t a, std::uint64_t b) {
  return b >= a ? static_cast<std::int64_t>(std::min<std::uint64_t>(b - a, INT64_MAX))
                : -static_cast<std::int64_t>(std::min<std::uint64_t>(a - b, INT64_MAX));
}

Json segment_side(const std::optional<restore::SegmentSummary>& s) {
  if (!s) return nullptr;
  return {{"name", s->name}, {"size", s->size}, {"status", model::segment_status::name(s->status)}};
}

}  // namespace

Json object_change_json(const inspect::ObjectChange& c) {
  Json j;
  j["change"] = inspect::change_kind_name(c.kind);
  put_bytes(j, "tenant_id", c.tenant_id);
  put_bytes(j, "key", c.key);
  if (!c.fields.empty()) j["fields"] = c.fields;
  j["a"] = c.a ? summary_json(*c.a) : Json(nullptr);
  j["b"] = c.b ? summary_json(*c.b) : Json(nullptr);
  return j;
}

void DiffWriter::begin(const inspect::DiffSide& a, const inspect::DiffSide& b) {
  m_a = a.snapshot_dir;
  m_b = b.snapshot_dir;
  if (m_format == OutputFormat::text) m_out << "A: " << a.snapshot_dir << "\nB: " << b.snapshot_dir << "\n\n";
}

void DiffWriter::write(const inspect::ObjectChange& c) {
  ++m_written;
  if (m_format == OutputFormat::ndjson) {
    m_out << dump_inspect_json(object_change_json(c), -1) << "\n";
    return;
  }
  if (m_limit != 0 && m_written > m_limit) return;
  if (m_format == OutputFormat::json) {
    m_kept.push_back(object_change_json(c));
    return;
  }
  const char* mark = c.kind == inspect::ChangeKind::added ? "+" : c.kind == inspect::ChangeKind::removed ? "-" : "~";
  m_out << mark << " tenant '" << util::printable(c.tenant_id) << "' key '" << util::printable(c.key) << "'";
  if (c.kind == inspect::ChangeKind::changed) {
    m_out << " (";
    for (std::size_t i = 0; i < c.fields.size(); ++i) m_out << (i ? ", " : "") << c.fields[i];
    m_out << "): " << summary_text(*c.a) << "  ->  " << summary_text(*c.b) << "\n";
  } else {
    m_out << ": " << summary_text(c.a ? *c.a : *c.b) << "\n";
  }
}

void DiffWriter::end(const inspect::DiffResult& r, std::uint64_t restore_time_ms) {
  Json tenants = Json::array();
  for (const auto& [t, d] : r.tenants) {
    if (d.objects_a == d.objects_b && d.charged_bytes_a == d.charged_bytes_b) continue;
    Json tj;
    put_bytes(tj, "tenant_id", t);
    tj["restored_objects_a"] = d.objects_a;
    tj["restored_objects_b"] = d.objects_b;
    tj["charged_bytes_a"] = d.charged_bytes_a;
    tj["charged_bytes_b"] = d.charged_bytes_b;
    tj["charged_bytes_delta"] = delta(d.charged_bytes_a, d.charged_bytes_b);
    tenants.push_back(std::move(tj));
  }
  Json segments = Json::array();
  for (const auto& s : r.segments) {
    Json sj = {{"id", s.id}, {"change", inspect::change_kind_name(s.kind)}};
    if (!s.fields.empty()) sj["fields"] = s.fields;
    sj["a"] = segment_side(s.a);
    sj["b"] = segment_side(s.b);
    segments.push_back(std::move(sj));
  }
  const Json counts = {{"added", r.counts.added},
                       {"removed", r.counts.removed},
                       {"changed", r.counts.changed},
                       {"unchanged", r.counts.unchanged}};
  if (m_format == OutputFormat::ndjson) {
    for (const auto& t : tenants) m_out << dump_inspect_json(Json{{"tenant_delta", t}}, -1) << "\n";
    for (const auto& s : segments) m_out << dump_inspect_json(Json{{"segment_change", s}}, -1) << "\n";
    m_out << dump_inspect_json(Json{{"summary", {{"objects", counts}, {"differ", r.differs()}}}}, -1) << "\n";
    return;
  }
  if (m_format == OutputFormat::json) {
    Json j;
    j["schema"] = "snapshot-inspect-diff/1";
    j["a"] = {{"snapshot_id", r.a.snapshot_id},
              {"snapshot_dir", m_a},
              {"tasks", r.a.tasks.size()},
              {"discarded_items", r.a.metadata.discarded.size()},
              {"replica_next_id", r.a.metadata.replica_next_id}};
    j["b"] = {{"snapshot_id", r.b.snapshot_id},
              {"snapshot_dir", m_b},
              {"tasks", r.b.tasks.size()},
              {"discarded_items", r.b.metadata.discarded.size()},
              {"replica_next_id", r.b.metadata.replica_next_id}};
    j["a"]["master_rejection"] = r.a.master_rejection ? Json(*r.a.master_rejection) : Json(nullptr);
    j["b"]["master_rejection"] = r.b.master_rejection ? Json(*r.b.master_rejection) : Json(nullptr);
    j["restore_time_ms"] = restore_time_ms;
    j["differ"] = r.differs();
    j["objects"] = counts;
    j["changes"] = m_kept;
    j["changes_truncated"] = m_limit != 0 && m_written > m_limit;
    j["tenants"] = tenants;
    j["segments"] = segments;
    m_out << dump_inspect_json(j, 2) << "\n";
    return;
  }
  if (m_limit != 0 && m_written > m_limit) m_out << "... " << (m_written - m_limit) << " more changes (--limit)\n";
  m_out << (m_written > 0 ? "\n" : "") << "objects:  " << r.counts.added << " added, " << r.counts.removed
        << " removed, " << r.counts.changed << " changed, " << r.counts.unchanged << " unchanged (" << r.shards_compared
        << " shards compared)\n";
  m_out << "tasks:    " << r.a.tasks.size() << " -> " << r.b.tasks.size() << "; discarded items "
        << r.a.metadata.discarded.size() << " -> " << r.b.metadata.discarded.size() << "; replica_next_id "
        << r.a.metadata.replica_next_id << " -> " << r.b.metadata.replica_next_id << "\n";
  if (!tenants.empty()) {
    m_out << "\ntenants (restored at " << restore_time_ms << " ms):\n";
    util::TextTable t;
    t.add_column("tenant", util::TextTable::Align::left);
    for (const char* h : {"objects_a", "objects_b", "charged_bytes_a", "charged_bytes_b", "delta"}) {
      t.add_column(h, util::TextTable::Align::right);
    }
    for (const auto& tj : tenants) {
      t.add_row({util::printable(tj["tenant_id"].get<std::string>()),
                 std::to_string(tj["restored_objects_a"].get<std::uint64_t>()),
                 std::to_string(tj["restored_objects_b"].get<std::uint64_t>()),
                 std::to_string(tj["charged_bytes_a"].get<std::uint64_t>()),
                 std::to_string(tj["charged_bytes_b"].get<std::uint64_t>()),
                 std::to_string(tj["charged_bytes_delta"].get<std::int64_t>())});
    }
    t.render(m_out);
  }
  if (!segments.empty()) {
    m_out << "\nsegments:\n";
    for (const auto& s : r.segments) {
      m_out << "  " << inspect::change_kind_name(s.kind) << " " << util::printable(s.id);
      for (const auto& f : s.fields) m_out << " " << f;
      if (s.a && s.b) {
        m_out << " (" << model::segment_status::name(s.a->status) << " " << s.a->size << " B -> "
              << model::segment_status::name(s.b->status) << " " << s.b->size << " B)";
      }
      m_out << "\n";
    }
  }
  if (r.a.master_rejection) m_out << "note:     the master rejects snapshot A: " << *r.a.master_rejection << "\n";
  if (r.b.master_rejection) m_out << "note:     the master rejects snapshot B: " << *r.b.master_rejection << "\n";
  m_out << "verdict:  " << (r.differs() ? "the snapshots DIFFER" : "no difference") << "\n";
}

}  // namespace moonquota::report
