#include "format/task_manager_encoder.hpp"

#include <algorithm>

#include "format/msgpack_writer.hpp"
#include "format/segments_encoder.hpp"
#include "util/zstd_codec.hpp"

namespace moonquota::format {

util::Result<std::string> encode_task_manager_raw(std::vector<model::TaskRecord> tasks) {
  std::vector<std::pair<util::Uuid, const model::TaskRecord*>> order;
  order.reserve(tasks.size());
  for (const model::TaskRecord& t : tasks) {
    MQ_ASSIGN_OR_RETURN(util::Uuid id, uuid_sort_key(t.id, "task id"));
    order.emplace_back(id, &t);
  }
  std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string out;
  MsgpackWriter w(out);
  w.pack_array_header(order.size());
  for (const auto& [id, t] : order) {
    w.pack_array_header(8);
    w.pack_str(t->id);
    w.pack_int(t->type);
    w.pack_int(t->status);
    w.pack_str(t->payload);
    w.pack_int(t->created_at_ms);
    w.pack_int(t->last_updated_at_ms);
    w.pack_str(t->message);
    w.pack_str(t->assigned_client);
  }
  MQ_RETURN_IF_ERROR(w.status());
  return out;
}

util::Result<std::string> encode_task_manager(std::vector<model::TaskRecord> tasks) {
  MQ_ASSIGN_OR_RETURN(std::string raw, encode_task_manager_raw(std::move(tasks)));
  return util::zstd_compress(raw);
}

}  // namespace moonquota::format
