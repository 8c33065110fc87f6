// `tasks`: the task manager's tasks.
#include <string>
#include <utility>

#include "report/inspect/inspect_summary_parts.hpp"
#include "report/inspect/inspect_summary_report.hpp"
#include "util/text_encoding.hpp"

namespace moonquota::report {

void render_tasks(const InspectContext& ctx, const restore::ScannedSnapshot& snap, OutputFormat format,
                  std::ostream& out) {
  auto row_json = [](const model::TaskRecord& t) {
    Json j = task_json(t);
    j["type_name"] = inspect_task_type_name(t.type);
    j["status_name"] = inspect_task_status_name(t.status);
    return j;
  };
  if (format == OutputFormat::ndjson) {
    for (const auto& t : snap.tasks) out << dump_inspect_json(row_json(t), -1) << "\n";
    return;
  }
  if (format == OutputFormat::json) {
    Json j = header_json(ctx, snap, "snapshot-inspect-tasks/1");
    Json rows = Json::array();
    for (const auto& t : snap.tasks) rows.push_back(row_json(t));
    j["tasks"] = std::move(rows);
    j["skipped"] = snap.tasks_skipped;
    write_inspect_json(j, out);
    return;
  }
  render_header_text(ctx, snap, out);
  out << "\ntasks (" << snap.tasks.size() << ", " << snap.tasks_skipped << " skipped by the decoder):\n";
  util::TextTable t;
  for (const char* h : {"id", "type", "status", "assigned_client"}) t.add_column(h, k_inspect_left);
  for (const char* h : {"created_at_ms", "last_updated_at_ms"}) t.add_column(h, k_inspect_right);
  t.add_column("payload", k_inspect_left);
  for (const auto& task : snap.tasks) {
    t.add_row({util::printable(task.id), inspect_task_type_name(task.type), inspect_task_status_name(task.status),
               util::printable(task.assigned_client), std::to_string(task.created_at_ms),
               std::to_string(task.last_updated_at_ms), util::printable(task.payload)});
  }
  t.render(out);
}

}  // namespace moonquota::report
