#include "format/segments_encoder.hpp"

#include <algorithm>

#include "util/zstd_codec.hpp"

namespace moonquota::format {

namespace {

void encode_allocator_core(MsgpackWriter& w, const model::AllocatorCore& c) {
  w.pack_array_header(10);
  w.pack_uint(c.size);
  w.pack_uint(c.current_capacity);
  w.pack_uint(c.max_capacity);
  w.pack_uint(c.free_storage);
  w.pack_uint(c.used_bins_top);
  w.pack_array_header(c.used_bins.size());
  for (std::uint8_t b : c.used_bins) w.pack_uint(b);
  w.pack_array_header(c.bin_indices.size());
  for (std::uint32_t i : c.bin_indices) w.pack_uint(i);
  w.pack_bin(util::zstd_compress(c.nodes));
  w.pack_bin(util::zstd_compress(c.free_nodes));
  w.pack_uint(c.free_offset);
}

void encode_buffer_allocator(MsgpackWriter& w, const model::BufferAllocatorState& a) {
  w.pack_array_header(6);
  w.pack_str(a.segment_name);
  w.pack_uint(a.base);
  w.pack_uint(a.total_size);
  w.pack_uint(a.cur_size);
  w.pack_str(a.transport_endpoint);
  w.pack_array_header(6);
  w.pack_uint(a.offset.base);
  w.pack_uint(a.offset.multiplier_bits);
  w.pack_uint(a.offset.capacity);
  w.pack_uint(a.offset.allocated_size);
  w.pack_uint(a.offset.allocated_num);
  encode_allocator_core(w, a.offset.core);
}

void encode_local_disk_client(MsgpackWriter& w, model::LocalDiskClient client) {
  for (model::LocalDiskTask& t : client.tasks) {
    if (t.encoded_key.empty()) t.encoded_key = t.tenant_id + std::string(1, '\0') + t.key;
  }
  std::stable_sort(
      client.tasks.begin(), client.tasks.end(),
      [](const model::LocalDiskTask& a, const model::LocalDiskTask& b) { return a.encoded_key < b.encoded_key; });
  w.pack_array_header(2 + 2 * client.tasks.size() + 1);
  w.pack_bool(client.enable_offloading);
  w.pack_uint(client.tasks.size());
  for (const model::LocalDiskTask& t : client.tasks) {
    w.pack_str(t.encoded_key);
    if (t.legacy_integer_form) {
      w.pack_int(t.size);
    } else {
      w.pack_array_header(3);
      w.pack_str(t.tenant_id);
      w.pack_str(t.key);
      w.pack_int(t.size);
    }
  }
  w.pack_int(client.total_capacity_bytes.value_or(0));
}

template <typename T, typename KeyOf>
util::Status sort_by_uuid(std::vector<T>& items, KeyOf key_of, const char* what) {
  std::vector<std::pair<util::Uuid, std::size_t>> keys;
  keys.reserve(items.size());
  for (std::size_t i = 0; i < items.size(); ++i) {
    MQ_ASSIGN_OR_RETURN(util::Uuid u, uuid_sort_key(key_of(items[i]), what));
    keys.emplace_back(u, i);
  }
  std::stable_sort(keys.begin(), keys.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<T> sorted;
  sorted.reserve(items.size());
  for (const auto& k : keys) sorted.push_back(std::move(items[k.second]));
  items = std::move(sorted);
  return util::Status::ok_status();
}

}  // namespace

util::Result<util::Uuid> uuid_sort_key(const std::string& text, const std::string& what) {
  auto u = util::parse_uuid_lenient(text);
  if (!u) return util::Status::invalid_argument(what + " '" + text + "' is not a UUID \"<u64>-<u64>\"");
  return *u;
}

util::Status encode_mounted_segment(MsgpackWriter& w, const model::MountedSegment& s) {
  w.pack_array_header(9);
  w.pack_str(s.id);
  w.pack_str(s.name);
  w.pack_uint(s.base);
  w.pack_uint(s.size);
  w.pack_str(s.te_endpoint);
  w.pack_int(s.status);
  w.pack_bool(s.has_allocator);
  if (s.allocator) {
    encode_buffer_allocator(w, *s.allocator);
  } else {
    w.pack_nil();
  }
  w.pack_str(s.host_id.value_or(""));
  return w.status();
}

util::Result<std::string> assemble_segments_raw(
    const std::vector<std::string>& allocator_names, std::vector<EncodedSegment> segments,
    std::vector<std::pair<std::string, std::vector<std::string>>> client_segments,
    std::vector<model::LocalDiskClient> local_disk) {
  MQ_RETURN_IF_ERROR(sort_by_uuid(
      segments, [](const EncodedSegment& s) -> const std::string& { return s.map_key; }, "segment id"));
  MQ_RETURN_IF_ERROR(sort_by_uuid(
      client_segments, [](const auto& c) -> const std::string& { return c.first; }, "client id"));
  MQ_RETURN_IF_ERROR(sort_by_uuid(
      local_disk, [](const model::LocalDiskClient& c) -> const std::string& { return c.client_id; },
      "local-disk client id"));
  std::string out;
  MsgpackWriter w(out);
  w.pack_map_header(5);
  w.pack_str("ma");
  w.pack_int(model::k_allocator_type_offset);
  w.pack_str("an");
  w.pack_array_header(allocator_names.size());
  for (const std::string& name : allocator_names) w.pack_str(name);
  w.pack_str("ms");
  w.pack_map_header(segments.size());
  for (const EncodedSegment& s : segments) {
    w.pack_str(s.map_key);
    w.append_raw(s.value_bytes);
  }
  w.pack_str("cs");
  w.pack_map_header(client_segments.size());
  for (const auto& [client, ids] : client_segments) {
    w.pack_str(client);
    w.pack_array_header(ids.size());
    for (const std::string& id : ids) w.pack_str(id);
  }
  w.pack_str("ld");
  w.pack_map_header(local_disk.size());
  for (model::LocalDiskClient& client : local_disk) {
    w.pack_str(client.client_id);
    encode_local_disk_client(w, std::move(client));
  }
  MQ_RETURN_IF_ERROR(w.status());
  return out;
}

util::Result<std::string> encode_segments_raw(const model::SegmentsPayload& payload) {
  if (payload.allocator_type && *payload.allocator_type != model::k_allocator_type_offset) {
    return util::Status::unsupported("only the OFFSET allocator (1) is encodable");
  }
  std::vector<EncodedSegment> encoded;
  encoded.reserve(payload.mounted.size());
  for (const model::MountedSegment& s : payload.mounted) {
    EncodedSegment e;
    e.map_key = s.map_key.empty() ? s.id : s.map_key;
    MsgpackWriter w(e.value_bytes);
    MQ_RETURN_IF_ERROR(encode_mounted_segment(w, s).with_context("segment " + e.map_key));
    encoded.push_back(std::move(e));
  }
  return assemble_segments_raw(payload.allocator_names, std::move(encoded), payload.client_segments,
                               payload.local_disk);
}

util::Result<std::string> encode_segments(const model::SegmentsPayload& payload) {
  MQ_ASSIGN_OR_RETURN(std::string raw, encode_segments_raw(payload));
  return util::zstd_compress(raw);
}

}  // namespace moonquota::format
