#include "format/shard_decoder.hpp"

#include <array>
#include <cstring>
#include <optional>
#include <string>
#include <utility>

#include "model/tenant_id.hpp"

namespace moonquota::format {

namespace {

// The canonical fast path (snapshot-format.md §5.3-§5.6 in the layout every writer we know
// produces: our forge and the master's serializer). It reads one entry
//   [tenant fixstr|str8, key fixstr|str8|str16,
//    fixarray(10+N | 11+N)[client_id str, put_start uint, size uint, lease uint, bool, uint, N uint,
//                          data_type uint8, Replica x N, hard_pinned bool, group_id str, checksum uint?]]
//   Replica = fixarray 4 [id uint, status fixint, type fixint,
//                         MEMORY fixarray 5 [uint, uint, segment str, true, [uint, uint, [uint32, uint32]]] | [..,
//                         false, nil] DISK fixarray 2 [path str, uint] | LOCAL_DISK fixarray 3 [client str, uint,
//                         endpoint str]]
// straight from the bytes and fills the ObjectView exactly as the general decoder would, field for
// field (fields the general decoder leaves alone stay alone). It succeeds only for an entry that
// the general decoder decodes without any finding (a valid client UUID, timestamps in range, every
// MEMORY segment in the table, OK and with an allocator); on anything else it returns false and
// the entry is decoded again from its first byte by the general decoder, which produces the same
// skip, finding or error it always did. Equivalence: tests/unit/format/canonical_entry_test.cpp
// and fuzz_canonical_entry (tests/fuzz/README.md).
class CanonicalEntryDecoder {
 public:
  explicit CanonicalEntryDecoder(const SegmentTable& segments) : m_segments(segments) {}

