#include "fuzz/canonical_entry_entry.hpp"

#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "format/shard_decoder.hpp"

namespace moonquota::fuzz {

namespace {

class Bytes {
 public:
  Bytes(const std::uint8_t* data, std::size_t size) : m_data(data), m_size(size) {}
  std::uint8_t next() { return m_pos < m_size ? m_data[m_pos++] : 0; }
  [[nodiscard]] bool empty() const { return m_pos >= m_size; }

 private:
  const std::uint8_t* m_data;
  std::size_t m_size;
  std::size_t m_pos = 0;
};

// Emits msgpack with the encoding chosen by the input (not always the smallest one).
class Emitter {
 public:
  explicit Emitter(Bytes& in) : m_in(in) {}
  std::string out;

  void byte(unsigned v) { out.push_back(static_cast<char>(v & 0xff)); }
  void be(std::uint64_t v, int n) {
    for (int i = n - 1; i >= 0; --i) byte(static_cast<unsigned>(v >> (8 * i)));
  }
  // A non-negative value, usually in its smallest form.
  void uint(std::uint64_t v) {
    const std::uint8_t form = m_in.next() % 16;
    if (form == 1 && v <= 0xff) return byte(0xcc), be(v, 1);
    if (form == 2 && v <= 0xffff) return byte(0xcd), be(v, 2);
    if (form == 3 && v <= 0xffffffffULL) return byte(0xce), be(v, 4);
    if (form == 4) return byte(0xcf), be(v, 8);
    if (form == 5 && v <= 0x7f) return byte(0xd0), be(v, 1);
    if (form == 6 && v <= 0x7fff) return byte(0xd1), be(v, 2);
    if (form == 7 && v <= 0x7fffffffULL) return byte(0xd2), be(v, 4);
    if (form == 8 && v <= 0x7fffffffffffffffULL) return byte(0xd3), be(v, 8);
    if (form == 9) return byte(0xff);                      // -1
    if (form == 10) return byte(0xd1), be(0x8000, 2);      // -32768
    if (form == 11) return byte(0xc0);                     // nil
    if (v <= 0x7f) return byte(static_cast<unsigned>(v));  // smallest forms
    if (v <= 0xff) return byte(0xcc), be(v, 1);
    if (v <= 0xffff) return byte(0xcd), be(v, 2);
    if (v <= 0xffffffffULL) return byte(0xce), be(v, 4);
    return byte(0xcf), be(v, 8);
  }
  // A value picked by the input: small, type-sized edges, or the time limit's edges.
  std::uint64_t value() {
    switch (m_in.next() % 8) {
      case 0: return m_in.next() % 8;
      case 1: return m_in.next();
      case 2: return 255 + m_in.next() % 3;
      case 3: return 0xffffffffULL - 1 + m_in.next() % 3;
      case 4: return 9223372036854ULL - 1 + m_in.next() % 3;  // k_max_time_point_ms
      case 5: return ~std::uint64_t{0};
      case 6: return 1787375520123ULL + m_in.next();
      default: return 1024;
    }
  }
  void str(std::string_view s) {
    const std::uint8_t form = m_in.next() % 12;
    if (form == 1 && s.size() <= 0xff) {
      byte(0xd9), be(s.size(), 1);
    } else if (form == 2 && s.size() <= 0xffff) {
      byte(0xda), be(s.size(), 2);
    } else if (form == 3 && s.size() <= 0xff) {
      byte(0xc4), be(s.size(), 1);  // bin8
    } else if (form == 4) {
      byte(0xdb), be(s.size(), 4);
    } else if (s.size() < 32) {
      byte(0xa0 | static_cast<unsigned>(s.size()));
    } else if (s.size() <= 0xff) {
      byte(0xd9), be(s.size(), 1);
    } else {
      byte(0xda), be(s.size(), 2);
    }
    out.append(s);
  }
  void array(std::size_t n) {
    if (m_in.next() % 16 == 1) {
      byte(0xdc), be(n, 2);
    } else {
      byte(0x90 | static_cast<unsigned>(n & 0x0f));
    }
  }
  void boolean(bool v) {
    const std::uint8_t form = m_in.next() % 16;
    if (form == 1) return byte(v ? 1 : 0);
    if (form == 2) return byte(0xc0);
    byte(v ? 0xc3 : 0xc2);
  }
  // A count near `n`: usually n.
  std::size_t near(std::size_t n) {
    const std::uint8_t c = m_in.next() % 16;
    if (c == 1) return n + 1;
    if (c == 2 && n > 0) return n - 1;
    return n;
  }

