// Decoders of the OpLog struct_pack payloads (grammar in oplog_payloads.hpp).
#include "format/oplog_payloads.hpp"

namespace moonquota::format {

namespace {

using util::Status;

constexpr unsigned char k_metadata_literal[] = {0xfd, 0xfd, 0x04, 0x04, 0x89, 0x89, 0xff, 0x04, 0x84, 0xfd, 0x04, 0x86,
                                                0xfd, 0xfd, 0x04, 0x04, 0x80, 0x0c, 0x80, 0x0c, 0xff, 0xff, 0xfd, 0xfd,
                                                0x04, 0x04, 0x80, 0x0c, 0x80, 0x0c, 0xff, 0xff, 0xfd, 0x80, 0x0c, 0x04,
                                                0xff, 0xfd, 0xfd, 0x04, 0x04, 0x89, 0x89, 0xff, 0x04, 0x80, 0x0c, 0xff,
                                                0xfd, 0x80, 0x0c, 0x04, 0x04, 0x04, 0x01, 0xff, 0xff, 0x01, 0xff, 0xff};
constexpr unsigned char k_mount_literal[] = {0xfd, 0x80, 0x0c, 0x80, 0x0c, 0x04, 0x0b, 0x80, 0x0c, 0xff};
constexpr unsigned char k_unmount_literal[] = {0xfd, 0x80, 0x0c, 0xff};

template <std::size_t N>
std::string_view as_view(const unsigned char (&bytes)[N]) {
  return {reinterpret_cast<const char*>(bytes), N};
}

Status undecodable(const char* type, const StructPackReader& r) {
  return Status::corruption(std::string(type) + " payload undecodable: " + r.error());
}

// Descriptor minimum: id 8 + variant 1 + smallest alternative (disk: 1 + 8) + status 4.
constexpr std::size_t k_min_replica_bytes = 22;

bool read_buffer_descriptor(StructPackReader& r, PayloadReplica& out) {
  return r.u64(out.buffer_size, "size_") && r.u64(out.buffer_address, "buffer_address_") &&
         r.string(out.protocol, "protocol_") && r.string(out.transport_endpoint, "transport_endpoint_");
}

bool read_replica(StructPackReader& r, PayloadReplica& out, std::string& error) {
  if (!r.u64(out.id, "replica id") || !r.u8(out.variant, "replica variant index")) return false;
  bool ok = false;
  switch (out.variant) {
    case payload_variant::memory:
    case payload_variant::nof: ok = read_buffer_descriptor(r, out); break;
    case payload_variant::disk:
      ok = r.string(out.file_path, "file_path") && r.u64(out.object_size, "object_size");
      break;
    case payload_variant::local_disk:
      ok = r.u64(out.client_first, "client_id.first") && r.u64(out.client_second, "client_id.second") &&
           r.u64(out.object_size, "object_size") && r.string(out.transport_endpoint, "transport_endpoint");
      break;
    case payload_variant::dfs:
      ok = r.string(out.file_path, "file_path") && r.u64(out.dfs_offset, "offset") &&
           r.u64(out.object_size, "object_size") && r.u64(out.dfs_aligned_size, "aligned_size") &&
           r.i32(out.dfs_shard_idx, "shard_idx");
      break;
    default:
      error = "replica variant index " + std::to_string(out.variant) + " is not 0-4 (invalid buffer) at byte " +
              std::to_string(r.position() - 1);
      return false;
  }
  return ok && r.i32(out.status, "replica status");
}

// One compatible field: "u8 present" + value, read only up to the limit (total_len).
template <typename ReadValue>
bool read_compat(StructPackReader& r, std::size_t limit, bool& absent_rest, ReadValue&& read_value, std::string& error,
                 const char* what) {
  if (absent_rest || r.position() >= limit) {
    absent_rest = true;
    return true;
  }
  bool present = false;
  if (!r.boolean(present, what)) return false;
  if (present && !read_value()) return false;
  if (r.position() > limit) {
    error = std::string(what) + " runs past total_len";
    return false;
  }
  return true;
}

}  // namespace

std::string_view metadata_payload_literal() { return as_view(k_metadata_literal); }
std::string_view segment_mount_literal() { return as_view(k_mount_literal); }
std::string_view segment_unmount_literal() { return as_view(k_unmount_literal); }

util::Result<MetadataPayload> decode_metadata_payload(std::string_view bytes, PayloadShape* shape) {
  StructPackReader r(bytes);
  StructPackHeader header;
  if (!r.open(k_metadata_payload_type_code, metadata_payload_literal(), header))
    return undecodable("MetadataPayload", r);
  MetadataPayload out;
  std::uint64_t n = 0;
  if (!r.u64(out.client_first, "client_id.first") || !r.u64(out.client_second, "client_id.second") ||
      !r.u64(out.size, "size") || !r.count(n, k_min_replica_bytes, "replica count")) {
    return undecodable("MetadataPayload", r);
  }
  out.replicas.resize(static_cast<std::size_t>(n));
  std::string error;
  for (auto& replica : out.replicas) {
    if (!read_replica(r, replica, error)) {
      return Status::corruption("MetadataPayload payload undecodable: " + (error.empty() ? r.error() : error));
    }
  }
  // Without total_len there is no compatible section to read: every compatible field is absent.
  const std::size_t limit = header.has_total_len ? static_cast<std::size_t>(header.total_len) : r.position();
  if (r.position() > limit) return Status::corruption("MetadataPayload payload undecodable: body runs past total_len");
  bool absent_rest = false;
  std::string group;
  std::uint8_t data_type = 0;
  bool pinned = false;
  bool has_group = false, has_type = false, has_pin = false;
  auto ok =
      read_compat(
          r, limit, absent_rest, [&] { return has_group = r.string(group, "group_id"); }, error, "group_id") &&
      read_compat(
          r, limit, absent_rest, [&] { return has_type = r.u8(data_type, "data_type"); }, error, "data_type") &&
      read_compat(
          r, limit, absent_rest, [&] { return has_pin = r.boolean(pinned, "hard_pinned"); }, error, "hard_pinned");
  if (!ok) return Status::corruption("MetadataPayload payload undecodable: " + (error.empty() ? r.error() : error));
  if (has_group) out.group_id = std::move(group);
  if (has_type) out.data_type = data_type;
  if (has_pin) out.hard_pinned = pinned;
  if (shape != nullptr) {
    shape->form = header.form;
    shape->trailing_bytes = bytes.size() - std::max(limit, r.position());
  }
  return out;
}

namespace {

// Bounds-checked little-endian reads for the fast path; false past the end.
class CompactCursor {
 public:
  explicit CompactCursor(std::string_view bytes) : m_data(bytes.data()), m_left(bytes.size()) {}

