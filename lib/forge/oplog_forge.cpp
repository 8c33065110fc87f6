#include "forge/oplog_forge.hpp"

#include <algorithm>

#include "forge/json_fields.hpp"
#include "format/oplog_base64.hpp"
#include "format/oplog_batch.hpp"
#include "format/oplog_payloads.hpp"
#include "source/oplog_keys.hpp"

namespace moonquota::forge {

namespace {

using util::Status;

util::Result<format::PayloadForm> form_of(const JsonAt& at, format::PayloadForm fallback) {
  MQ_ASSIGN_OR_RETURN(std::string name,
                      at.get_string("payload_form", std::string(format::payload_form_name(fallback))));
  if (name == "compact") return format::PayloadForm::compact;
  if (name == "type_literal" || name == "type-literal") return format::PayloadForm::type_literal;
  return at.error("payload_form must be compact or type_literal");
}

util::Result<format::PayloadReplica> parse_replica(const JsonAt& at) {
  MQ_RETURN_IF_ERROR(
      at.expect_object({"id", "kind", "status", "size", "address", "protocol", "endpoint", "file_path", "object_size",
                        "client_first", "client_second", "offset", "aligned_size", "shard_idx"}));
  format::PayloadReplica r;
  MQ_ASSIGN_OR_RETURN(r.id, at.get_u64("id", 1));
  MQ_ASSIGN_OR_RETURN(auto kind, at.get_enum("kind", model::oplog_replica_variant::k_table, 0, 255, 0));
  r.variant = static_cast<std::uint8_t>(kind);
  MQ_ASSIGN_OR_RETURN(auto status, at.get_enum("status", model::replica_status::k_table, INT32_MIN, INT32_MAX, 3));
  r.status = static_cast<std::int32_t>(status);
  MQ_ASSIGN_OR_RETURN(r.buffer_size, at.get_u64("size", 0));
  MQ_ASSIGN_OR_RETURN(r.buffer_address, at.get_u64("address", 0));
  MQ_ASSIGN_OR_RETURN(r.protocol, at.get_string("protocol", "tcp"));
  MQ_ASSIGN_OR_RETURN(r.transport_endpoint, at.get_string("endpoint", ""));
  MQ_ASSIGN_OR_RETURN(r.file_path, at.get_string("file_path", ""));
  MQ_ASSIGN_OR_RETURN(r.object_size, at.get_u64("object_size", 0));
  MQ_ASSIGN_OR_RETURN(r.client_first, at.get_u64("client_first", 0));
  MQ_ASSIGN_OR_RETURN(r.client_second, at.get_u64("client_second", 0));
  MQ_ASSIGN_OR_RETURN(r.dfs_offset, at.get_u64("offset", 0));
  MQ_ASSIGN_OR_RETURN(r.dfs_aligned_size, at.get_u64("aligned_size", 0));
  MQ_ASSIGN_OR_RETURN(auto shard, at.get_i64("shard_idx", 0));
  r.dfs_shard_idx = static_cast<std::int32_t>(shard);
  return r;
}

util::Result<std::string> entry_payload(const JsonAt& at, std::uint32_t op, format::PayloadForm form) {
  if (auto raw = at.member("payload_base64")) {
    auto bytes = format::base64_decode_canonical(raw->value().is_string() ? raw->value().get<std::string>() : "");
    if (!bytes) return raw->error("not canonical base64");
    return *bytes;
  }
  if (op == format::op_type::put_end) {
    auto object = at.member("object");
    if (!object) return std::string();  // an empty PUT_END payload
    MQ_RETURN_IF_ERROR(object->expect_object(
        {"client_first", "client_second", "size", "replicas", "group_id", "data_type", "hard_pinned"}));
    format::MetadataPayload p;
    MQ_ASSIGN_OR_RETURN(p.client_first, object->get_u64("client_first", 0));
    MQ_ASSIGN_OR_RETURN(p.client_second, object->get_u64("client_second", 0));
    MQ_ASSIGN_OR_RETURN(p.size, object->get_u64("size"));
    MQ_ASSIGN_OR_RETURN(auto replicas, object->array_member("replicas"));
    for (const auto& r : replicas) {
      MQ_ASSIGN_OR_RETURN(auto replica, parse_replica(r));
      p.replicas.push_back(std::move(replica));
    }
    MQ_ASSIGN_OR_RETURN(p.group_id, object->get_string("group_id", ""));
    MQ_ASSIGN_OR_RETURN(auto data_type, object->get_u64("data_type", 1));
    p.data_type = static_cast<std::uint8_t>(data_type);
    MQ_ASSIGN_OR_RETURN(p.hard_pinned, object->get_bool("hard_pinned", false));
    return format::encode_metadata_payload(p, form);
  }
  if (op >= format::op_type::segment_mount && op <= format::op_type::segment_update) {
    auto seg = at.member("segment");
    if (!seg) return at.error("a segment entry needs \"segment\" or \"payload_base64\"");
    MQ_RETURN_IF_ERROR(seg->expect_object({"name", "endpoint", "capacity", "is_memory", "file_path"}));
    MQ_ASSIGN_OR_RETURN(std::string endpoint, seg->get_string("endpoint"));
    if (op == format::op_type::segment_unmount) return format::encode_segment_unmount({endpoint}, form);
    format::SegmentMountOp m;
    m.transport_endpoint = endpoint;
    MQ_ASSIGN_OR_RETURN(m.segment_name, seg->get_string("name"));
    MQ_ASSIGN_OR_RETURN(m.capacity, seg->get_u64("capacity"));
    MQ_ASSIGN_OR_RETURN(m.is_memory_segment, seg->get_bool("is_memory", true));
    MQ_ASSIGN_OR_RETURN(m.file_path, seg->get_string("file_path", ""));
    return format::encode_segment_mount(m, form);
  }
  return std::string();
}

void add(ForgedOpLog& out, const std::string& root, const std::string& suffix, std::string value) {
  out.kvs.push_back({root + suffix, std::move(value)});
}

}  // namespace

util::Result<std::optional<ForgedOpLog>> parse_oplog_scenario(std::string_view json_text,
                                                              const std::string& default_cluster_id) {
  nlohmann::json doc = nlohmann::json::parse(json_text, nullptr, false);
  if (doc.is_discarded()) return Status::corruption("scenario is not JSON");
  JsonAt top(doc, "$");
  auto oplog = top.member("oplog");
  if (!oplog) return std::optional<ForgedOpLog>();
  MQ_RETURN_IF_ERROR(oplog->expect_object({"cluster_id", "payload_form", "durable_prefix", "batches", "extra_keys"}));
  ForgedOpLog out;
  MQ_ASSIGN_OR_RETURN(out.cluster_id, oplog->get_string("cluster_id", default_cluster_id));
  auto root = source::oplog_root(out.cluster_id);
  if (!root) return oplog->error("cluster_id is not valid for OpLog keys");
  MQ_ASSIGN_OR_RETURN(auto form, form_of(*oplog, format::PayloadForm::compact));
  MQ_ASSIGN_OR_RETURN(auto batches, oplog->array_member("batches"));
  std::uint64_t next_id = 1, next_seq = 1;
  format::DurablePrefix last{0, 0};
  for (const auto& b : batches) {
    MQ_RETURN_IF_ERROR(b.expect_object({"batch_id", "first_seq", "checksum", "raw", "entries"}));
    MQ_ASSIGN_OR_RETURN(std::uint64_t id, b.get_u64("batch_id", next_id));
    MQ_ASSIGN_OR_RETURN(std::uint64_t first, b.get_u64("first_seq", next_seq));
    MQ_ASSIGN_OR_RETURN(auto entries, b.array_member("entries"));
    std::vector<format::OpLogEntry> list;
    for (const auto& e : entries) {
      MQ_RETURN_IF_ERROR(
          e.expect_object({"op", "tenant", "key", "payload_form", "payload_base64", "object", "segment"}));
      format::OpLogEntry entry;
      MQ_ASSIGN_OR_RETURN(auto op, e.get_enum("op", model::oplog_op_type::k_table, 0, UINT32_MAX));
      entry.op_type = static_cast<std::uint32_t>(op);
      MQ_ASSIGN_OR_RETURN(entry.tenant_id, e.get_string("tenant", "default"));
      MQ_ASSIGN_OR_RETURN(entry.key, e.get_string("key", ""));
      MQ_ASSIGN_OR_RETURN(auto entry_form, form_of(e, form));
      MQ_ASSIGN_OR_RETURN(entry.payload, entry_payload(e, entry.op_type, entry_form));
      list.push_back(std::move(entry));
    }
    std::string value = format::encode_batch_record(id, first, list);
    if (auto checksum = b.member("checksum")) {
      MQ_ASSIGN_OR_RETURN(std::uint64_t c, b.get_u64("checksum"));
      value = value.substr(0, value.rfind(',') + 1) + std::to_string(c) + "]";
    }
    MQ_ASSIGN_OR_RETURN(value, b.get_string("raw", value));
    add(out, *root, "batches/" + source::d20(id), std::move(value));
    out.entries += list.size();
    last = {id, list.empty() ? first : first + list.size() - 1};
    next_id = id + 1;
    next_seq = last.last_seq + 1;
  }
  auto prefix = oplog->member("durable_prefix");
  if (!prefix) {
    add(out, *root, "durable_prefix", format::encode_durable_prefix(last));
  } else if (prefix->value().is_string()) {
    if (prefix->value().get<std::string>() != "absent")
      add(out, *root, "durable_prefix", prefix->value().get<std::string>());
  } else {
    MQ_RETURN_IF_ERROR(prefix->expect_object({"batch_id", "last_seq"}));
    MQ_ASSIGN_OR_RETURN(std::uint64_t id, prefix->get_u64("batch_id"));
    MQ_ASSIGN_OR_RETURN(std::uint64_t seq, prefix->get_u64("last_seq"));
    add(out, *root, "durable_prefix", format::encode_durable_prefix({id, seq}));
  }
  MQ_ASSIGN_OR_RETURN(auto extras, oplog->array_member("extra_keys"));
  for (const auto& x : extras) {
    MQ_RETURN_IF_ERROR(x.expect_object({"suffix", "value"}));
    MQ_ASSIGN_OR_RETURN(std::string suffix, x.get_string("suffix"));
    MQ_ASSIGN_OR_RETURN(std::string value, x.get_string("value", ""));
    add(out, *root, suffix, std::move(value));
  }
  std::sort(out.kvs.begin(), out.kvs.end(), [](const auto& a, const auto& b) { return a.key < b.key; });
  return std::optional<ForgedOpLog>(std::move(out));
}

ForgedOpLog synthesize_oplog(const SyntheticOpLogOptions& options) {
  ForgedOpLog out;
  out.cluster_id = options.cluster_id;
  const std::string root = source::oplog_root(options.cluster_id).value_or("/oplog/mooncake_cluster/");
  const auto form = options.type_literal ? format::PayloadForm::type_literal : format::PayloadForm::compact;
  const std::string endpoint = "10.0.0.1:17812";
  const std::uint64_t object_size = 4096;
  std::uint64_t seq = 1, batch_id = 1;
  std::uint64_t state = 0x9E3779B97F4A7C15ULL;
  auto next_random = [&] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  std::vector<format::OpLogEntry> batch;
  auto seal = [&] {
    if (batch.empty()) return;
    add(out, root, "batches/" + source::d20(batch_id),
        format::encode_batch_record(batch_id, seq - batch.size(), batch));
    ++batch_id;
    batch.clear();
  };
  batch.push_back({0, format::op_type::segment_mount, "default", endpoint,
                   format::encode_segment_mount({"seg-1", endpoint, 1ULL << 40, true, ""}, form)});
  ++seq;
  seal();  // a real writer's first batch holds exactly one entry
  const std::uint64_t keys = std::max<std::uint64_t>(1, options.keys);
  while (seq <= options.entries) {
    const std::uint64_t k = next_random() % keys;
    format::OpLogEntry e;
    e.tenant_id = "tenant-" + std::to_string(k % std::max<std::uint32_t>(1, options.tenants));
    e.key = "obj/" + std::to_string(k);
    if (next_random() % 10 == 0) {
      e.op_type = format::op_type::remove;
    } else {
      e.op_type = format::op_type::put_end;
      format::MetadataPayload p;
      p.client_first = 1;
      p.client_second = 2;
      p.size = object_size;
      format::PayloadReplica r;
      r.id = seq;
      r.buffer_size = object_size;
      r.buffer_address = k * object_size;
      r.protocol = "tcp";
      r.transport_endpoint = endpoint;
      r.status = 3;
      p.replicas.push_back(std::move(r));
      p.group_id = "";
      p.data_type = 1;
      p.hard_pinned = false;
      e.payload = format::encode_metadata_payload(p, form);
    }
    batch.push_back(std::move(e));
    ++seq;
    if (batch.size() >= options.entries_per_batch) seal();
  }
  seal();
  add(out, root, "durable_prefix", format::encode_durable_prefix({batch_id - 1, seq - 1}));
  out.entries = seq - 1;
  std::sort(out.kvs.begin(), out.kvs.end(), [](const auto& a, const auto& b) { return a.key < b.key; });
  return out;
}

}  // namespace moonquota::forge
