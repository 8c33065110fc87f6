#include "inspect/allocator_check.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

namespace moonquota::inspect {

namespace {

constexpr std::size_t k_node_record_bytes = 25;
constexpr std::size_t k_nodes_listed = 5;
constexpr std::uint8_t k_used_bit = 1;
constexpr std::uint8_t k_many_refs = 2;

unsigned nibble_shift(std::size_t node) { return (node & 1) != 0 ? 4 : 0; }

std::uint8_t node_state(const CompactNodeTable& t, std::size_t node) {
  return static_cast<std::uint8_t>((t.state[node / 2].load(std::memory_order_relaxed) >> nibble_shift(node)) & 0xf);
}
bool node_used(const CompactNodeTable& t, std::size_t node) { return (node_state(t, node) & k_used_bit) != 0; }
std::uint8_t node_refs(const CompactNodeTable& t, std::size_t node) {
  return static_cast<std::uint8_t>(node_state(t, node) >> 1);
}

// Counts one reference (saturating at "more than one").
void add_reference(CompactNodeTable& t, std::size_t node) {
  std::atomic<std::uint8_t>& cell = t.state[node / 2];
  const unsigned shift = nibble_shift(node);
  std::uint8_t old = cell.load(std::memory_order_relaxed);
  while (true) {
    const std::uint8_t refs = static_cast<std::uint8_t>((old >> (shift + 1)) & 3);
    if (refs >= k_many_refs) return;
    const auto next = static_cast<std::uint8_t>(old + (2u << shift));
    if (cell.compare_exchange_weak(old, next, std::memory_order_relaxed)) return;
  }
}

std::uint32_t read_le32(const char* p) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(p[i]);
  return v;
}

VerifyFinding segment_finding(const std::string& id, const char* rule, std::string message) {
  return file_finding(model::Severity::error, rule, "segment " + id, std::move(message));
}

}  // namespace

std::uint8_t NodeOffsets::encode(std::uint32_t delta) {
  if (delta < 8) return static_cast<std::uint8_t>(delta);
  const int top = std::bit_width(delta) - 1;  // 3..31
  const int shift = top - 3;
  if ((delta & ((std::uint32_t{1} << shift) - 1)) != 0) return k_exception;
  const auto exponent = static_cast<std::uint32_t>(top - 2);  // 1..29
  return static_cast<std::uint8_t>((exponent << 3) | ((delta >> shift) & 7));
}

std::uint32_t NodeOffsets::decode(std::uint8_t code) {
  const std::uint32_t exponent = code >> 3;
  const std::uint32_t mantissa = code & 7u;
  if (exponent == 0) return mantissa;
  return (8u | mantissa) << (exponent - 1);  // codes above 239 are never written
}

std::uint32_t NodeOffsets::at(std::size_t n) const {
  if (!m_plain.empty()) return m_plain[n];
  const std::size_t first = n - n % k_block;
  std::uint32_t value = m_block_base[n / k_block];
  for (std::size_t i = first + 1; i <= n; ++i) {
    const std::uint8_t code = m_codes[i];
    if (code != k_exception) {
      value += decode(code);
      continue;
    }
    const auto it = std::lower_bound(m_exceptions.begin(), m_exceptions.end(), static_cast<std::uint32_t>(i),
                                     [](const auto& e, std::uint32_t node) { return e.first < node; });
    value = it->second;
  }
  return value;
}

std::size_t NodeOffsets::memory_bytes() const {
  return 4 * m_plain.capacity() + 4 * m_block_base.capacity() + m_codes.capacity() +
         sizeof(m_exceptions[0]) * m_exceptions.capacity();
}

NodeOffsets::Builder::Builder(std::size_t nodes) {
  m_table.m_nodes = nodes;
  m_table.m_block_base.reserve((nodes + k_block - 1) / k_block);
  m_table.m_codes.resize(nodes, 0);
}