  bool u64(std::uint64_t& v) {
    if (m_left < 8) return false;
    v = 0;
    for (unsigned i = 0; i < 8; ++i) v |= static_cast<std::uint64_t>(byte(i)) << (8 * i);
    skip(8);
    return true;
  }
  bool u32(std::uint32_t& v) {
    if (m_left < 4) return false;
    v = static_cast<std::uint32_t>(byte(0) | (byte(1) << 8) | (byte(2) << 16)) | (std::uint32_t{byte(3)} << 24);
    skip(4);
    return true;
  }
  bool u16(std::uint16_t& v) {
    if (m_left < 2) return false;
    v = static_cast<std::uint16_t>(byte(0) | (byte(1) << 8));
    skip(2);
    return true;
  }
  bool u8(std::uint8_t& v) {
    if (m_left < 1) return false;
    v = byte(0);
    skip(1);
    return true;
  }
  bool flag(bool& v) {  // a struct_pack bool: 0 or 1
    std::uint8_t b = 0;
    if (!u8(b) || b > 1) return false;
    v = b == 1;
    return true;
  }
  bool string(std::string& v) {  // 1-byte length
    std::uint8_t n = 0;
    if (!u8(n) || m_left < n) return false;
    v.assign(m_data, n);
    skip(n);
    return true;
  }
  [[nodiscard]] std::size_t left() const { return m_left; }

