#include "report/inspect/inspect_verify_report.hpp"

#include <algorithm>

#include "report/inspect/inspect_summary_report.hpp"
#include "util/text_encoding.hpp"
#include "util/text_table.hpp"

namespace moonquota::report {

namespace {

Json finding_json(const inspect::VerifyFinding& f) {
  Json j;
  j["severity"] = model::severity_name(f.severity);
  j["rule"] = f.rule;
  if (f.shard) {
    j["shard"] = *f.shard;
    j["entry"] = f.entry;
    put_bytes(j, "tenant_id", f.tenant_id);
    put_bytes(j, "key", f.key);
  } else {
    j["location"] = f.location;
  }
  j["replica_id"] = f.replica_id ? Json(*f.replica_id) : Json(nullptr);
  j["message"] = f.message;
  return j;
}

std::string finding_text(const inspect::VerifyFinding& f) {
  std::string where;
  if (f.shard) {
    where = "shard " + std::to_string(*f.shard) + " entry " + std::to_string(f.entry);
    if (!f.key.empty() || !f.tenant_id.empty()) {
      where += " tenant '" + util::printable(f.tenant_id) + "' key '" + util::printable(f.key) + "'";
    }
  } else {
    where = f.location;
  }
  if (f.replica_id) where += " replica " + std::to_string(*f.replica_id);
  // Severity padded to "warning", so the rules line up.
  std::string severity = model::severity_name(f.severity);
  severity.resize(std::max<std::size_t>(severity.size(), 7), ' ');
  return severity + "  [" + f.rule + "] " + where + ": " + f.message;
}

}  // namespace

void render_verify(const InspectContext& ctx, const inspect::VerifyResult& result, OutputFormat format,
                   std::ostream& out) {
  const auto& counts = result.findings.counts();
  if (format == OutputFormat::ndjson) {
    for (const auto& f : result.listed) out << dump_inspect_json(finding_json(f), -1) << "\n";
    return;
  }
  if (format == OutputFormat::json) {
    Json j = header_json(ctx, result.snapshot, "snapshot-inspect-verify/1");
    j["verdict"] = result.failed() ? "failed" : "passed";
    j["totals"] = {{"errors", result.findings.count(model::Severity::error)},
                   {"warnings", result.findings.count(model::Severity::warning)},
                   {"info", result.findings.count(model::Severity::info)}};
    if (const auto& c = result.checksums) {  // object stores only: local reports keep their bytes
      j["s3_crc32c"] = {{"checked", c->checked},
                        {"mismatched", c->mismatched},
                        {"without_server_checksum", c->without_server_checksum},
                        {"not_read_whole", c->not_read_whole}};
    }
    Json rules = Json::array();
    for (const auto& [rule, c] : counts) {
      rules.push_back({{"rule", rule}, {"severity", model::severity_name(c.severity)}, {"count", c.count}});
    }
    j["rules"] = std::move(rules);
    Json listed = Json::array();
    for (const auto& f : result.listed) listed.push_back(finding_json(f));
    j["findings"] = std::move(listed);
    out << dump_inspect_json(j, 2) << "\n";
    return;
  }
  render_header_text(ctx, result.snapshot, out);
  out << "objects:     " << result.snapshot.entries << " entries in " << result.snapshot.metadata.shard_entries
      << " shard blobs, replica_next_id " << result.snapshot.metadata.replica_next_id << ", largest replica id "
      << result.max_replica_id << "\n";
  if (result.checksums) out << "checksums:   " << inspect::describe_checksums(*result.checksums) << "\n";
  out << "\n";
  for (const auto& f : result.listed) out << finding_text(f) << "\n";
  if (!result.listed.empty()) out << "\n";
  util::TextTable t;
  t.add_column("rule", util::TextTable::Align::left);
  t.add_column("severity", util::TextTable::Align::left);
  t.add_column("count", util::TextTable::Align::right);
  t.add_column("shown", util::TextTable::Align::right);
  for (const auto& [rule, c] : counts) {
    std::uint64_t shown = 0;
    for (const auto& f : result.listed) shown += f.rule == rule ? 1 : 0;
    t.add_row({rule, model::severity_name(c.severity), std::to_string(c.count), std::to_string(shown)});
  }
  if (!counts.empty()) t.render(out);
  out << "verdict:     " << (result.failed() ? "FAILED" : "passed") << " ("
      << result.findings.count(model::Severity::error) << " errors, " << result.findings.count(model::Severity::warning)
      << " warnings, " << result.findings.count(model::Severity::info) << " info)\n";
}

}  // namespace moonquota::report
