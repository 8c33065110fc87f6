// oplog-inspect's renderers: the audit (verify), the summary and dump lines, as text or JSON.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

#include "inspect/oplog_inspect.hpp"
#include "report/output_format.hpp"

namespace moonquota::report {

// Schema "oplog-verify/1": the upstream auditor's fields plus findings and key classes.
[[nodiscard]] nlohmann::ordered_json oplog_audit_json(const inspect::OpLogAudit& audit, const std::string& cluster_id);
void render_oplog_audit_text(const inspect::OpLogAudit& audit, std::ostream& out);

// Schema "oplog-summary/1".
[[nodiscard]] nlohmann::ordered_json oplog_summary_json(const inspect::OpLogSummary& summary);
void render_oplog_summary_text(const inspect::OpLogSummary& summary, std::ostream& out);

// One JSON object (one line) per entry, payload decoded.
[[nodiscard]] std::string oplog_dump_line(const inspect::DumpedEntry& entry);

// The renderers the tool calls: a model in, the caller's format (json = the schemas above,
// indented; text otherwise), written to `out`.
void render_oplog_audit(const inspect::OpLogAudit& audit, const std::string& cluster_id, OutputFormat format,
                        std::ostream& out);
void render_oplog_summary(const inspect::OpLogSummary& summary, OutputFormat format, std::ostream& out);
void render_oplog_dump_entry(const inspect::DumpedEntry& entry, std::ostream& out);

}  // namespace moonquota::report
