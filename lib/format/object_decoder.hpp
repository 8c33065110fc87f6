// Decoder of one ObjectMetadata array with the master's layout detection (snapshot-format.md §5.5):
//   [client_id, put_start_time, size, lease_timeout, false, 0, N, data_type?, Replica x N,
//    hard_pinned?, group_id?, checksum?]   7+N <= len <= 11+N
//   Replica = [id u64, status i16, type i8, payload]
//   MEMORY payload = [size, address, segment_id, has_handle, [real_base, req_size, [offset, node]] | nil]
//   DISK = [path, size]; LOCAL_DISK = [client uuid, size, endpoint]; DFS = [path, off, size, aligned, shard i32]
// Outcomes follow the master: shape problems skip the object; msgpack conversion failures
// (what msgpack-c throws) reject the whole snapshot candidate.
#pragma once

#include <string>
#include <unordered_map>

#include "format/msgpack_convert.hpp"
#include "format/object_view.hpp"
#include "model/snapshot_types.hpp"
#include "util/uuid.hpp"

namespace moonquota::format {

// The largest time point the master accepts (ms; system_clock at ns resolution, ~year 2262).
inline constexpr std::uint64_t k_max_time_point_ms = 9223372036854ULL;

// What the MEMORY replica decoder needs to know about the restored segment table.
struct SegmentUsability {
  std::int16_t status = 0;
  bool has_allocator = false;
};

struct UuidHash {
  std::size_t operator()(const util::Uuid& u) const { return u.first * 0x9e3779b97f4a7c15ULL ^ u.second; }
};

struct StringHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

// The restored segment table as the MEMORY replica decoder sees it: by parsed UUID (what the
// master compares), with a fast path by the exact "ms" key string (what writers repeat).
class SegmentTable {
 public:
  // First wins, as in the master's map. `key` is the "ms" key string as stored.
  void add(const std::string& key, const util::Uuid& id, SegmentUsability u) {
    if (m_segments.emplace(id, u).second) m_by_key.emplace(key, id);
  }
  void add(const util::Uuid& id, SegmentUsability u) { add(id.to_string(), id, u); }
  [[nodiscard]] const SegmentUsability* find(const util::Uuid& id) const {
    auto it = m_segments.find(id);
    return it == m_segments.end() ? nullptr : &it->second;
  }
  // The UUID of `text` when it is exactly a key of the table (no parsing needed).
  [[nodiscard]] const util::Uuid* find_key(std::string_view text) const {
    auto it = m_by_key.find(text);
    return it == m_by_key.end() ? nullptr : &it->second;
  }
  // Whether a MEMORY replica on this segment is restored (else its object is skipped).
  [[nodiscard]] static bool usable(const SegmentUsability& u) {
    return u.status == model::segment_status::ok && u.has_allocator;
  }
  // Whether every segment a MEMORY replica may use under this table (OK, with an allocator) may
  // be used under `other` too. A replica's segment text resolves to one UUID under any table
  // (find_key's UUID is the key parsed as parse_uuid_lenient parses the text), and usability is a
  // function of that UUID's entry, so then every object this table decodes, `other` decodes
  // alike (another table may make more objects decodable, never fewer).
  [[nodiscard]] bool usable_segments_usable_in(const SegmentTable& other) const {
    for (const auto& [id, u] : m_segments) {
      if (!usable(u)) continue;
      const SegmentUsability* there = other.find(id);
      if (there == nullptr || !usable(*there)) return false;
    }
    return true;
  }

 private:
  std::unordered_map<util::Uuid, SegmentUsability, UuidHash> m_segments;
  std::unordered_map<std::string, util::Uuid, StringHash, std::equal_to<>> m_by_key;
};

enum class DecodeOutcome { decoded, skipped, rejected };

struct ObjectDecodeResult {
  DecodeOutcome outcome = DecodeOutcome::decoded;
  std::string reason;        // for skipped / rejected
  bool ambiguous = false;    // skipped by the UUID/time check although a later value would have thrown
  bool nof_replica = false;  // a replica of type NOF_SSD (3) was seen
};

// Decodes the ObjectMetadata value at the reader's position into `out` and leaves the reader
// after the value (also when the object is skipped). On `rejected` the reader may be anywhere.
[[nodiscard]] ObjectDecodeResult decode_object(ValueReader& values, const SegmentTable& segments, ObjectView& out);

// Decodes one replica (used for discarded replicas too). `error` receives the reason on skip.
// `cache` (optional) remembers the last parsed segment UUID between calls.
[[nodiscard]] DecodeOutcome decode_replica(ValueReader& values, const SegmentTable& segments, ReplicaView& out,
                                           std::string& reason, bool& nof_replica, ObjectView* cache = nullptr);

}  // namespace moonquota::format
