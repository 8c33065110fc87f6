// The shape of one decompressed metadata shard (snapshot-format.md §5.3-§5.7): the shard map's
// keys, the entry forms, each ObjectMetadata's layout by element count (§5.5, v1-v5 and anything
// else) with its head and tail element shapes, and each replica's shape by replica type.
#include <string>

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

 private:
  [[nodiscard]] std::string shard_place() const { return "shard " + std::to_string(m_shard); }
  [[nodiscard]] std::string entry_place(std::uint64_t entry) const {
    return shard_place() + " entry " + std::to_string(entry);
  }
  // Places in file order: the blob's sequence, then the entry (shard-level features before entry 0).
  void add(const std::string& feature, const std::string& where, bool unknown = false) {
    m_shape.add(k_section, feature, where, 1, unknown, ((m_sequence + 1) << 32U) + m_entry_order);
  }

  bool entries(std::uint32_t count) {
    for (std::uint32_t e = 0; e < count; ++e) {
      m_entry_order = std::uint64_t{e} + 1;
      MpHeader h;
      if (!m_reader.read_header(h)) return false;
      if (h.type != MpType::array || (h.length != 2 && h.length != 3)) {
        const std::string shape = describe_shape_after(m_reader, h, 1);
        if (shape.empty()) return false;
        add("entry: " + shape, entry_place(e), true);
        continue;
      }
      std::string names;
      for (std::uint32_t k = 0; k + 1 < h.length; ++k) {
        const std::string part = describe_shape(m_reader, 0);
        if (part.empty()) return false;
        names += part + ",";
      }
      add(h.length == 3 ? "entry: [" + names + "ObjectMetadata]"
                        : "entry: [" + names + "ObjectMetadata] (legacy: default tenant)",
          entry_place(e));
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

  bool object(const std::string& where) {
    MpHeader h;
    if (!m_reader.read_header(h)) return false;
    if (h.type != MpType::array || h.length < 7) {
      const std::string shape = describe_shape_after(m_reader, h, 1);
      if (shape.empty()) return false;
      add("object: " + shape + " (not an ObjectMetadata)", where, true);
      return true;
    }
    std::string head;
    std::uint64_t replicas = 0;
    bool counted = false;
    for (int i = 0; i < 7; ++i) {
      MpHeader e;
      if (!m_reader.read_header(e)) return false;
      if (i == 6 && e.type == MpType::pos_int) {
        replicas = e.u;
        counted = true;
      }
      const std::string part = describe_shape_after(m_reader, e, 1);
      if (part.empty()) return false;
      head += (i == 0 ? "" : ",") + part;
    }
    const std::uint64_t length = h.length;
    std::string layout;
    bool known = false;
    if (!counted) {
      layout = std::to_string(length) + " elements, no replica count";
    } else if (length < 7 + replicas) {
      layout = std::to_string(length) + " elements for N=" + std::to_string(replicas) + " (fewer than 7+N)";
    } else {
      const std::uint64_t extra = length - replicas;  // 7 .. : the elements besides the replicas
      known = extra <= 11;
      layout = (known ? "v" + std::to_string(extra - 6) + " (" : "(") + std::to_string(extra) + "+N)";
    }
    // The rest, read as the master's layout detection reads it (§5.5 steps 4-8).
    std::uint64_t i = 7;
    std::string rest;
    MpHeader next;
    if (i < length && peek(next) && next.type == MpType::pos_int) {
      if (!m_reader.read_header(next)) return false;
      rest += " data_type,";
      ++i;
    }
    std::uint64_t seen_replicas = 0;
    for (; seen_replicas < replicas && i < length; ++seen_replicas, ++i) {
      if (!replica(where)) return false;
    }
    if (seen_replicas > 0) rest += " N replicas,";
    std::string tail;
    for (; i < length; ++i) {
      const std::string part = describe_shape(m_reader, 1);
      if (part.empty()) return false;
      tail += (tail.empty() ? "" : ",") + part;
    }
    add("object: " + layout + " [" + head + "]" + rest + " tail [" + tail + "]", where, !known);
    return true;
  }

  bool replica(const std::string& where) {
    MpHeader h;
    if (!m_reader.read_header(h)) return false;
    if (h.type != MpType::array || h.length < 3) {
      const std::string shape = describe_shape_after(m_reader, h, k_payload_depth);
      if (shape.empty()) return false;
      add("replica: " + shape + " (not a replica)", where, true);
      return true;
    }
    std::string parts;
    std::string kind = "replica";
    for (std::uint32_t k = 0; k < h.length; ++k) {
      MpHeader e;
      if (!m_reader.read_header(e)) return false;
      if (k == 2 && (e.type == MpType::pos_int || e.type == MpType::neg_int)) {
        const std::int64_t type = e.type == MpType::pos_int ? static_cast<std::int64_t>(e.u) : e.i;
        kind += std::string(" ") + model::replica_type::k_table.name(type) + " (" + std::to_string(type) + ")";
      }
      const std::string part = describe_shape_after(m_reader, e, k_payload_depth - 1);
      if (part.empty()) return false;
      parts += (k == 0 ? "" : ",") + part;
    }
    const bool known = h.length == 4;
    add(kind + ": [" + parts + "]", where, !known);
    return true;
  }

  MsgpackReader m_reader;
  std::uint32_t m_shard;
  std::uint64_t m_sequence;
  std::uint64_t m_entry_order = 0;  // 0 before the entries, entry + 1 within one
  SnapshotShape& m_shape;
};

}  // namespace

void add_shard_shape(std::string_view decompressed, std::uint32_t shard_index, SnapshotShape& shape,
                     std::uint64_t sequence) {
  ShardShapeWalk(decompressed, shard_index, sequence, shape).run();
}

}  // namespace moonquota::inspect
