// Encoders of the OpLog struct_pack payloads: byte-identical to yalantinglibs v0.5.7 output for
// Mooncake's declarations (oplog-format.md §8.1 framing rules, §18.2 and §18.6 worked bytes).
#include <algorithm>

#include "format/oplog_payloads.hpp"

namespace moonquota::format {

namespace {

class StructPackWriter {
 public:
  explicit StructPackWriter(unsigned length_width) : m_length_width(length_width) {}
  void fixed(std::uint64_t v, unsigned width) {
    for (unsigned i = 0; i < width; ++i) m_out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
  }
  void u8(std::uint8_t v) { fixed(v, 1); }
  void u64(std::uint64_t v) { fixed(v, 8); }
  void i32(std::int32_t v) { fixed(static_cast<std::uint32_t>(v), 4); }
  void length(std::uint64_t n) { fixed(n, m_length_width); }
  void string(std::string_view s) {
    length(s.size());
    m_out.append(s);
  }
  std::string& bytes() { return m_out; }

 private:
  unsigned m_length_width;
  std::string m_out;
};

// LEN_SIZE code from the largest container element count in the value.
unsigned length_code(std::uint64_t max_count) {
  if (max_count < (1ULL << 8)) return 0;
  if (max_count < (1ULL << 16)) return 1;
  if (max_count < (1ULL << 32)) return 2;
  return 3;
}

// hash_head [metainfo [total_len] [literal NUL]] + body.
std::string frame(std::uint32_t type_code, std::string_view literal, PayloadForm form, unsigned len_code,
                  bool has_compat, const std::string& body) {
  const bool with_literal = form == PayloadForm::type_literal;
  const bool metainfo = has_compat || with_literal || len_code != 0;
  const std::size_t literal_bytes = with_literal ? literal.size() + 1 : 0;
  unsigned data_code = 0;
  std::uint64_t total = 0;
  if (has_compat) {
    const std::uint64_t without_size = 4 + 1 + literal_bytes + body.size();
    data_code = without_size + 2 < (1ULL << 16) ? 1 : (without_size + 4 < (1ULL << 32) ? 2 : 3);
    total = without_size + (1ULL << data_code);
  }
  StructPackWriter w(1);
  w.fixed((type_code & 0xFFFFFFFEU) | (metainfo ? 1U : 0U), 4);
  if (metainfo) {
    w.u8(static_cast<std::uint8_t>(data_code | (with_literal ? 4U : 0U) | (len_code << 3)));
    if (data_code != 0) w.fixed(total, 1U << data_code);
    if (with_literal) {
      w.bytes().append(literal);
      w.u8(0);
    }
  }
  w.bytes().append(body);
  return std::move(w.bytes());
}

void write_replica(StructPackWriter& w, const PayloadReplica& r) {
  w.u64(r.id);
  w.u8(r.variant);
  switch (r.variant) {
    case payload_variant::memory:
    case payload_variant::nof:
      w.u64(r.buffer_size);
      w.u64(r.buffer_address);
      w.string(r.protocol);
      w.string(r.transport_endpoint);
      break;
    case payload_variant::disk:
      w.string(r.file_path);
      w.u64(r.object_size);
      break;
    case payload_variant::local_disk:
      w.u64(r.client_first);
      w.u64(r.client_second);
      w.u64(r.object_size);
      w.string(r.transport_endpoint);
      break;
    default:
      w.string(r.file_path);
      w.u64(r.dfs_offset);
      w.u64(r.object_size);
      w.u64(r.dfs_aligned_size);
      w.i32(r.dfs_shard_idx);
      break;
  }
  w.i32(r.status);
}

}  // namespace

std::string encode_metadata_payload(const MetadataPayload& p, PayloadForm form) {
  std::uint64_t max_count = p.replicas.size();
  for (const auto& r : p.replicas) {
    max_count =
        std::max<std::uint64_t>({max_count, r.protocol.size(), r.transport_endpoint.size(), r.file_path.size()});
  }
  if (p.group_id) max_count = std::max<std::uint64_t>(max_count, p.group_id->size());
  const unsigned len_code = length_code(max_count);
  StructPackWriter w(1U << len_code);
  w.u64(p.client_first);
  w.u64(p.client_second);
  w.u64(p.size);
  w.length(p.replicas.size());
  for (const auto& r : p.replicas) write_replica(w, r);
  w.u8(p.group_id ? 1 : 0);
  if (p.group_id) w.string(*p.group_id);
  w.u8(p.data_type ? 1 : 0);
  if (p.data_type) w.u8(*p.data_type);
  w.u8(p.hard_pinned ? 1 : 0);
  if (p.hard_pinned) w.u8(*p.hard_pinned ? 1 : 0);
  return frame(k_metadata_payload_type_code, metadata_payload_literal(), form, len_code, true, w.bytes());
}

std::string encode_segment_mount(const SegmentMountOp& op, PayloadForm form) {
  const unsigned len_code =
      length_code(std::max({op.segment_name.size(), op.transport_endpoint.size(), op.file_path.size()}));
  StructPackWriter w(1U << len_code);
  w.string(op.segment_name);
  w.string(op.transport_endpoint);
  w.u64(op.capacity);
  w.u8(op.is_memory_segment ? 1 : 0);
  w.string(op.file_path);
  return frame(k_segment_mount_type_code, segment_mount_literal(), form, len_code, false, w.bytes());
}

std::string encode_segment_unmount(const SegmentUnmountOp& op, PayloadForm form) {
  const unsigned len_code = length_code(op.transport_endpoint.size());
  StructPackWriter w(1U << len_code);
  w.string(op.transport_endpoint);
  return frame(k_segment_unmount_type_code, segment_unmount_literal(), form, len_code, false, w.bytes());
}

}  // namespace moonquota::format
