#include "format/task_manager_decoder.hpp"

#include <array>
#include <string>

#include "format/msgpack_convert.hpp"
#include "util/uuid.hpp"

namespace moonquota::format {

util::Result<TaskManagerPayload> decode_task_manager(std::string_view raw, model::Findings& findings) {
  MsgpackReader reader(raw);
  ValueReader values(reader);
  std::uint32_t n = 0;
  if (!values.array(n, "task list")) return util::Status::corruption("task_manager: " + values.error());
  TaskManagerPayload out;
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::string where = "task_manager task " + std::to_string(i);
    MpHeader h;
    if (!values.header(h)) return util::Status::corruption(where + ": " + reader.error());
    auto skip_task = [&](const std::string& reason) {
      ++out.skipped;
      findings.push_back({model::Severity::warning, where, "skipped: " + reason});
    };
    if (h.type != MpType::array || h.length != 8) {
      if (!reader.skip_after_header(h)) return util::Status::corruption(where + ": " + reader.error());
      skip_task("not an array of 8");
      continue;
    }
    std::array<std::size_t, 8> starts{};
    for (std::size_t k = 0; k < 8; ++k) {
      starts[k] = reader.position();
      if (!reader.skip_value()) return util::Status::corruption(where + ": " + reader.error());
    }
    const std::size_t end = reader.position();
    model::TaskRecord task;
    std::string_view text;
    // idx 0 and idx 7 are converted to strings unconditionally: a non-string throws.
    for (std::size_t k : {std::size_t{0}, std::size_t{7}}) {
      reader.rewind_to(starts[k]);
      if (!values.string(text, k == 0 ? "task id" : "assigned_client")) {
        return util::Status::corruption(where + ": " + values.error());
      }
      (k == 0 ? task.id : task.assigned_client) = text;
    }
    reader.rewind_to(starts[1]);
    bool typed = values.i32(task.type, "task type") && values.i32(task.status, "task status") &&
                 values.string(text, "task payload");
    if (typed) task.payload = text;
    typed = typed && values.i64(task.created_at_ms, "created_at_ms") &&
            values.i64(task.last_updated_at_ms, "last_updated_at_ms") && values.string(text, "task message");
    if (typed) task.message = text;
    if (values.malformed()) return util::Status::corruption(where + ": " + values.error());
    reader.rewind_to(end);
    if (!typed) {
      std::string reason = values.error();
      values.clear_type_error();
      skip_task(reason);
      continue;
    }
    if (!util::parse_uuid_lenient(task.id) || !util::parse_uuid_lenient(task.assigned_client)) {
      skip_task("invalid task id or assigned client UUID");
      continue;
    }
    out.tasks.push_back(std::move(task));
  }
  if (!reader.at_end()) {
    findings.push_back({model::Severity::warning, "task_manager",
                        std::to_string(reader.remaining()) + " trailing bytes after the task list ignored"});
  }
  return out;
}

}  // namespace moonquota::format