 private:
  Bytes& m_in;
};

const char* const k_clients[] = {"00000001-0000-0000-0000-000000000002",
                                 "00000003-0000-0000-0000-000000000004",
                                 "not-a-uuid",
                                 "00000000-0000-0000-0000-000000000000",
                                 "",
                                 "1-2"};
// 3-4: OK with an allocator; 5-6: not OK; 7-8: no allocator; 9-10: not in the table; "03-4" is
// 3-4 without being its key; "x" and "0-0" are not usable ids.
const char* const k_segments[] = {"3-4", "3-4", "5-6", "7-8", "9-10", "03-4", "x", "0-0"};

void replica(Emitter& e, Bytes& in) {
  const std::uint8_t shape = in.next();
  e.array(shape % 16 == 1 ? 3 : 4);
  e.uint(in.next());                                                        // id
  e.uint(shape % 16 == 2 ? 300 : (in.next() % 8 < 6 ? 0 : in.next() % 6));  // status: COMPLETE mostly
  const std::uint8_t kinds[] = {0, 0, 0, 1, 2, 3, 4, 9};
  const std::uint8_t type = kinds[in.next() % 8];
  e.uint(type);
  switch (type) {
    case 0: {
      e.array(e.near(5));
      e.uint(e.value());
      e.uint(e.value());
      e.str(k_segments[in.next() % 8]);
      const std::uint8_t handle = in.next() % 8;
      e.boolean(handle != 0);
      if (handle == 0) {
        e.byte(0xc0);
      } else if (handle == 1) {
        e.uint(7);  // not nil, not an array
      } else {
        e.array(e.near(3));
        e.uint(e.value());
        e.uint(e.value());
        e.array(e.near(2));
        e.uint(e.value());
        e.uint(e.value());
      }
      break;
    }
    case 1:
      e.array(e.near(2));
      e.str("/mnt/mooncake_fs/c/d/m/key");
      e.uint(e.value());
      break;
    case 2:
      e.array(e.near(3));
      e.str(k_clients[in.next() % 6]);
      e.uint(e.value());
      e.str("10.0.1.1:15000");
      break;
    case 4:
      e.array(e.near(5));
      e.str("/dfs/p");
      e.uint(e.value());
      e.uint(e.value());
      e.uint(e.value());
      e.uint(in.next());
      break;
    default: e.array(0); break;
  }
}

void entry(Emitter& e, Bytes& in, unsigned index) {
  const std::uint8_t shape = in.next();
  const bool legacy = shape % 16 == 1;
  e.array(legacy ? 2 : 3);
  const char* const tenants[] = {"tenant-00", "tenant-00", "tenant-01",
                                 "",          "t\xff",     "a-tenant-name-longer-than-thirty-one-bytes"};
  if (!legacy) e.str(tenants[in.next() % 6]);
  std::string key = "key-" + std::to_string(index % 3);
  if (shape % 16 == 2) key.append(300, 'k');
  if (shape % 16 == 3) key.append(40, 'k');
  e.str(key);
  const std::size_t replicas = in.next() % 4;
  const std::uint8_t layout = in.next() % 16;
  const bool checksum = layout == 1;
  std::size_t len = 10 + replicas + (checksum ? 1 : 0);
  if (layout >= 2 && layout <= 5) len = 5 + layout + replicas;  // v1..v4 by count alone
  if (layout == 6) len = 12 + replicas;
  e.array(len);
  e.str(k_clients[in.next() % 6 < 4 ? in.next() % 2 : in.next() % 6]);
  e.uint(e.value());  // put_start_time
  e.uint(e.value());  // size
  e.uint(e.value());  // lease_timeout
  e.boolean(false);
  e.uint(0);
  e.uint(e.near(replicas));
  e.uint(in.next() % 16 == 1 ? 256 : in.next() % 4);  // data_type
  for (std::size_t k = 0; k < replicas; ++k) replica(e, in);
  e.boolean(in.next() % 8 == 1);
  e.str(in.next() % 8 == 1 ? "group" : "");
  if (checksum) e.uint(e.value());
}

struct Seen {
  std::uint64_t entry_index = 0;
  std::size_t offset = 0;
  std::size_t end_offset = 0;
  format::DecodeOutcome outcome{};
  std::string reason;
  bool ambiguous = false;
  bool nof = false;
  std::string tenant;
  model::ObjectRecord record;
};

class Recorder final : public format::ShardVisitor {
 public:
  void on_entry(const format::ShardEntry& entry) override {
    Seen s;
    s.entry_index = entry.entry_index;
    s.offset = entry.offset;
    s.end_offset = entry.end_offset;
    s.outcome = entry.result->outcome;
    s.reason = entry.result->reason;
    s.ambiguous = entry.result->ambiguous;
    s.nof = entry.result->nof_replica;
    s.tenant = entry.object->tenant_id;
    // A skipped entry's view holds its tenant and key; the rest is unspecified (ShardEntry), no
    // visitor reads it, and the two paths leave different stale values there.
    if (s.outcome == format::DecodeOutcome::decoded) {
      s.record = format::to_record(*entry.object);
    } else {
      s.record.tenant_id = entry.object->tenant_id;
      s.record.key = entry.object->key;
    }
    seen.push_back(std::move(s));
  }
  std::vector<Seen> seen;
};

struct Run {
  std::vector<std::string> statuses;
  model::Findings findings;
  Recorder recorder;
};

format::SegmentTable table() {
  format::SegmentTable t;
  t.add({3, 4}, {model::segment_status::ok, true});
  t.add({5, 6}, {2, true});
  t.add({7, 8}, {model::segment_status::ok, false});
  return t;
}

Run decode(std::string_view raw, format::DecodePath path) {
  static const format::SegmentTable segments = table();
  Run run;
  format::ObjectView scratch;
  for (int pass = 0; pass < 2; ++pass) {  // the second pass starts from the first's scratch state
    util::Status s = format::decode_shard(raw, static_cast<std::uint32_t>(raw.size() % 1024), segments, scratch,
                                          run.recorder, run.findings, path);
    run.statuses.push_back(std::to_string(static_cast<int>(s.code())) + " " + s.message());
  }
  return run;
}

[[noreturn]] void fail(const char* what, std::string_view raw) {
  std::fprintf(stderr, "canonical_entry: %s\nshard (%zu bytes):", what, raw.size());
  for (unsigned char c : raw) std::fprintf(stderr, " %02x", c);
  std::fprintf(stderr, "\n");
  std::abort();
}

bool same_replica(const model::Replica& a, const model::Replica& b) {
  return a.id == b.id && a.status == b.status && a.type == b.type && a.memory.size == b.memory.size &&
         a.memory.buffer_address == b.memory.buffer_address && a.memory.segment_id == b.memory.segment_id &&
         a.memory.has_offset_handle == b.memory.has_offset_handle &&
         a.memory.handle.real_base == b.memory.handle.real_base &&
         a.memory.handle.requested_size == b.memory.handle.requested_size &&
         a.memory.handle.offset == b.memory.handle.offset && a.memory.handle.node_index == b.memory.handle.node_index &&
         a.file_path == b.file_path && a.object_size == b.object_size && a.client_id == b.client_id &&
         a.transport_endpoint == b.transport_endpoint && a.dfs_offset == b.dfs_offset &&
         a.dfs_aligned_size == b.dfs_aligned_size && a.dfs_shard_idx == b.dfs_shard_idx;
}

bool same_record(const model::ObjectRecord& a, const model::ObjectRecord& b) {
  if (a.tenant_id != b.tenant_id || a.key != b.key || a.client_id != b.client_id ||
      a.put_start_time_ms != b.put_start_time_ms || a.size != b.size || a.lease_timeout_ms != b.lease_timeout_ms ||
      a.data_type != b.data_type || a.hard_pinned != b.hard_pinned || a.group_id != b.group_id ||
      a.checksum != b.checksum || a.layout_version != b.layout_version || a.legacy_entry != b.legacy_entry ||
      a.replicas.size() != b.replicas.size()) {
    return false;
  }
  for (std::size_t i = 0; i < a.replicas.size(); ++i) {
    if (!same_replica(a.replicas[i], b.replicas[i])) return false;
  }
  return true;
}

void compare(std::string_view raw) {
  const Run fast = decode(raw, format::DecodePath::canonical_first);
  const Run general = decode(raw, format::DecodePath::general_only);
  if (fast.statuses != general.statuses) fail("statuses differ", raw);
  if (fast.findings.size() != general.findings.size()) fail("finding counts differ", raw);
  for (std::size_t i = 0; i < fast.findings.size(); ++i) {
    const model::Finding& a = fast.findings[i];
    const model::Finding& b = general.findings[i];
    if (a.severity != b.severity || a.location != b.location || a.message != b.message || a.rule != b.rule ||
        a.shard != b.shard || a.entry != b.entry) {
      fail("findings differ", raw);
    }
  }
  const auto& x = fast.recorder.seen;
  const auto& y = general.recorder.seen;
  if (x.size() != y.size()) fail("entry counts differ", raw);
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (x[i].entry_index != y[i].entry_index || x[i].offset != y[i].offset || x[i].end_offset != y[i].end_offset ||
        x[i].outcome != y[i].outcome || x[i].reason != y[i].reason || x[i].ambiguous != y[i].ambiguous ||
        x[i].nof != y[i].nof || x[i].tenant != y[i].tenant) {
      fail("entries differ", raw);
    }
    if (!same_record(x[i].record, y[i].record)) fail("decoded objects differ", raw);
  }
}

}  // namespace