 private:
  [[nodiscard]] unsigned byte(unsigned i) const { return static_cast<unsigned char>(m_data[i]); }
  void skip(std::size_t n) {
    m_data += n;
    m_left -= n;
  }

  const char* m_data;
  std::size_t m_left;
};

}  // namespace

bool decode_compact_metadata_payload(std::string_view bytes, MetadataPayload& out, PayloadShape& shape) {
  CompactCursor c(bytes);
  std::uint32_t head = 0;
  std::uint8_t meta = 0;
  std::uint16_t total_len = 0;
  if (!c.u32(head) || head != (k_metadata_payload_type_code | 1U) || !c.u8(meta) || meta != 0x01 || !c.u16(total_len) ||
      total_len != bytes.size()) {
    return false;
  }
  std::uint8_t n = 0;
  if (!c.u64(out.client_first) || !c.u64(out.client_second) || !c.u64(out.size) || !c.u8(n)) return false;
  out.replicas.resize(n);
  for (PayloadReplica& r : out.replicas) {
    if (!c.u64(r.id) || !c.u8(r.variant)) return false;
    if (r.variant != payload_variant::memory && r.variant != payload_variant::nof) return false;
    std::uint32_t status = 0;
    if (!c.u64(r.buffer_size) || !c.u64(r.buffer_address) || !c.string(r.protocol) || !c.string(r.transport_endpoint) ||
        !c.u32(status)) {
      return false;
    }
    r.status = static_cast<std::int32_t>(status);
    // The fields of the other variants, as a fresh descriptor holds them.
    r.file_path.clear();
    r.object_size = 0;
    r.client_first = 0;
    r.client_second = 0;
    r.dfs_offset = 0;
    r.dfs_aligned_size = 0;
    r.dfs_shard_idx = 0;
  }
  // The compatible fields, each flagged; the general decoder reads them all since each starts
  // before total_len (the buffer's end), and nothing may follow the last.
  bool present = false;
  if (!c.flag(present)) return false;
  if (present) {
    if (!out.group_id) out.group_id.emplace();
    if (!c.string(*out.group_id)) return false;
  } else {
    out.group_id.reset();
  }
  if (!c.flag(present)) return false;
  if (present) {
    std::uint8_t type = 0;
    if (!c.u8(type)) return false;
    out.data_type = type;
  } else {
    out.data_type.reset();
  }
  if (!c.flag(present)) return false;
  if (present) {
    bool pinned = false;
    if (!c.flag(pinned)) return false;
    out.hard_pinned = pinned;
  } else {
    out.hard_pinned.reset();
  }
  if (c.left() != 0) return false;
  shape.form = PayloadForm::compact;
  shape.trailing_bytes = 0;
  return true;
}

util::Result<SegmentMountOp> decode_segment_mount(std::string_view bytes, PayloadShape* shape) {
  StructPackReader r(bytes);
  StructPackHeader header;
  SegmentMountOp out;
  if (!r.open(k_segment_mount_type_code, segment_mount_literal(), header) ||
      !r.string(out.segment_name, "segment_name") || !r.string(out.transport_endpoint, "transport_endpoint") ||
      !r.u64(out.capacity, "capacity") || !r.boolean(out.is_memory_segment, "is_memory_segment") ||
      !r.string(out.file_path, "file_path")) {
    return undecodable("SegmentMountOp", r);
  }
  if (shape != nullptr) {
    shape->form = header.form;
    shape->trailing_bytes = bytes.size() - r.position();
  }
  return out;
}

util::Result<SegmentUnmountOp> decode_segment_unmount(std::string_view bytes, PayloadShape* shape) {
  StructPackReader r(bytes);
  StructPackHeader header;
  SegmentUnmountOp out;
  if (!r.open(k_segment_unmount_type_code, segment_unmount_literal(), header) ||
      !r.string(out.transport_endpoint, "transport_endpoint")) {
    return undecodable("SegmentUnmountOp", r);
  }
  if (shape != nullptr) {
    shape->form = header.form;
    shape->trailing_bytes = bytes.size() - r.position();
  }
  return out;
}

}  // namespace moonquota::format