  // Decodes the entry at `pos` of `raw`; on success sets `end` to the position after it.
  bool decode(std::string_view raw, std::size_t pos, ObjectView& out, std::size_t& end) {
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
      if (!replica(out.replicas[k], out)) return false;
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

 private:
  struct SegmentSlot {
    std::string_view key;
    bool usable = false;
  };

  [[gnu::always_inline]] bool str(std::string_view& out) {
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
  [[gnu::always_inline]] bool uint(std::uint64_t& out) {
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
  [[gnu::always_inline]] bool uint32(std::uint32_t& out) {
    std::uint64_t v = 0;
    if (!uint(v) || v > 0xffffffffULL) return false;
    out = static_cast<std::uint32_t>(v);
    return true;
  }
  [[gnu::always_inline]] bool boolean() {
    if (m_p >= m_end || (*m_p != 0xc2 && *m_p != 0xc3)) return false;
    ++m_p;
    return true;
  }
  [[gnu::always_inline]] bool boolean(bool& out) {
    if (m_p >= m_end || (*m_p != 0xc2 && *m_p != 0xc3)) return false;
    out = *m_p++ == 0xc3;
    return true;
  }
  // A positive fixint (the statuses and types writers store).
  [[gnu::always_inline]] bool small(std::uint8_t& out) {
    if (m_p >= m_end || *m_p > 0x7f) return false;
    out = *m_p++;
    return true;
  }
  [[gnu::always_inline]] bool header(unsigned char expected) {
    if (m_p >= m_end || *m_p != expected) return false;
    ++m_p;
    return true;
  }

  // The slot of `text` in the direct-mapped caches below (its first and last 8 bytes hashed).
  static std::size_t slot_of(std::string_view text) {
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

  // is_uuid_cached of the general decoder: parse_uuid_lenient(text) succeeds (valid ids seen in
  // this shard are remembered as views into it).
  bool valid_client(std::string_view text) {
    const std::size_t slot = slot_of(text);
    if (m_client_set[slot] && same_bytes(m_clients[slot], text)) return true;
    if (!util::parse_uuid_lenient(text)) return false;
    m_clients[slot] = text;
    m_client_set[slot] = true;
    return true;
  }

  // Whether a MEMORY replica on `text` decodes (a valid UUID of an OK segment with an allocator).
  bool usable_segment(std::string_view text, ObjectView& cache) {
    const std::size_t slot = slot_of(text);
    if (m_segment_set[slot] && same_bytes(m_recent[slot].key, text)) return m_recent[slot].usable;
    std::optional<util::Uuid> uuid;
    if (const util::Uuid* recent = cache.segment_uuids.find(text)) {
      uuid = *recent;
    } else if (const util::Uuid* known = m_segments.find_key(text)) {
      uuid = *known;
      cache.segment_uuids.insert(text, *known);
    } else {
      uuid = util::parse_uuid_lenient(text);
    }
    bool usable = false;
    if (uuid && !uuid->is_zero()) {
      const SegmentUsability* seg = m_segments.find(*uuid);
      usable = seg != nullptr && seg->status == model::segment_status::ok && seg->has_allocator;
    }
    m_recent[slot] = {text, usable};
    m_segment_set[slot] = true;
    return usable;
  }

  bool replica(ReplicaView& r, ObjectView& cache) {
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
        return usable_segment(r.segment_id, cache);
      }
      case model::replica_type::disk: return header(0x92) && str(r.file_path) && uint(r.object_size);
      case model::replica_type::local_disk:
        return header(0x93) && str(r.client_id) && uint(r.object_size) && str(r.transport_endpoint) &&
               valid_client(r.client_id);
      default: return false;
    }
  }

  const SegmentTable& m_segments;
  const unsigned char* m_p = nullptr;
  const unsigned char* m_end = nullptr;
  // Segment ids seen in this shard (views into it) and whether a replica on them decodes, and
  // client ids seen in it that parse as UUIDs: direct-mapped by slot_of.
  std::array<SegmentSlot, 32> m_recent{};
  std::array<bool, 32> m_segment_set{};
  std::array<std::string_view, 32> m_clients{};
  std::array<bool, 32> m_client_set{};
};

// Consecutive entries of one tenant get the same view (the first one's), so that visitors
// comparing tenants find equal pointers before comparing bytes.
void share_tenant(std::string_view& tenant, std::string_view& last) {
  if (same_bytes(tenant, last)) {
    tenant = last;
  } else {
    last = tenant;
  }
}

// A finding about entry `entry` of `shard`: the location text and the same in fields.
model::Finding entry_finding(model::Severity severity, std::uint32_t shard, std::uint64_t entry, std::string message,
                             std::string rule = {}) {
  return {.severity = severity,
          .location = "shard " + std::to_string(shard) + " entry " + std::to_string(entry),
          .message = std::move(message),
          .rule = std::move(rule),
          .shard = shard,
          .entry = entry};
}

model::Finding shard_finding(model::Severity severity, std::uint32_t shard, std::string message) {
  return {.severity = severity,
          .location = "shard " + std::to_string(shard),
          .message = std::move(message),
          .shard = shard};
}

util::Status reject(std::uint32_t shard, const std::string& message) {
  return util::Status::corruption("shard " + std::to_string(shard) + ": " + message +
                                  " (offsets are inside the decompressed shard)");
}

// Finds the "metadata" array; returns its length with the reader at its first element.
util::Result<std::uint32_t> open_entry_array(ValueReader& values, std::uint32_t shard, std::uint32_t& pairs_after) {
  std::uint32_t pairs = 0;
  if (!values.map(pairs, "shard value")) return reject(shard, values.error());
  for (std::uint32_t i = 0; i < pairs; ++i) {
    MpHeader h;
    std::string_view key;
    if (!values.header(h)) return reject(shard, values.error());
    if (h.type == MpType::str || h.type == MpType::bin) {
      if (!values.reader().read_payload(h.length, key)) return reject(shard, values.error());
      if (key == "metadata") {
        std::uint32_t n = 0;
        if (!values.array(n, "\"metadata\"")) return reject(shard, values.error());
        pairs_after = pairs - i - 1;
        return n;
      }
    } else if (!values.reader().skip_after_header(h)) {
      return reject(shard, values.error());
    }
    if (!values.skip()) return reject(shard, values.error());
  }
  return reject(shard, "shard map has no \"metadata\" array");
}

}  // namespace

bool decode_canonical_entry(std::string_view raw, std::size_t pos, const SegmentTable& segments, ObjectView& out,
                            std::size_t& end) {
  CanonicalEntryDecoder decoder(segments);
  if (!decoder.decode(raw, pos, out, end)) return false;
  return true;
}

util::Status decode_shard(std::string_view raw, std::uint32_t shard_index, const SegmentTable& segments,
                          ObjectView& scratch, ShardVisitor& visitor, model::Findings& findings, DecodePath path) {
  MsgpackReader reader(raw);
  ValueReader values(reader);
  std::uint32_t pairs_after = 0;
  auto count = open_entry_array(values, shard_index, pairs_after);
  if (!count.ok()) return count.status();
  ShardEntry entry;
  entry.shard_index = shard_index;
  entry.object = &scratch;
  ObjectDecodeResult result;
  entry.result = &result;
  CanonicalEntryDecoder canonical(segments);
  std::string_view last_tenant;
  const bool try_canonical = path == DecodePath::canonical_first;
  for (std::uint64_t i = 0; i < *count; ++i) {
    entry.entry_index = i;
    entry.offset = reader.position();
    std::size_t end = 0;
    if (try_canonical && canonical.decode(raw, entry.offset, scratch, end)) {
      reader.rewind_to(end);
      entry.end_offset = end;
      share_tenant(scratch.tenant_id, last_tenant);
      result.outcome = DecodeOutcome::decoded;
      result.reason.clear();
      result.ambiguous = false;
      result.nof_replica = false;
      visitor.on_entry(entry);
      continue;
    }
    MpHeader h;
    if (!values.header(h)) return reject(shard_index, values.error());
    if (h.type != MpType::array || (h.length != 2 && h.length != 3)) {
      return reject(shard_index, "entry " + std::to_string(i) + " at byte offset " + std::to_string(h.offset) +
                                     " is not an array of 2 or 3 elements");
    }
    scratch.legacy_entry = h.length == 2;
    std::string_view tenant;
    if (h.length == 3 && !values.string(tenant, "entry tenant")) {
      return reject(shard_index, "entry " + std::to_string(i) + ": " + values.error());
    }
    scratch.tenant_id = tenant.empty() ? model::k_default_tenant : tenant;
    share_tenant(scratch.tenant_id, last_tenant);
    if (!values.string(scratch.key, "entry key")) {
      return reject(shard_index, "entry " + std::to_string(i) + ": " + values.error());
    }
    result = decode_object(values, segments, scratch);
    if (result.outcome == DecodeOutcome::rejected) {
      return reject(shard_index, "entry " + std::to_string(i) + ": " + result.reason);
    }
    if (result.outcome == DecodeOutcome::skipped) {
      findings.push_back(entry_finding(model::Severity::error, shard_index, i,
                                       "object skipped (tenant '" + std::string(scratch.tenant_id) + "', key '" +
                                           std::string(scratch.key) + "'): " + result.reason,
                                       k_rule_skipped_object));
    } else if (scratch.layout_version < 4) {
      findings.push_back(entry_finding(model::Severity::info, shard_index, i,
                                       "ObjectMetadata layout v" + std::to_string(scratch.layout_version)));
    }
    if (scratch.legacy_entry) {
      findings.push_back(entry_finding(model::Severity::info, shard_index, i, "legacy 2-element entry (default tenant)",
                                       k_rule_legacy_entry));
    }
    if (result.nof_replica) {
      findings.push_back(entry_finding(model::Severity::error, shard_index, i, "unsupported snapshot: NOF_SSD replica",
                                       k_rule_nof_replica));
    }
    if (result.ambiguous) {
      findings.push_back(entry_finding(model::Severity::warning, shard_index, i,
                                       "skipped (" + result.reason +
                                           ") although a later value would make the master reject the snapshot; "
                                           "the order of these checks is not verified against a Mooncake build"));
    }
    entry.end_offset = reader.position();
    visitor.on_entry(entry);
  }
  // Remaining pairs of the shard map are parsed by msgpack-c too: they must be well-formed.
  for (std::uint32_t p = 0; p < pairs_after; ++p) {
    if (!values.skip() || !values.skip()) return reject(shard_index, values.error());
  }
  if (pairs_after > 0) {
    findings.push_back(shard_finding(model::Severity::info, shard_index,
                                     std::to_string(pairs_after) + " extra keys after \"metadata\" ignored"));
  }
  if (!reader.at_end()) {
    findings.push_back(
        shard_finding(model::Severity::warning, shard_index,
                      std::to_string(reader.remaining()) + " trailing bytes after the shard map ignored"));
  }
  return {};
}

}  // namespace moonquota::format