void NodeOffsets::Builder::go_plain() {
  std::vector<std::uint32_t> plain;
  plain.reserve(m_table.m_nodes);
  for (std::size_t n = 0; n < m_added; ++n) plain.push_back(m_table.at(n));  // unused nodes: any value
  NodeOffsets fresh;
  fresh.m_nodes = m_table.m_nodes;
  fresh.m_plain = std::move(plain);
  m_table = std::move(fresh);
  m_plain = true;
}

void NodeOffsets::Builder::add(std::uint32_t offset, bool used) {
  const std::size_t n = m_added++;
  if (m_plain) {
    m_table.m_plain.push_back(offset);
    return;
  }
  if (used) m_used_end = n + 1;
  if (n % k_block == 0) {
    if (used) m_current = offset;
    m_table.m_block_base.push_back(m_current);
    return;
  }
  if (!used) return;
  const std::uint8_t code = encode(offset - m_current);
  m_table.m_codes[n] = code;
  m_current = offset;
  if (code != k_exception) return;
  m_table.m_exceptions.emplace_back(static_cast<std::uint32_t>(n), offset);
  if (m_table.memory_bytes() >= 4 * m_table.m_nodes) go_plain();
}

NodeOffsets NodeOffsets::Builder::finish() {
  if (!m_plain && m_table.m_nodes > 0 && m_table.memory_bytes() >= 4 * m_table.m_nodes) go_plain();
  if (m_plain) {
    m_table.m_plain.resize(m_table.m_nodes);  // a table cut short: its missing nodes read 0
  } else {
    // Only used nodes are ever read (at() reads a used node's block up to it): the codes and
    // blocks after the last used node (a grown table's unused capacity) are dropped.
    m_table.m_codes.resize(m_used_end);
    m_table.m_codes.shrink_to_fit();
    m_table.m_block_base.resize((m_used_end + k_block - 1) / k_block);
    m_table.m_block_base.shrink_to_fit();
  }
  return std::move(m_table);
}

NodeTableCompactor::NodeTableCompactor(std::size_t nodes) : m_offsets(nodes), m_nodes(nodes) {
  m_table.state = std::make_unique<std::atomic<std::uint8_t>[]>((nodes + 1) / 2);
}

void NodeTableCompactor::add(std::string_view records) {
  for (std::size_t at = 0; at + k_node_record_bytes <= records.size() && m_added < m_nodes; at += k_node_record_bytes) {
    const char* rec = records.data() + at;
    const std::size_t n = m_added++;
    const bool used = rec[0] != 0;
    m_offsets.add(read_le32(rec + 1), used);
    if (!used) continue;
    m_table.state[n / 2].fetch_or(static_cast<std::uint8_t>(k_used_bit << nibble_shift(n)), std::memory_order_relaxed);
    ++m_table.used_nodes;
    m_table.used_units += read_le32(rec + 5);
  }
}

CompactNodeTable NodeTableCompactor::finish() {
  m_table.data_offset = m_offsets.finish();
  return std::move(m_table);
}

CompactNodeTable compact_node_table(const model::AllocatorCore& core) {
  NodeTableCompactor compactor(core.nodes.size() / k_node_record_bytes);
  compactor.add(core.nodes);
  return compactor.finish();
}

AllocatorIndex::AllocatorIndex(model::SegmentsPayload& segments) {
  std::vector<CompactNodeTable> tables;
  for (auto& ms : segments.mounted) {
    if (!ms.has_allocator || !ms.allocator) continue;
    tables.push_back(compact_node_table(ms.allocator->offset.core));
    std::string().swap(ms.allocator->offset.core.nodes);
    std::string().swap(ms.allocator->offset.core.free_nodes);
  }
  build(segments, std::move(tables));
}

AllocatorIndex::AllocatorIndex(const model::SegmentsPayload& segments, std::vector<CompactNodeTable> tables) {
  build(segments, std::move(tables));
}

