#include "format/metadata_encoder.hpp"

#include <algorithm>
#include <map>

#include "util/hashing.hpp"
#include "util/zstd_codec.hpp"

namespace moonquota::format {

namespace {

void encode_memory_payload(MsgpackWriter& w, const model::MemoryBuffer& m) {
  w.pack_array_header(5);
  w.pack_uint(m.size);
  w.pack_uint(m.buffer_address);
  w.pack_str(m.segment_id);
  w.pack_bool(m.has_offset_handle);
  if (!m.has_offset_handle) {
    w.pack_nil();
    return;
  }
  w.pack_array_header(3);
  w.pack_uint(m.handle.real_base);
  w.pack_uint(m.handle.requested_size);
  w.pack_array_header(2);
  w.pack_uint(m.handle.offset);
  w.pack_uint(m.handle.node_index);
}

bool entry_less(const model::ObjectRecord* a, const model::ObjectRecord* b) {
  // std::string compares char_traits<char>, which is bytewise unsigned (memcmp).
  if (a->tenant_id != b->tenant_id) return a->tenant_id < b->tenant_id;
  return a->key < b->key;
}

}  // namespace

std::uint32_t expected_shard_index(const model::ObjectRecord& object) {
  return util::metadata_shard_index(object.tenant_id, object.key, object.group_id);
}

util::Status encode_replica(MsgpackWriter& w, const model::Replica& r) {
  w.pack_array_header(4);
  w.pack_uint(r.id);
  w.pack_int(r.status);
  w.pack_int(r.type);
  switch (r.type) {
    case model::replica_type::memory: encode_memory_payload(w, r.memory); break;
    case model::replica_type::disk:
      w.pack_array_header(2);
      w.pack_str(r.file_path);
      w.pack_uint(r.object_size);
      break;
    case model::replica_type::local_disk:
      w.pack_array_header(3);
      w.pack_str(r.client_id);
      w.pack_uint(r.object_size);
      w.pack_str(r.transport_endpoint);
      break;
    case model::replica_type::dfs:
      w.pack_array_header(5);
      w.pack_str(r.file_path);
      w.pack_uint(r.dfs_offset);
      w.pack_uint(r.object_size);
      w.pack_uint(r.dfs_aligned_size);
      w.pack_int(r.dfs_shard_idx);
      break;
    default:
      return util::Status::unsupported("replica " + std::to_string(r.id) + " has type " + std::to_string(r.type) +
                                       ", which Mooncake cannot encode");
  }
  return util::Status::ok_status();
}

util::Status encode_object_entry(MsgpackWriter& w, const model::ObjectRecord& o) {
  w.pack_array_header(3);
  w.pack_str(o.tenant_id);
  w.pack_str(o.key);
  const std::uint64_t replica_count = o.replicas.size();
  if (replica_count > 0xffffffffULL) return util::Status::invalid_argument("too many replicas");
  w.pack_array_header(10 + replica_count + (o.checksum ? 1 : 0));
  w.pack_str(o.client_id);
  w.pack_uint(o.put_start_time_ms);
  w.pack_uint(o.size);
  w.pack_uint(o.lease_timeout_ms);
  w.pack_bool(false);  // legacy soft-pin flag
  w.pack_uint(0);      // legacy soft-pin deadline
  w.pack_uint(replica_count);
  w.pack_uint(o.data_type);
  for (const model::Replica& r : o.replicas) {
    MQ_RETURN_IF_ERROR(encode_replica(w, r).with_context("object " + o.tenant_id + "/" + o.key));
  }
  w.pack_bool(o.hard_pinned);
  w.pack_str(o.group_id);
  if (o.checksum) w.pack_uint(*o.checksum);
  return w.status();
}

util::Result<std::string> encode_shard_raw(std::vector<const model::ObjectRecord*> objects) {
  std::sort(objects.begin(), objects.end(), entry_less);
  for (std::size_t i = 1; i < objects.size(); ++i) {
    if (!entry_less(objects[i - 1], objects[i])) {
      return util::Status::invalid_argument("duplicate object (tenant '" + objects[i]->tenant_id + "', key '" +
                                            objects[i]->key + "') in one shard");
    }
  }
  std::string out;
  MsgpackWriter w(out);
  w.pack_map_header(1);
  w.pack_str("metadata");
  w.pack_array_header(objects.size());
  for (const model::ObjectRecord* o : objects) MQ_RETURN_IF_ERROR(encode_object_entry(w, *o));
  MQ_RETURN_IF_ERROR(w.status());
  return out;
}

MetadataPayloadStream::MetadataPayloadStream(std::uint32_t shard_count, std::string& out)
    : m_writer(out), m_expected_shards(shard_count) {
  m_writer.pack_map_header(3);
  m_writer.pack_str("shards");
  m_writer.pack_map_header(shard_count);
}

util::Status MetadataPayloadStream::add_shard(std::uint32_t shard_index, std::string_view compressed_shard) {
  if (shard_index >= util::k_metadata_shards) {
    return util::Status::invalid_argument("shard index " + std::to_string(shard_index) + " is >= 1024");
  }
  if (static_cast<std::int64_t>(shard_index) <= m_last_shard) {
    return util::Status::internal("shards must be added in strictly ascending order");
  }
  if (m_written_shards == m_expected_shards) return util::Status::internal("more shards than announced");
  m_writer.pack_uint(shard_index);
  m_writer.pack_bin(compressed_shard);
  m_last_shard = shard_index;
  ++m_written_shards;
  return m_writer.status();
}

util::Status MetadataPayloadStream::finish(const std::vector<model::DiscardedItem>& discarded,
                                           std::uint64_t replica_next_id) {
  if (m_written_shards != m_expected_shards) return util::Status::internal("fewer shards than announced");
  m_writer.pack_str("discarded_replicas");
  m_writer.pack_array_header(discarded.size());
  for (const model::DiscardedItem& item : discarded) {
    m_writer.pack_array_header(3 + item.replicas.size());
    m_writer.pack_int(item.ttl_ms);
    m_writer.pack_uint(item.mem_size);
    m_writer.pack_uint(item.replicas.size());
    for (const model::Replica& r : item.replicas) {
      MQ_RETURN_IF_ERROR(encode_replica(m_writer, r).with_context("discarded replica"));
    }
  }
  m_writer.pack_str("replica_next_id");
  m_writer.pack_uint(replica_next_id);
  return m_writer.status();
}

util::Result<std::vector<std::pair<std::uint32_t, std::string>>> encode_shards_raw(const MetadataContent& content) {
  if (!content.shards.empty() && content.shards.size() != content.objects.size()) {
    return util::Status::invalid_argument("forced shard list and object list differ in length");
  }
  std::map<std::uint32_t, std::vector<const model::ObjectRecord*>> by_shard;
  for (std::size_t i = 0; i < content.objects.size(); ++i) {
    const std::uint32_t shard = content.shards.empty() ? expected_shard_index(content.objects[i]) : content.shards[i];
    if (shard >= util::k_metadata_shards) {
      return util::Status::invalid_argument("shard index " + std::to_string(shard) + " is >= 1024");
    }
    by_shard[shard].push_back(&content.objects[i]);
  }
  std::vector<std::pair<std::uint32_t, std::string>> shards;
  for (auto& [index, objects] : by_shard) {
    MQ_ASSIGN_OR_RETURN(std::string raw, encode_shard_raw(std::move(objects)));
    shards.emplace_back(index, std::move(raw));
  }
  return shards;
}

util::Result<std::string> encode_metadata(const MetadataContent& content) {
  MQ_ASSIGN_OR_RETURN(auto shards, encode_shards_raw(content));
  std::string out;
  MetadataPayloadStream stream(static_cast<std::uint32_t>(shards.size()), out);
  for (const auto& [index, raw] : shards) MQ_RETURN_IF_ERROR(stream.add_shard(index, util::zstd_compress(raw)));
  MQ_RETURN_IF_ERROR(stream.finish(content.discarded, content.replica_next_id));
  return out;
}

}  // namespace moonquota::format
