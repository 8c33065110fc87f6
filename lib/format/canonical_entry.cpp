#include "format/canonical_entry.hpp"

#include <optional>

#include "model/tenant_id.hpp"

namespace moonquota::format {

// Only decode() calls the member functions below (in this file): it is flattened, so that they are
// inlined into it as they were when the class lived inside shard_decoder.cpp (with external
// linkage GCC kept replica(), valid_client() and usable_segment() as calls, ~3% of a rebuild).

namespace {

// The slot of `text` in the direct-mapped caches of CanonicalEntryDecoder (its first and last 8
// bytes hashed).
std::size_t slot_of(std::string_view text) {
  std::uint64_t head = 0;
  std::uint64_t tail = 0;
  if (text.size() >= 8) {
    std::memcpy(&head, text.data(), 8);
    std::memcpy(&tail, text.data() + text.size() - 8, 8);
  } else if (!text.empty()) {
    std::memcpy(&head, text.data(), text.size());
  }
  return static_cast<std::size_t>(((head ^ (tail * 31) ^ text.size()) * 0x9e3779b97f4a7c15ULL) >> 59);
}

}  // namespace

inline bool CanonicalEntryDecoder::str(std::string_view& out) {
  if (m_p >= m_end) return false;
  const unsigned char b = *m_p;
  std::size_t n = 0;
  if ((b & 0xe0) == 0xa0) {
    n = b & 0x1fu;
    ++m_p;
  } else if (b == 0xd9 && m_end - m_p >= 2) {
    n = m_p[1];
    m_p += 2;
  } else if (b == 0xda && m_end - m_p >= 3) {
    n = (std::size_t{m_p[1]} << 8) | m_p[2];
    m_p += 3;
  } else {
    return false;
  }
  if (static_cast<std::size_t>(m_end - m_p) < n) return false;
  out = std::string_view(reinterpret_cast<const char*>(m_p), n);
  m_p += n;
  return true;
}
inline bool CanonicalEntryDecoder::uint(std::uint64_t& out) {
  if (m_p >= m_end) return false;
  const unsigned char b = *m_p;
  if (b <= 0x7f) {
    out = b;
    ++m_p;
    return true;
  }
  if (b < 0xcc || b > 0xcf) return false;
  const std::size_t n = std::size_t{1} << (b - 0xcc);
  if (static_cast<std::size_t>(m_end - m_p) <= n) return false;
  switch (b) {
    case 0xcc: out = m_p[1]; break;
    case 0xcd: {
      std::uint16_t v;
      std::memcpy(&v, m_p + 1, 2);
      out = __builtin_bswap16(v);
      break;
    }
    case 0xce: {
      std::uint32_t v;
      std::memcpy(&v, m_p + 1, 4);
      out = __builtin_bswap32(v);
      break;
    }
    default: {
      std::uint64_t v;
      std::memcpy(&v, m_p + 1, 8);
      out = __builtin_bswap64(v);
      break;
    }
  }
  m_p += 1 + n;
  return true;
}
inline bool CanonicalEntryDecoder::uint32(std::uint32_t& out) {
  std::uint64_t v = 0;
  if (!uint(v) || v > 0xffffffffULL) return false;
  out = static_cast<std::uint32_t>(v);
  return true;
}
inline bool CanonicalEntryDecoder::boolean() {
  if (m_p >= m_end || (*m_p != 0xc2 && *m_p != 0xc3)) return false;
  ++m_p;
  return true;
}
inline bool CanonicalEntryDecoder::boolean(bool& out) {
  if (m_p >= m_end || (*m_p != 0xc2 && *m_p != 0xc3)) return false;
  out = *m_p++ == 0xc3;
  return true;
}
// A positive fixint (the statuses and types writers store).
inline bool CanonicalEntryDecoder::small(std::uint8_t& out) {
  if (m_p >= m_end || *m_p > 0x7f) return false;
  out = *m_p++;
  return true;
}
inline bool CanonicalEntryDecoder::header(unsigned char expected) {
  if (m_p >= m_end || *m_p != expected) return false;
  ++m_p;
  return true;
}

// is_uuid_cached of the general decoder: parse_uuid_lenient(text) succeeds (valid ids seen in
// this shard are remembered as views into it).
bool CanonicalEntryDecoder::valid_client(std::string_view text) {
  const std::size_t slot = slot_of(text);
  if (m_client_set[slot] && same_bytes(m_clients[slot], text)) return true;
  if (!util::parse_uuid_lenient(text)) return false;
  m_clients[slot] = text;
  m_client_set[slot] = true;
  return true;
}

// Whether a MEMORY replica on `text` decodes (a valid UUID of an OK segment with an allocator).
bool CanonicalEntryDecoder::usable_segment(std::string_view text) {
  const std::size_t slot = slot_of(text);
  if (m_segment_set[slot] && same_bytes(m_recent[slot].key, text)) return m_recent[slot].usable;
  if (m_speculation != nullptr) {
    m_speculation->remember(text);
    m_recent[slot] = {text, true};
    m_segment_set[slot] = true;
    return true;
  }
  const bool usable = segment_usable(m_segments, text);
  m_recent[slot] = {text, usable};
  m_segment_set[slot] = true;
  return usable;
}

bool CanonicalEntryDecoder::replica(ReplicaView& r) {
  std::uint8_t status = 0;
  std::uint8_t type = 0;
  std::uint64_t id = 0;
  if (!header(0x94) || !uint(id) || !small(status) || !small(type)) return false;
  r.segment_id = {};
  r.has_offset_handle = false;
  r.file_path = {};
  r.client_id = {};
  r.transport_endpoint = {};
  r.id = id;
  r.status = status;
  r.type = static_cast<std::int8_t>(type);
  switch (type) {
    case model::replica_type::memory: {
      if (!header(0x95) || !uint(r.mem_size) || !uint(r.mem_address) || !str(r.segment_id) ||
          !boolean(r.has_offset_handle)) {
        return false;
      }
      if (r.has_offset_handle) {
        if (!header(0x93) || !uint(r.handle.real_base) || !uint(r.handle.requested_size) || !header(0x92) ||
            !uint32(r.handle.offset) || !uint32(r.handle.node_index)) {
          return false;
        }
      } else if (!header(0xc0)) {
        return false;
      }
      return usable_segment(r.segment_id);
    }
    case model::replica_type::disk: return header(0x92) && str(r.file_path) && uint(r.object_size);
    case model::replica_type::local_disk:
      return header(0x93) && str(r.client_id) && uint(r.object_size) && str(r.transport_endpoint) &&
             valid_client(r.client_id);
    default: return false;
  }
}

// Decodes the entry at `pos` of `raw`; on success sets `end` to the position after it.
[[gnu::flatten]] bool CanonicalEntryDecoder::decode(std::string_view raw, std::size_t pos, ObjectView& out,
                                                    std::size_t& end) {
  m_p = reinterpret_cast<const unsigned char*>(raw.data()) + pos;
  m_end = reinterpret_cast<const unsigned char*>(raw.data()) + raw.size();
  if (m_p >= m_end || *m_p != 0x93) return false;
  ++m_p;
  std::string_view tenant;
  std::string_view key;
  std::string_view client;
  if (!str(tenant) || !str(key)) return false;
  if (m_p >= m_end || (*m_p & 0xf0) != 0x90) return false;
  const unsigned len = *m_p++ & 0x0fu;
  if (len < 10) return false;
  std::uint64_t put_start = 0;
  std::uint64_t size = 0;
  std::uint64_t lease = 0;
  std::uint64_t ignored = 0;
  std::uint64_t n = 0;
  if (!str(client) || !uint(put_start) || !uint(size) || !uint(lease) || !boolean() || !uint(ignored) || !uint(n))
    return false;
  if (len != 10 + n && len != 11 + n) return false;
  if (put_start > k_max_time_point_ms || lease > k_max_time_point_ms) return false;
  if (!valid_client(client)) return false;
  std::uint64_t data_type = 0;
  if (!uint(data_type) || data_type > 255) return false;
  out.replicas.resize(n);
  for (std::uint64_t k = 0; k < n; ++k) {
    if (!replica(out.replicas[k])) return false;
  }
  if (m_end - m_p < 2 || (*m_p != 0xc2 && *m_p != 0xc3)) return false;
  const bool hard_pinned = *m_p++ == 0xc3;
  std::string_view group;
  if (!str(group)) return false;
  std::uint64_t checksum = 0;
  const bool has_checksum = len == 11 + n;
  if (has_checksum && !uint(checksum)) return false;
  // Accepted: the values the general decoder stores, in its order.
  out.legacy_entry = false;
  out.tenant_id = tenant.empty() ? model::k_default_tenant : tenant;
  out.key = key;
  out.client_id = client;
  out.put_start_time_ms = put_start;
  out.size = size;
  out.lease_timeout_ms = lease;
  out.data_type = static_cast<std::uint8_t>(data_type);
  out.hard_pinned = hard_pinned;
  out.group_id = group;
  out.has_checksum = has_checksum;
  if (has_checksum) out.checksum = checksum;
  out.layout_version = static_cast<int>(len - n - 6);
  end = static_cast<std::size_t>(m_p - reinterpret_cast<const unsigned char*>(raw.data()));
  return true;
}

bool segment_usable(const SegmentTable& segments, std::string_view text) {
  std::optional<util::Uuid> uuid;
  if (const util::Uuid* known = segments.find_key(text)) {
    uuid = *known;
  } else {
    uuid = util::parse_uuid_lenient(text);
  }
  if (!uuid || uuid->is_zero()) return false;
  const SegmentUsability* seg = segments.find(*uuid);
  return seg != nullptr && SegmentTable::usable(*seg);
}

bool SegmentSpeculation::holds_under(const SegmentTable& segments) const {
  for (const auto& id : m_ids) {
    if (!segment_usable(segments, id)) return false;
  }
  return true;
}

bool decode_canonical_entry(std::string_view raw, std::size_t pos, const SegmentTable& segments, ObjectView& out,
                            std::size_t& end) {
  CanonicalEntryDecoder decoder(segments);
  return decoder.decode(raw, pos, out, end);
}

}  // namespace moonquota::format