void AllocatorIndex::build(const model::SegmentsPayload& segments, std::vector<CompactNodeTable> tables) {
  std::size_t next_table = 0;
  for (const auto& ms : segments.mounted) {
    auto seg = std::make_unique<Segment>();
    seg->id = ms.map_key;
    seg->base = ms.base;
    seg->size = ms.size;
    seg->ok = ms.status == model::segment_status::ok;
    if (ms.has_allocator && ms.allocator) {
      const auto& a = *ms.allocator;
      const auto& core = a.offset.core;
      seg->has_allocator = true;
      seg->alloc_base = a.offset.base;
      seg->multiplier_bits = a.offset.multiplier_bits;
      seg->cur_size = a.cur_size;
      seg->allocated_size = a.offset.allocated_size;
      seg->allocated_num = a.offset.allocated_num;
      seg->size_units = core.size;
      seg->free_storage = core.free_storage;
      if (next_table < tables.size()) {
        seg->nodes = std::move(tables[next_table]);
        seg->used_nodes = seg->nodes.used_nodes;
        seg->used_units = seg->nodes.used_units;
      }
      ++next_table;
    }
    const std::size_t index = m_segments.size();
    m_by_key.emplace(ms.map_key, index);
    if (auto uuid = util::parse_uuid_lenient(ms.map_key)) m_by_uuid.emplace(*uuid, index);
    m_segments.push_back(std::move(seg));
  }
}

AllocatorIndex::Segment* AllocatorIndex::find(std::string_view segment_id) {
  if (auto it = m_by_key.find(segment_id); it != m_by_key.end()) return m_segments[it->second].get();
  auto uuid = util::parse_uuid_lenient(segment_id);
  if (!uuid) return nullptr;
  auto it = m_by_uuid.find(*uuid);
  return it == m_by_uuid.end() ? nullptr : m_segments[it->second].get();
}

void AllocatorIndex::check_replica(const format::ReplicaView& r, std::optional<std::uint64_t> object_size,
                                   const VerifyFinding& prototype, FindingCollector& out) {
  auto report = [&](const char* rule, std::string message) {
    VerifyFinding f = prototype;
    f.severity = model::Severity::error;
    f.rule = rule;
    f.replica_id = r.id;
    f.message = std::move(message);
    out.add(std::move(f));
  };
  if (object_size && r.mem_size != *object_size) {
    report("buffer-size", "MEMORY buffer size " + std::to_string(r.mem_size) + " differs from the object size " +
                              std::to_string(*object_size));
  }
  Segment* seg = find(r.segment_id);
  if (seg == nullptr || !seg->has_allocator) return;  // the decoder already skipped such an object
  seg->buffer_bytes.fetch_add(r.mem_size, std::memory_order_relaxed);
  const std::string on = " on segment " + seg->id;
  if (r.mem_address < seg->base || r.mem_address - seg->base >= seg->size ||
      r.mem_size > seg->size - (r.mem_address - seg->base)) {
    report("buffer-address", "buffer [" + std::to_string(r.mem_address) + ", +" + std::to_string(r.mem_size) +
                                 ") lies outside" + on + " [" + std::to_string(seg->base) + ", +" +
                                 std::to_string(seg->size) + ")");
  }
  if (!r.has_offset_handle) {
    report("handle-missing", "MEMORY replica" + on + " has no offset handle");
    return;
  }
  const auto& h = r.handle;
  if (h.real_base != r.mem_address) {
    report("handle-base", "handle real_base " + std::to_string(h.real_base) + " differs from the buffer address " +
                              std::to_string(r.mem_address));
  }
  if (h.requested_size != r.mem_size) {
    report("handle-size", "handle requested_size " + std::to_string(h.requested_size) +
                              " differs from the buffer size " + std::to_string(r.mem_size));
  }
  // A corrupt multiplier_bits of 64 or more is reported once per segment by check_totals (a
  // shift that wide is undefined, in the master too); the offset cannot be derived then.
  if (seg->multiplier_bits < 64 && h.real_base >= seg->alloc_base &&
      ((h.real_base - seg->alloc_base) >> seg->multiplier_bits) != h.offset) {
    report("handle-offset", "handle offset " + std::to_string(h.offset) + " does not match real_base " +
                                std::to_string(h.real_base) + " (allocator base " + std::to_string(seg->alloc_base) +
                                ", multiplier_bits " + std::to_string(seg->multiplier_bits) + ")");
  }
  const auto& data_offset = seg->nodes.data_offset;
  if (h.node_index >= data_offset.size()) {
    report("handle-node-range", "handle node " + std::to_string(h.node_index) + " is outside the node table" + on +
                                    " (" + std::to_string(data_offset.size()) + " nodes)");
    return;
  }
  add_reference(seg->nodes, h.node_index);
  if (!node_used(seg->nodes, h.node_index)) {
    report("handle-node-unused", "handle node " + std::to_string(h.node_index) + on + " is not in use");
  } else if (const std::uint32_t stored = data_offset.at(h.node_index); stored != h.offset) {
    report("handle-offset", "handle offset " + std::to_string(h.offset) + " differs from node " +
                                std::to_string(h.node_index) + "'s dataOffset " + std::to_string(stored) + on);
  }
}

