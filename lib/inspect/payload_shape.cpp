// The shapes of the `segments` payload (snapshot-format.md §6: the top-level keys in order, "ma",
// "an", each MountedSegment with its allocator state, "cs", "ld") and of the `task_manager`
// payload (§7: one shape per task form).
#include <set>
#include <string>

#include "inspect/msgpack_shape.hpp"
#include "inspect/snapshot_fingerprint.hpp"

namespace moonquota::inspect {

namespace {

using format::MpHeader;
using format::MpType;
using format::MsgpackReader;
using util::Status;

constexpr const char* k_segments = "segments";
constexpr int k_segment_depth = 6;  // MountedSegment > OffsetBufferAllocator > OffsetAllocator > __Allocator > arrays

Status reader_error(const MsgpackReader& reader, const char* payload) {
  return Status::corruption(std::string(payload) + ": " + reader.error());
}

// "[str…]": the distinct element shapes of an array whose length is data, not format.
bool distinct_elements(MsgpackReader& reader, std::uint32_t count, std::string& out) {
  std::set<std::string> shapes;
  for (std::uint32_t i = 0; i < count; ++i) {
    std::string shape = describe_shape(reader, 1);
    if (shape.empty()) return false;
    shapes.insert(std::move(shape));
  }
  out = "[";
  for (const auto& s : shapes) out += (out.size() == 1 ? "" : "|") + s;
  out += shapes.empty() ? "]" : "…]";
  return true;
}

// One entry of a map keyed by STR: the key's shape.
bool key_shape(MsgpackReader& reader, std::string& out) {
  out = describe_shape(reader, 0);
  return !out.empty();
}

class SegmentsShapeWalk {
 public:
  SegmentsShapeWalk(std::string_view raw, SnapshotShape& shape) : m_reader(raw), m_shape(shape) {}

  Status run() {
    MpHeader top;
    if (!m_reader.read_header(top)) return reader_error(m_reader, k_segments);
    if (top.type != MpType::map) {
      const std::string shape = describe_shape_after(m_reader, top, 1);
      add("top level: " + shape + " (not a map)", "segments top level", true);
      return {};
    }
    std::string keys;
    for (std::uint32_t i = 0; i < top.length; ++i) {
      MpHeader key;
      if (!m_reader.read_header(key)) return reader_error(m_reader, k_segments);
      std::string name;
      if (key.type == MpType::str) {
        std::string_view text;
        if (!m_reader.read_payload(key.length, text)) return reader_error(m_reader, k_segments);
        name = text;
        keys += (i == 0 ? "" : ",") + quoted_name(name);
      } else {
        name = "<" + describe_shape_after(m_reader, key, 1) + " key>";
        keys += (i == 0 ? "" : ",") + name;
      }
      if (!value_of(name, key.type == MpType::str)) return reader_error(m_reader, k_segments);
    }
    add("top level: {" + keys + "}", "segments top level");
    return {};
  }

 private:
  void add(const std::string& feature, const std::string& where, bool unknown = false) {
    m_shape.add(k_segments, feature, where, 1, unknown);
  }

  bool value_of(const std::string& name, bool str_key) {
    MpHeader h;
    if (!m_reader.read_header(h)) return false;
    const std::string at = "segments " + (str_key ? quoted_name(name) : name);
    if (str_key && name == "ma" && h.type == MpType::pos_int) {
      add("\"ma\": " + std::to_string(h.u), at);
      return true;
    }
    if (str_key && name == "an" && h.type == MpType::array) {
      std::string elements;
      if (!distinct_elements(m_reader, h.length, elements)) return false;
      add("\"an\": " + elements, at);
      return true;
    }
    if (str_key && (name == "ms" || name == "cs" || name == "ld") && h.type == MpType::map) {
      for (std::uint32_t e = 0; e < h.length; ++e) {
        if (!map_entry(name, at + " entry " + std::to_string(e))) return false;
      }
      if (h.length == 0) add("\"" + name + "\": {}", at);
      return true;
    }
    const bool known_key = str_key && (name == "ma" || name == "an" || name == "ms" || name == "cs" || name == "ld");
    const std::string shape = describe_shape_after(m_reader, h, 2);
    if (shape.empty()) return false;
    add((known_key ? quoted_name(name) + ": " : "key " + (str_key ? quoted_name(name) : name) + ": ") + shape, at,
        true);
    return true;
  }

