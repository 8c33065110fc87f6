#include "format/object_decoder.hpp"

#include <optional>

namespace moonquota::format {

namespace {

// Skips `count` raw values (no conversions: the master never converts what follows a skip).
bool skip_values(ValueReader& values, std::uint64_t count) {
  for (std::uint64_t i = 0; i < count; ++i)
    if (!values.reader().skip_value()) return false;
  return true;
}

// parse_uuid_lenient(text).has_value(), remembering valid strings in the scratch set.
bool is_uuid_cached(std::string_view text, ObjectView* cache) {
  if (cache != nullptr && cache->valid_client_ids.find(text) != nullptr) return true;
  if (!util::parse_uuid_lenient(text)) return false;
  if (cache != nullptr) cache->valid_client_ids.insert(text, true);
  return true;
}

ObjectDecodeResult rejected(const ValueReader& values) {
  return {DecodeOutcome::rejected, values.error(), false, false};
}

DecodeOutcome replica_error(std::string& reason, std::string message) {
  reason = std::move(message);
  return DecodeOutcome::skipped;
}

DecodeOutcome decode_memory_payload(ValueReader& values, const MpHeader& payload, const SegmentTable& segments,
                                    ReplicaView& out, std::string& reason, ObjectView* cache) {
  MsgpackReader& r = values.reader();
  if (payload.type != MpType::array || payload.length != 5) {
    if (!r.skip_after_header(payload)) return DecodeOutcome::rejected;
    return replica_error(reason, "MEMORY payload is not an array of 5");
  }
  if (!values.u64(out.mem_size, "buffer size") || !values.u64(out.mem_address, "buffer address") ||
      !values.string(out.segment_id, "buffer segment id") ||
      !values.boolean(out.has_offset_handle, "has_offset_handle")) {
    return DecodeOutcome::rejected;
  }
  MpHeader h;
  if (!values.header(h)) return DecodeOutcome::rejected;
  if (out.has_offset_handle) {
    if (h.type != MpType::array || h.length != 3) {
      if (!r.skip_after_header(h)) return DecodeOutcome::rejected;
      return replica_error(reason, "offset handle is not an array of 3");
    }
    if (!values.u64(out.handle.real_base, "handle real_base") ||
        !values.u64(out.handle.requested_size, "handle requested_size")) {
      return DecodeOutcome::rejected;
    }
    MpHeader inner;
    if (!values.header(inner)) return DecodeOutcome::rejected;
    if (inner.type != MpType::array || inner.length != 2) {
      if (!r.skip_after_header(inner)) return DecodeOutcome::rejected;
      return replica_error(reason, "offset handle position is not an array of 2");
    }
    if (!values.u32(out.handle.offset, "handle offset") || !values.u32(out.handle.node_index, "handle node")) {
      return DecodeOutcome::rejected;
    }
  } else if (!r.skip_after_header(h)) {
    return DecodeOutcome::rejected;
  }
  std::optional<util::Uuid> uuid;
  if (const util::Uuid* recent = cache != nullptr ? cache->segment_uuids.find(out.segment_id) : nullptr) {
    uuid = *recent;
  } else if (const util::Uuid* known = segments.find_key(out.segment_id)) {
    uuid = *known;
    if (cache != nullptr) cache->segment_uuids.insert(out.segment_id, *known);
  } else {
    uuid = util::parse_uuid_lenient(out.segment_id);
  }
  if (!uuid || uuid->is_zero()) {
    return replica_error(reason, "MEMORY replica segment id '" + std::string(out.segment_id) + "' is not a valid UUID");
  }
  const SegmentUsability* seg = segments.find(*uuid);
  if (seg == nullptr) {
    return replica_error(
        reason, "MEMORY replica on segment " + std::string(out.segment_id) + ", which is not in the segment table");
  }
  if (seg->status != model::segment_status::ok) {
    return replica_error(reason, "MEMORY replica on segment " + std::string(out.segment_id) + " whose status is " +
                                     model::segment_status::name(seg->status) + ", not OK");
  }
  if (!seg->has_allocator) {
    return replica_error(reason, "MEMORY replica on segment " + std::string(out.segment_id) + " without an allocator");
  }
  return DecodeOutcome::decoded;
}

DecodeOutcome decode_other_payload(ValueReader& values, const MpHeader& payload, ReplicaView& out, std::string& reason,
                                   ObjectView* cache) {
  MsgpackReader& r = values.reader();
  const std::uint32_t expected =
      out.type == model::replica_type::disk ? 2 : (out.type == model::replica_type::local_disk ? 3 : 5);
  if (payload.type != MpType::array || payload.length != expected) {
    if (!r.skip_after_header(payload)) return DecodeOutcome::rejected;
    return replica_error(reason, std::string(model::replica_type::name(out.type)) + " payload is not an array of " +
                                     std::to_string(expected));
  }
  if (out.type == model::replica_type::disk) {
    if (!values.string(out.file_path, "disk path") || !values.u64(out.object_size, "disk object size")) {
      return DecodeOutcome::rejected;
    }
  } else if (out.type == model::replica_type::local_disk) {
    if (!values.string(out.client_id, "local-disk client id") ||
        !values.u64(out.object_size, "local-disk object size") ||
        !values.string(out.transport_endpoint, "local-disk endpoint")) {
      return DecodeOutcome::rejected;
    }
    if (!is_uuid_cached(out.client_id, cache)) {
      return replica_error(reason, "LOCAL_DISK client id '" + std::string(out.client_id) + "' is not a UUID");
    }
  } else {
    if (!values.string(out.file_path, "dfs path") || !values.u64(out.dfs_offset, "dfs offset") ||
        !values.u64(out.object_size, "dfs object size") || !values.u64(out.dfs_aligned_size, "dfs aligned size") ||
        !values.i32(out.dfs_shard_idx, "dfs shard index")) {
      return DecodeOutcome::rejected;
    }
  }
  return DecodeOutcome::decoded;
}

}  // namespace

DecodeOutcome decode_replica(ValueReader& values, const SegmentTable& segments, ReplicaView& out, std::string& reason,
                             bool& nof_replica, ObjectView* cache) {
  MsgpackReader& r = values.reader();
  out.segment_id = {};
  out.has_offset_handle = false;
  out.file_path = {};
  out.client_id = {};
  out.transport_endpoint = {};
  MpHeader h;
  if (!values.header(h)) return DecodeOutcome::rejected;
  if (h.type != MpType::array || h.length != 4) {
    if (!r.skip_after_header(h)) return DecodeOutcome::rejected;
    return replica_error(reason, "replica is not an array of 4");
  }
  if (!values.u64(out.id, "replica id") || !values.i16(out.status, "replica status") ||
      !values.i8(out.type, "replica type")) {
    return DecodeOutcome::rejected;
  }
  MpHeader payload;
  if (!values.header(payload)) return DecodeOutcome::rejected;
  switch (out.type) {
    case model::replica_type::memory: return decode_memory_payload(values, payload, segments, out, reason, cache);
    case model::replica_type::disk:
    case model::replica_type::local_disk:
    case model::replica_type::dfs: return decode_other_payload(values, payload, out, reason, cache);
    default: break;
  }
  if (!r.skip_after_header(payload)) return DecodeOutcome::rejected;
  if (out.type == model::replica_type::nof_ssd) {
    nof_replica = true;
    return replica_error(reason, "unsupported snapshot: NOF_SSD replica (type 3)");
  }
  return replica_error(reason, "unknown replica type " + std::to_string(out.type));
}

ObjectDecodeResult decode_object(ValueReader& values, const SegmentTable& segments, ObjectView& out) {
  MsgpackReader& r = values.reader();
  ObjectDecodeResult result;
  MpHeader h;
  if (!values.header(h)) return rejected(values);
  if (h.type != MpType::array || h.length < 7) {
    if (!r.skip_after_header(h)) return rejected(values);
    return {DecodeOutcome::skipped, "ObjectMetadata is not an array of at least 7 elements", false, false};
  }
  const std::uint64_t len = h.length;
  // Step 2: fixed prefix; every conversion failure throws in the master (candidate rejected).
  std::uint32_t replica_count = 0;
  bool legacy_flag = false;
  std::uint64_t legacy_deadline = 0;
  if (!values.string(out.client_id, "client_id") || !values.u64(out.put_start_time_ms, "put_start_time") ||
      !values.u64(out.size, "size") || !values.u64(out.lease_timeout_ms, "lease_timeout") ||
      !values.boolean(legacy_flag, "legacy soft-pin flag") ||
      !values.u64(legacy_deadline, "legacy soft-pin deadline") || !values.u32(replica_count, "replica_count")) {
    return rejected(values);
  }
  std::uint64_t consumed = 7;
  auto skip = [&](std::string reason) -> ObjectDecodeResult {
    if (!skip_values(values, len - consumed)) return rejected(values);
    result.outcome = DecodeOutcome::skipped;
    result.reason = std::move(reason);
    return result;
  };
  const std::uint64_t n = replica_count;
  if (len < 7 + n || len > 11 + n) {
    return skip("ObjectMetadata has " + std::to_string(len) + " elements for " + std::to_string(n) +
                " replicas (allowed " + std::to_string(7 + n) + ".." + std::to_string(11 + n) + ")");
  }
  // Step 10 checks. Where they sit relative to steps 3-9 upstream is unknown: an object that
  // fails them is skipped whatever follows (and reported as ambiguous when a later value throws).
  std::string pre_skip;
  std::size_t element_mark = r.position();
  if (!is_uuid_cached(out.client_id, &out)) {
    pre_skip = "client id '" + std::string(out.client_id) + "' is not a UUID";
  } else if (out.put_start_time_ms > k_max_time_point_ms || out.lease_timeout_ms > k_max_time_point_ms) {
    pre_skip =
        "a timestamp exceeds the largest system-clock time point (" + std::to_string(k_max_time_point_ms) + " ms)";
  }
  auto conversion_failed = [&]() -> ObjectDecodeResult {
    if (pre_skip.empty() || values.malformed()) return rejected(values);
    values.clear_type_error();
    result.ambiguous = true;
    r.rewind_to(element_mark);  // resume at the start of the element whose conversion failed
    return skip(pre_skip);
  };
  out.replicas.resize(n);
  out.data_type = 0;
  out.hard_pinned = false;
  out.group_id = {};
  out.has_checksum = false;
  std::size_t mark = r.position();
  element_mark = mark;
  if (consumed < len) {
    if (!values.header(h)) return rejected(values);
    if (h.type == MpType::pos_int) {
      if (h.u > 255) {
        (void)values.type_error(h, "data_type", "an unsigned 8-bit integer");
        return conversion_failed();
      }
      out.data_type = static_cast<std::uint8_t>(h.u);
      ++consumed;
    } else {
      r.rewind_to(mark);
    }
  }
  for (std::uint64_t k = 0; k < n; ++k) {
    if (consumed >= len) return skip("ObjectMetadata ends before replica " + std::to_string(k));
    std::string reason;
    element_mark = r.position();
    DecodeOutcome o = decode_replica(values, segments, out.replicas[k], reason, result.nof_replica, &out);
    if (o == DecodeOutcome::rejected) return conversion_failed();
    ++consumed;
    if (o == DecodeOutcome::skipped) return skip("replica " + std::to_string(k) + ": " + reason);
  }
  if (consumed < len) {
    mark = r.position();
    if (!values.header(h)) return rejected(values);
    if (h.type == MpType::boolean) {
      out.hard_pinned = h.boolean;
      ++consumed;
    } else {
      r.rewind_to(mark);
    }
  }
  if (consumed < len) {
    mark = r.position();
    if (!values.header(h)) return rejected(values);
    if (h.type == MpType::str) {
      if (!r.read_payload(h.length, out.group_id)) return rejected(values);
      ++consumed;
    } else {
      r.rewind_to(mark);
    }
  }
  if (consumed < len) {
    mark = r.position();
    if (!values.header(h)) return rejected(values);
    if (h.type == MpType::pos_int) {
      out.checksum = h.u;
      out.has_checksum = true;
      ++consumed;
    } else {
      r.rewind_to(mark);
    }
  }
  if (consumed != len)
    return skip("ObjectMetadata has " + std::to_string(len - consumed) + " unexpected trailing elements");
  if (!pre_skip.empty()) return skip(pre_skip);
  out.layout_version = static_cast<int>(len - n - 6);  // v1 = 7+N ... v5 = 11+N
  return result;
}

model::ObjectRecord to_record(const ObjectView& v) {
  model::ObjectRecord rec;
  rec.tenant_id = v.tenant_id;
  rec.key = v.key;
  rec.client_id = v.client_id;
  rec.put_start_time_ms = v.put_start_time_ms;
  rec.size = v.size;
  rec.lease_timeout_ms = v.lease_timeout_ms;
  rec.data_type = v.data_type;
  rec.hard_pinned = v.hard_pinned;
  rec.group_id = v.group_id;
  if (v.has_checksum) rec.checksum = v.checksum;
  rec.layout_version = v.layout_version;
  rec.legacy_entry = v.legacy_entry;
  for (const auto& rv : v.replicas) {
    model::Replica r;
    r.id = rv.id;
    r.status = rv.status;
    r.type = rv.type;
    r.memory.size = rv.mem_size;
    r.memory.buffer_address = rv.mem_address;
    r.memory.segment_id = rv.segment_id;
    r.memory.has_offset_handle = rv.has_offset_handle;
    r.memory.handle = rv.handle;
    r.file_path = rv.file_path;
    r.object_size = rv.object_size;
    r.client_id = rv.client_id;
    r.transport_endpoint = rv.transport_endpoint;
    r.dfs_offset = rv.dfs_offset;
    r.dfs_aligned_size = rv.dfs_aligned_size;
    r.dfs_shard_idx = rv.dfs_shard_idx;
    rec.replicas.push_back(std::move(r));
  }
  return rec;
}

}  // namespace moonquota::format