void AllocatorIndex::check_totals(FindingCollector& out) const {
  for (const auto& seg : m_segments) {
    if (!seg->has_allocator) continue;
    if (!seg->ok) {  // the master skips every object on it, so its references cannot be counted
      VerifyFinding f = segment_finding(seg->id, "allocator-unchecked", "allocator not checked: the segment is not OK");
      f.severity = model::Severity::info;
      out.add(std::move(f));
      continue;
    }
    if (seg->multiplier_bits >= 64) {
      out.add(segment_finding(seg->id, "allocator-multiplier",
                              "multiplier_bits " + std::to_string(seg->multiplier_bits) +
                                  " is not a valid shift (0..63): offsets cannot be derived from addresses"));
    }
    auto mismatch = [&](const char* what, std::uint64_t stored, const char* derived_what, std::uint64_t derived) {
      if (stored == derived) return;
      out.add(segment_finding(seg->id, "allocator-totals",
                              std::string(what) + " is " + std::to_string(stored) + " but " + derived_what + " is " +
                                  std::to_string(derived)));
    };
    mismatch("allocated_num", seg->allocated_num, "the number of used nodes", seg->used_nodes);
    mismatch("allocated_size", seg->allocated_size, "cur_size", seg->cur_size);
    mismatch("cur_size", seg->cur_size, "the sum of MEMORY buffer sizes on the segment", seg->buffer_bytes.load());
    if (seg->used_units <= seg->size_units) {
      mismatch("free_storage", seg->free_storage, "size minus the used nodes' sizes",
               seg->size_units - seg->used_units);
    } else {
      mismatch("the used nodes' total size", seg->used_units, "the allocator size", seg->size_units);
    }
    std::uint64_t unreferenced = 0;
    std::uint64_t shared = 0;
    std::string unreferenced_list;
    std::string shared_list;
    for (std::size_t n = 0; n < seg->nodes.data_offset.size(); ++n) {
      const std::uint8_t refs = node_refs(seg->nodes, n);
      if (node_used(seg->nodes, n) && refs == 0 && ++unreferenced <= k_nodes_listed) {
        unreferenced_list += " " + std::to_string(n);
      }
      if (refs > 1 && ++shared <= k_nodes_listed) shared_list += " " + std::to_string(n);
    }
    if (unreferenced > 0) {
      out.add(segment_finding(seg->id, "allocator-leak",
                              std::to_string(unreferenced) + " used nodes are referenced by no replica (nodes" +
                                  unreferenced_list + (unreferenced > k_nodes_listed ? " ...)" : ")")));
    }
    if (shared > 0) {
      out.add(segment_finding(seg->id, "handle-shared-node",
                              std::to_string(shared) + " nodes are referenced by more than one replica (nodes" +
                                  shared_list + (shared > k_nodes_listed ? " ...)" : ")")));
    }
  }
}

}  // namespace moonquota::inspect