  bool map_entry(const std::string& name, const std::string& where) {
    std::string key;
    if (!key_shape(m_reader, key)) return false;
    MpHeader h;
    if (!m_reader.read_header(h)) return false;
    if (name == "ms") {
      const std::string shape = describe_shape_after(m_reader, h, k_segment_depth);
      if (shape.empty()) return false;
      const bool known = h.type == MpType::array && (h.length == 8 || h.length == 9);
      add("\"ms\" entry: " + key + " → " + shape, where, !known);
      return true;
    }
    if (name == "cs") {
      std::string shape;
      if (h.type == MpType::array) {
        if (!distinct_elements(m_reader, h.length, shape)) return false;
      } else {
        shape = describe_shape_after(m_reader, h, 1);
        if (shape.empty()) return false;
      }
      add("\"cs\" entry: " + key + " → " + shape, where, h.type != MpType::array);
      return true;
    }
    return ld_client(key, h, where);
  }

  // "ld" (§6.5): [enable bool, count, (encoded_key, task) × count, capacity?].
  bool ld_client(const std::string& key, const MpHeader& h, const std::string& where) {
    if (h.type != MpType::array || h.length < 2) {
      const std::string shape = describe_shape_after(m_reader, h, 2);
      if (shape.empty()) return false;
      add("\"ld\" entry: " + key + " → " + shape, where, true);
      return true;
    }
    std::string head;
    std::uint64_t count = 0;
    for (int i = 0; i < 2; ++i) {
      MpHeader e;
      if (!m_reader.read_header(e)) return false;
      if (i == 1 && e.type == MpType::pos_int) count = e.u;
      const std::string part = describe_shape_after(m_reader, e, 0);
      if (part.empty()) return false;
      head += (i == 0 ? "" : ",") + part;
    }
    std::uint64_t i = 2;
    for (std::uint64_t t = 0; t < count && i + 1 < h.length; ++t, i += 2) {
      std::string task_key;
      if (!key_shape(m_reader, task_key)) return false;
      const std::string task = describe_shape(m_reader, 1);
      if (task.empty()) return false;
      add("\"ld\" task: " + task_key + " → " + task, where);
    }
    std::string tail;
    if (i < h.length) {
      tail += ',';
      if (!append_values(m_reader, h.length - i, 1, tail)) return false;
    }
    add("\"ld\" entry: " + key + " → [" + head + ",tasks" + tail + "]", where);
    return true;
  }

  MsgpackReader m_reader;
  SnapshotShape& m_shape;
};

}  // namespace

Status add_segments_shape(std::string_view decompressed, SnapshotShape& shape) {
  return SegmentsShapeWalk(decompressed, shape).run();
}

Status add_tasks_shape(std::string_view decompressed, SnapshotShape& shape) {
  constexpr const char* k_tasks = "task_manager";
  MsgpackReader reader(decompressed);
  MpHeader top;
  if (!reader.read_header(top)) return reader_error(reader, k_tasks);
  if (top.type != MpType::array) {
    const std::string s = describe_shape_after(reader, top, 1);
    shape.add(k_tasks, "top level: " + s + " (not an array)", "task_manager top level", 1, true);
    return {};
  }
  shape.add(k_tasks, "top level: [tasks]", "task_manager top level");
  for (std::uint32_t t = 0; t < top.length; ++t) {
    MpHeader h;
    if (!reader.read_header(h)) return reader_error(reader, k_tasks);
    const std::string s = describe_shape_after(reader, h, 1);
    if (s.empty()) return reader_error(reader, k_tasks);
    const bool known = h.type == MpType::array && h.length == 8;
    shape.add(k_tasks, "task: " + s, "task_manager task " + std::to_string(t), 1, !known);
  }
  return {};
}

}  // namespace moonquota::inspect