std::string canonical_entry_shard(const std::uint8_t* data, std::size_t size) {
  Bytes in(data, size);
  Emitter e(in);
  const unsigned entries = 1 + in.next() % 8;
  const std::uint8_t wrapper = in.next() % 16;
  e.byte(wrapper == 1 ? 0x82 : 0x81);
  e.str("metadata");
  e.array(e.near(entries));
  for (unsigned i = 0; i < entries; ++i) entry(e, in, i);
  if (wrapper == 1) {
    e.str("extra");
    e.uint(1);
  }
  if (wrapper == 2) e.byte(0x00);  // a trailing byte
  std::string shard = std::move(e.out);
  // Byte edits: (operation, position, value) triples from the rest of the input.
  while (!in.empty() && !shard.empty()) {
    const std::uint8_t op = in.next() % 4;
    const std::size_t pos = ((std::size_t{in.next()} << 8) | in.next()) % shard.size();
    const char value = static_cast<char>(in.next());
    if (op == 0) shard[pos] = value;
    if (op == 1) shard.insert(shard.begin() + static_cast<std::ptrdiff_t>(pos), value);
    if (op == 2) shard.erase(pos, 1);
    if (op == 3) shard.resize(pos);
  }
  return shard;
}

int run_canonical_entry(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  if (data[0] % 2 == 0) {
    compare(std::string_view(reinterpret_cast<const char*>(data + 1), size - 1));
  } else {
    compare(canonical_entry_shard(data + 1, size - 1));
  }
  return 0;
}

}  // namespace moonquota::fuzz
