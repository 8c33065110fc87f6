// The shape of one decompressed metadata shard (snapshot-format.md §5.3-§5.7): the shard map's
// keys, the entry forms, each ObjectMetadata's layout by element count (§5.5, v1-v5 and anything
// else) with its head and tail element shapes, and each replica's shape by replica type.
#include <string>
#include <unordered_map>

#include "inspect/msgpack_shape.hpp"
#include "inspect/snapshot_fingerprint.hpp"
#include "model/enums.hpp"

namespace moonquota::inspect {

namespace {

using format::MpHeader;
using format::MpType;
using format::MsgpackReader;

constexpr const char* k_section = "metadata";
constexpr int k_payload_depth = 4;  // MEMORY: [size, address, segment, has_handle, [base, size, [offset, node]]]

class ShardShapeWalk {
 public:
  ShardShapeWalk(std::string_view raw, std::uint32_t shard, std::uint64_t sequence, SnapshotShape& shape)
      : m_reader(raw), m_shard(shard), m_sequence(sequence), m_shape(shape) {}

  void run() {
    walk();
    for (const auto& [feature, f] : m_features) {
      m_shape.add(k_section, feature, f.first_seen, f.count, f.unknown, f.first_order);
    }
  }

 private:
  void walk() {
    MpHeader top;
    if (!m_reader.read_header(top) || top.type != MpType::map) return;  // the master rejected it already
    for (std::uint32_t i = 0; i < top.length; ++i) {
      MpHeader key;
      if (!m_reader.read_header(key)) return;
      std::string name;
      if (key.type == MpType::str) {
        std::string_view text;
        if (!m_reader.read_payload(key.length, text)) return;
        name = text;
      } else {
        name = "<" + describe_shape_after(m_reader, key, 1) + " key>";
        if (name == "< key>") return;
      }
      MpHeader value;
      if (!m_reader.read_header(value)) return;
      if (key.type == MpType::str && name == "metadata" && value.type == MpType::array) {
        add("shard: {\"metadata\": [entries]}", shard_place());
        if (!entries(value.length)) return;
      } else {
        const std::string shape = describe_shape_after(m_reader, value, 1);
        if (shape.empty()) return;
        add("shard key " + (key.type == MpType::str ? quoted_name(name) : name) + ": " + shape, shard_place(), true);
      }
    }
  }

  // Where a feature was seen: the shard, or one of its entries. Its text is made only for a
  // feature new to this shard (millions of objects share a few features).
  struct Place {
    bool entry = false;
    std::uint64_t index = 0;
  };
  [[nodiscard]] Place shard_place() const { return {}; }
  [[nodiscard]] static Place entry_place(std::uint64_t entry) { return {true, entry}; }
  [[nodiscard]] std::string place_text(Place p) const {
    return "shard " + std::to_string(m_shard) + (p.entry ? " entry " + std::to_string(p.index) : std::string());
  }
  // Counted in this shard's own table, added to the shape once per shard (finish). Places in file
  // order: the blob's sequence, then the entry (shard-level features before entry 0).
  void add(const std::string& feature, Place where, bool unknown = false) {
    auto [it, inserted] = m_features.try_emplace(feature);
    ShapeFeature& f = it->second;
    if (inserted) {
      f.first_seen = place_text(where);
      f.first_order = ((m_sequence + 1) << 32U) + (where.entry ? where.index + 1 : 0);
    }
    ++f.count;
    f.unknown = f.unknown || unknown;
  }

  bool entries(std::uint32_t count) {
    for (std::uint32_t e = 0; e < count; ++e) {
      MpHeader h;
      if (!m_reader.read_header(h)) return false;
      if (h.type != MpType::array || (h.length != 2 && h.length != 3)) {
        const std::string shape = describe_shape_after(m_reader, h, 1);
        if (shape.empty()) return false;
        add("entry: " + shape, entry_place(e), true);
        continue;
      }
      m_entry.assign("entry: [");
      for (std::uint32_t k = 0; k + 1 < h.length; ++k) {
        if (!append_shape(m_reader, 0, m_entry)) return false;
        m_entry += ',';
      }
      m_entry += h.length == 3 ? "ObjectMetadata]" : "ObjectMetadata] (legacy: default tenant)";
      add(m_entry, entry_place(e));
      if (!object(entry_place(e))) return false;
    }
    return true;
  }

  // Peeks at the next header without consuming it.
  bool peek(MpHeader& h) {
    const std::size_t at = m_reader.position();
    if (!m_reader.read_header(h)) return false;
    m_reader.rewind_to(at);
    return true;
  }

