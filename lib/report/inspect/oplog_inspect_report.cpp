#include "report/inspect/oplog_inspect_report.hpp"

#include "report/inspect/inspect_json.hpp"

#include "util/plural.hpp"
#include "util/text_encoding.hpp"
#include "util/text_table.hpp"

namespace moonquota::report {

namespace {

using nlohmann::ordered_json;

ordered_json prefix_json(const std::optional<format::DurablePrefix>& p) {
  if (!p) return nullptr;
  return {{"batch_id", p->batch_id}, {"last_seq", p->last_seq}};
}

ordered_json text_json(const std::string& s) {
  if (util::is_valid_utf8(s)) return s;
  return {{"hex", util::to_hex(s)}};
}

ordered_json replica_json(const format::PayloadReplica& r) {
  ordered_json j = {{"id", r.id}, {"kind", format::payload_variant::name(r.variant)}, {"status", r.status}};
  switch (r.variant) {
    case format::payload_variant::memory:
    case format::payload_variant::nof:
      j["size"] = r.buffer_size;
      j["buffer_address"] = r.buffer_address;
      j["protocol"] = text_json(r.protocol);
      j["transport_endpoint"] = text_json(r.transport_endpoint);
      break;
    case format::payload_variant::disk:
      j["file_path"] = text_json(r.file_path);
      j["object_size"] = r.object_size;
      break;
    case format::payload_variant::local_disk:
      j["client_id"] = std::to_string(r.client_first) + "-" + std::to_string(r.client_second);
      j["object_size"] = r.object_size;
      j["transport_endpoint"] = text_json(r.transport_endpoint);
      break;
    default:
      j["file_path"] = text_json(r.file_path);
      j["offset"] = r.dfs_offset;
      j["object_size"] = r.object_size;
      j["aligned_size"] = r.dfs_aligned_size;
      j["shard_idx"] = r.dfs_shard_idx;
  }
  return j;
}

ordered_json findings_json(const model::Findings& findings, model::Severity s, std::size_t cap) {
  ordered_json out = ordered_json::array();
  for (const auto& f : findings) {
    if (f.severity != s) continue;
    if (out.size() >= cap) break;
    out.push_back({{"location", text_json(f.location)}, {"message", text_json(f.message)}});
  }
  return out;
}

}  // namespace

ordered_json oplog_audit_json(const inspect::OpLogAudit& a, const std::string& cluster_id) {
  ordered_json j;
  j["schema"] = "oplog-verify/1";
  j["ok"] = a.ok;
  j["cluster_id"] = cluster_id;
  j["root"] = a.root;
  j["legacy_max_seq"] = a.legacy_max_seq;
  j["durable_prefix"] = prefix_json(a.prefix);
  j["batch_count"] = a.batch_count;
  j["entry_count"] = a.entry_count;
  j["orphan_batches"] = a.orphan_batches;
  j["key_classes"] = a.key_classes;
  if (!a.other_clusters.empty()) {  // only when the chosen cluster id holds no key
    ordered_json others = ordered_json::array();
    for (const auto& id : a.other_clusters) others.push_back(util::is_valid_utf8(id) ? id : util::to_hex(id));
    j["other_cluster_ids"] = std::move(others);
  }
  std::size_t errors = 0;
  for (const auto& f : a.findings) errors += f.severity == model::Severity::error ? 1 : 0;
  j["errors"] = findings_json(a.findings, model::Severity::error, 100);
  j["truncated_errors"] = errors > 100 ? errors - 100 : 0;
  j["warnings"] = findings_json(a.findings, model::Severity::warning, 1000);
  j["info"] = findings_json(a.findings, model::Severity::info, 1000);
  return j;
}

void render_oplog_audit_text(const inspect::OpLogAudit& a, std::ostream& out) {
  out << (a.ok ? "ok" : "NOT OK") << ": " << a.root << "\n";
  out << "prefix:    ";
  if (a.prefix) {
    out << "batch " << a.prefix->batch_id << ", last_seq " << a.prefix->last_seq << "\n";
  } else {
    out << "missing\n";
  }
  out << "batches:   " << a.batch_count << " (" << util::counted(a.entry_count, "entry", "entries") << "), "
      << util::counted(a.orphan_batches.size(), "orphan", "orphans") << ", legacy_max_seq " << a.legacy_max_seq << "\n";
  for (const auto& [cls, n] : a.key_classes) out << "keys:      " << cls << ": " << n << "\n";
  for (auto s : {model::Severity::error, model::Severity::warning, model::Severity::info}) {
    for (const auto& f : a.findings) {
      if (f.severity == s) {
        out << model::severity_name(s) << ": " << util::printable(f.location) << ": " << util::printable(f.message)
            << "\n";
      }
    }
  }
}

ordered_json oplog_summary_json(const inspect::OpLogSummary& s) {
  ordered_json j;
  j["schema"] = "oplog-summary/1";
  j["durable_prefix"] = prefix_json(s.prefix);
  j["batches"] = s.batches;
  j["undecodable_batches"] = s.undecodable_batches;
  j["sequence_range"] = {{"first", s.first_seq}, {"last", s.last_seq}};
  j["entries"] = s.entries;
  j["entries_by_op"] = s.entries_by_op;
  ordered_json tenants = ordered_json::object();
  for (const auto& [t, n] : s.entries_by_tenant) tenants[util::is_valid_utf8(t) ? t : util::to_hex(t)] = n;
  j["entries_by_tenant"] = std::move(tenants);
  j["payload_forms"] = {{"compact", s.compact_payloads}, {"type_literal", s.literal_payloads}};
  j["replay"] = {{"ok", s.replay_error.empty()},
                 {"error", s.replay_error.empty() ? ordered_json(nullptr) : ordered_json(s.replay_error)},
                 {"applied_seq", s.replay_applied_seq},
                 {"objects", s.state.objects},
                 {"placeholders", s.state.placeholders},
                 {"objects_with_non_complete_replicas", s.state.non_complete},
                 {"segments", s.state.registry_segments},
                 {"memory_segments", s.state.registry_memory_segments},
                 {"memory_capacity_bytes", s.state.registry_memory_capacity_bytes},
                 {"promotion_validation", !s.promotion_checked ? ordered_json(nullptr)
                                          : s.state.ok         ? ordered_json("ok")
                                                               : ordered_json(s.state.failure)}};
  return j;
}

void render_oplog_summary_text(const inspect::OpLogSummary& s, std::ostream& out) {
  out << "prefix:    ";
  if (s.prefix) {
    out << "batch " << s.prefix->batch_id << ", last_seq " << s.prefix->last_seq << "\n";
  } else {
    out << "missing\n";
  }
  out << "sequences: " << s.first_seq << ".." << s.last_seq << " in " << util::counted(s.batches, "batch", "batches")
      << " (" << util::counted(s.entries, "entry", "entries") << ", "
      << util::counted(s.undecodable_batches, "undecodable batch", "undecodable batches") << ")\n";
  out << "payloads:  " << s.compact_payloads << " compact, " << s.literal_payloads << " type-literal\n";
  util::TextTable ops;
  ops.add_column("OP", util::TextTable::Align::left);
  ops.add_column("ENTRIES", util::TextTable::Align::right);
  for (const auto& [op, n] : s.entries_by_op) ops.add_row({op, std::to_string(n)});
  out << "\n";
  ops.render(out);
  util::TextTable tenants;
  tenants.add_column("TENANT", util::TextTable::Align::left);
  tenants.add_column("ENTRIES", util::TextTable::Align::right);
  for (const auto& [t, n] : s.entries_by_tenant) tenants.add_row({util::printable(t), std::to_string(n)});
  out << "\n";
  tenants.render(out);
  out << "\nreplay:    "
      << (s.replay_error.empty() ? "reached sequence " + std::to_string(s.replay_applied_seq)
                                 : "FAILED: " + s.replay_error)
      << "\n";
  if (!s.promotion_checked) {
    out << "promotion: not checked (the replay failed)\n";
    return;
  }
  out << "state:     " << s.state.objects << " objects (" << s.state.placeholders << " placeholders), "
      << s.state.registry_segments << " segments (" << s.state.registry_memory_segments << " memory, "
      << s.state.registry_memory_capacity_bytes << " bytes)\n";
  for (const auto& [kind, n] : s.state.non_complete)
    out << "note:      " << n << " objects hold " << kind << " replicas\n";
  out << "promotion: " << (s.state.ok ? "validation ok" : "validation FAILS: " + s.state.failure) << "\n";
}

std::string oplog_dump_line(const inspect::DumpedEntry& d) {
  ordered_json j;
  j["batch_id"] = d.batch_id;
  j["sequence_id"] = d.entry.sequence;
  j["op_type"] = d.entry.op_type;
  j["op"] = format::op_type::name(d.entry.op_type);
  j["tenant_id"] = text_json(d.entry.tenant_id);
  j["object_key"] = text_json(d.entry.key);
  j["payload_bytes"] = d.entry.payload.size();
  if (d.form) j["payload_form"] = format::payload_form_name(*d.form);
  if (d.put_end) {
    const auto& p = *d.put_end;
    ordered_json replicas = ordered_json::array();
    for (const auto& r : p.replicas) replicas.push_back(replica_json(r));
    j["payload"] = {{"client_id", std::to_string(p.client_first) + "-" + std::to_string(p.client_second)},
                    {"size", p.size},
                    {"replicas", std::move(replicas)},
                    {"group_id", p.group_id ? text_json(*p.group_id) : ordered_json(nullptr)},
                    {"data_type", p.data_type ? ordered_json(*p.data_type) : ordered_json(nullptr)},
                    {"hard_pinned", p.hard_pinned ? ordered_json(*p.hard_pinned) : ordered_json(nullptr)}};
  } else if (d.segment) {
    j["payload"] = {{"segment_name", text_json(d.segment->segment_name)},
                    {"transport_endpoint", text_json(d.segment->transport_endpoint)},
                    {"capacity", d.segment->capacity},
                    {"is_memory_segment", d.segment->is_memory_segment},
                    {"file_path", text_json(d.segment->file_path)}};
  } else if (d.unmount) {
    j["payload"] = {{"transport_endpoint", text_json(d.unmount->transport_endpoint)}};
  } else {
    j["payload"] = nullptr;
  }
  if (!d.payload_error.empty()) j["payload_error"] = d.payload_error;
  return j.dump() + "\n";
}

void render_oplog_audit(const inspect::OpLogAudit& audit, const std::string& cluster_id, OutputFormat format,
                        std::ostream& out) {
  if (format == OutputFormat::text) return render_oplog_audit_text(audit, out);
  write_inspect_json(oplog_audit_json(audit, cluster_id), out);
}

void render_oplog_summary(const inspect::OpLogSummary& summary, OutputFormat format, std::ostream& out) {
  if (format == OutputFormat::text) return render_oplog_summary_text(summary, out);
  write_inspect_json(oplog_summary_json(summary), out);
}

void render_oplog_dump_entry(const inspect::DumpedEntry& entry, std::ostream& out) { out << oplog_dump_line(entry); }

}  // namespace moonquota::report