  bool object(Place where) {
    MpHeader h;
    if (!m_reader.read_header(h)) return false;
    if (h.type != MpType::array || h.length < 7) {
      const std::string shape = describe_shape_after(m_reader, h, 1);
      if (shape.empty()) return false;
      add("object: " + shape + " (not an ObjectMetadata)", where, true);
      return true;
    }
    // The head's shapes into m_head; the feature assembled in m_object (buffers reused: millions
    // of objects).
    m_head.clear();
    std::uint64_t replicas = 0;
    bool counted = false;
    for (int i = 0; i < 7; ++i) {
      MpHeader e;
      if (!m_reader.read_header(e)) return false;
      if (i == 6 && e.type == MpType::pos_int) {
        replicas = e.u;
        counted = true;
      }
      if (i > 0) m_head += ',';
      if (!append_shape_after(m_reader, e, 1, m_head)) return false;
    }
    const std::uint64_t length = h.length;
    m_object.assign("object: ");
    bool known = false;
    if (!counted) {
      m_object += std::to_string(length) + " elements, no replica count";
    } else if (length < 7 + replicas) {
      m_object += std::to_string(length) + " elements for N=" + std::to_string(replicas) + " (fewer than 7+N)";
    } else {
      const std::uint64_t extra = length - replicas;  // 7 .. : the elements besides the replicas
      known = extra <= 11;
      if (known) {
        m_object += 'v';
        m_object += static_cast<char>('0' + (extra - 6));
        m_object += ' ';
      }
      m_object += '(' + std::to_string(extra) + "+N)";
    }
    m_object += " [";
    m_object += m_head;
    m_object += ']';
    // The rest, read as the master's layout detection reads it (§5.5 steps 4-8).
    std::uint64_t i = 7;
    MpHeader next;
    if (i < length && peek(next) && next.type == MpType::pos_int) {
      if (!m_reader.read_header(next)) return false;
      m_object += " data_type,";
      ++i;
    }
    std::uint64_t seen_replicas = 0;
    for (; seen_replicas < replicas && i < length; ++seen_replicas, ++i) {
      if (!replica(where)) return false;
    }
    if (seen_replicas > 0) m_object += " N replicas,";
    m_object += " tail [";
    if (!append_values(m_reader, length - i, 1, m_object)) return false;
    m_object += ']';
    add(m_object, where, !known);
    return true;
  }

  bool replica(Place where) {
    MpHeader h;
    if (!m_reader.read_header(h)) return false;
    if (h.type != MpType::array || h.length < 3) {
      const std::string shape = describe_shape_after(m_reader, h, k_payload_depth);
      if (shape.empty()) return false;
      add("replica: " + shape + " (not a replica)", where, true);
      return true;
    }
    m_replica_parts.clear();
    m_replica.assign("replica");
    for (std::uint32_t k = 0; k < 3; ++k) {  // id, status, type; then the payload and anything after
      MpHeader e;
      if (!m_reader.read_header(e)) return false;
      if (k == 2 && (e.type == MpType::pos_int || e.type == MpType::neg_int)) {
        const std::int64_t type = e.type == MpType::pos_int ? static_cast<std::int64_t>(e.u) : e.i;
        m_replica += ' ';
        m_replica += model::replica_type::k_table.name(type);
        m_replica += " (" + std::to_string(type) + ")";
      }
      if (k > 0) m_replica_parts += ',';
      if (!append_shape_after(m_reader, e, k_payload_depth - 1, m_replica_parts)) return false;
    }
    if (h.length > 3) m_replica_parts += ',';
    if (!append_values(m_reader, h.length - 3, k_payload_depth - 1, m_replica_parts)) return false;
    m_replica += ": [";
    m_replica += m_replica_parts;
    m_replica += ']';
    add(m_replica, where, h.length != 4);
    return true;
  }

  MsgpackReader m_reader;
  std::uint32_t m_shard;
  std::uint64_t m_sequence;
  SnapshotShape& m_shape;
  std::unordered_map<std::string, ShapeFeature> m_features;           // this shard's
  std::string m_entry, m_head, m_object, m_replica, m_replica_parts;  // reused text buffers
};

}  // namespace

void add_shard_shape(std::string_view decompressed, std::uint32_t shard_index, SnapshotShape& shape,
                     std::uint64_t sequence) {
  ShardShapeWalk(decompressed, shard_index, sequence, shape).run();
}

}  // namespace moonquota::inspect
