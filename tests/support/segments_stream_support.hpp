// Test support for the streaming `segments` decoder: an in-memory ByteSource, and a decode of one
// payload both ways (whole, and streamed from its zstd frame through a small window) whose
// outcomes can be compared as text.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <string_view>

#include "format/segments_decoder.hpp"
#include "model/finding.hpp"
#include "model/snapshot_types.hpp"
#include "util/byte_source.hpp"
#include "util/zstd_codec.hpp"
#include "util/zstd_file.hpp"

namespace moonquota::test {

class StringSource final : public util::ByteSource {
 public:
  explicit StringSource(std::string bytes, std::size_t fail_at = std::string::npos)
      : m_bytes(std::move(bytes)), m_fail_at(fail_at) {}
  util::Status read_exact(std::uint64_t n, std::string* out) override {
    if (m_offset + n > m_bytes.size()) return util::Status::corruption("short read");
    if (m_fail_at != std::string::npos && m_offset + n > m_fail_at) return util::Status::io_error("read failed");
    if (out != nullptr) out->append(m_bytes, m_offset, n);
    m_offset += n;
    return {};
  }
  util::Status read_exact(std::uint64_t n, util::ByteBuffer& out) override {
    std::string s;
    MQ_RETURN_IF_ERROR(read_exact(n, &s));
    out.resize_uninitialized(s.size());
    if (!s.empty()) std::memcpy(out.data(), s.data(), s.size());
    return {};
  }
  [[nodiscard]] std::uint64_t offset() const override { return m_offset; }
  [[nodiscard]] std::uint64_t size() const override { return m_bytes.size(); }
  [[nodiscard]] const std::string& name() const override { return m_name; }

 private:
  std::string m_bytes;
  std::size_t m_fail_at;
  std::uint64_t m_offset = 0;
  std::string m_name = "memory";
};

inline std::uint64_t fnv1a(std::string_view bytes) {
  std::uint64_t h = 1469598103934665603ULL;
  for (char c : bytes) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
  return h;
}

inline std::string describe_core(const model::AllocatorCore& c) {
  std::string s = std::to_string(c.size) + "/" + std::to_string(c.current_capacity) + "/" +
                  std::to_string(c.max_capacity) + "/" + std::to_string(c.free_storage) + "/" +
                  std::to_string(c.used_bins_top) + "/" + std::to_string(c.free_offset) + "/";
  for (auto b : c.used_bins) s += std::to_string(b) + ",";
  for (auto b : c.bin_indices) s += std::to_string(b) + ",";
  s += "/" + std::to_string(c.nodes.size()) + ":" + std::to_string(fnv1a(c.nodes));
  s += "/" + std::to_string(c.free_nodes.size()) + ":" + std::to_string(fnv1a(c.free_nodes));
  return s;
}

// Every field of the payload, one line each part.
inline std::string describe_segments(const model::SegmentsPayload& p) {
  std::string s = "ma " + (p.allocator_type ? std::to_string(*p.allocator_type) : "-") + "\nan " +
                  std::to_string(p.has_allocator_names);
  for (const auto& n : p.allocator_names) s += " [" + n + "]";
  for (const auto& m : p.mounted) {
    s += "\nms [" + m.map_key + "][" + m.id + "][" + m.name + "] " + std::to_string(m.base) + " " +
         std::to_string(m.size) + " [" + m.te_endpoint + "] " + std::to_string(m.status) + " " +
         std::to_string(m.has_allocator) + " host " + (m.host_id ? "[" + *m.host_id + "]" : "-");
    if (m.allocator) {
      const auto& a = *m.allocator;
      s += " alloc [" + a.segment_name + "] " + std::to_string(a.base) + " " + std::to_string(a.total_size) + " " +
           std::to_string(a.cur_size) + " [" + a.transport_endpoint + "] " + std::to_string(a.offset.base) + " " +
           std::to_string(a.offset.multiplier_bits) + " " + std::to_string(a.offset.capacity) + " " +
           std::to_string(a.offset.allocated_size) + " " + std::to_string(a.offset.allocated_num) + " " +
           describe_core(a.offset.core);
    }
  }
  s += "\ncs " + std::to_string(p.has_client_segments);
  for (const auto& [client, ids] : p.client_segments) {
    s += " [" + client + "]";
    for (const auto& id : ids) s += "(" + id + ")";
  }
  s += "\nld " + std::to_string(p.has_local_disk);
  for (const auto& c : p.local_disk) {
    s += " [" + c.client_id + "] " + std::to_string(c.enable_offloading) + " " +
         (c.total_capacity_bytes ? std::to_string(*c.total_capacity_bytes) : "-");
    for (const auto& t : c.tasks) {
      s += " ([" + t.encoded_key + "][" + t.tenant_id + "][" + t.key + "] " + std::to_string(t.size) + " " +
           std::to_string(t.legacy_integer_form) + ")";
    }
  }
  return s;
}

// One decode's whole outcome as text: status (or payload), findings, node-table callbacks.
inline std::string describe_outcome(const util::Result<model::SegmentsPayload>& r, const model::Findings& findings,
                                    const std::string& callbacks) {
  std::string s = r.ok()
                      ? describe_segments(*r)
                      : "error " + std::string(util::status_code_name(r.status().code())) + ": " + r.status().message();
  for (const auto& f : findings) {
    s += "\nfinding " + std::string(model::severity_name(f.severity)) + " [" + f.location + "] " + f.message;
  }
  return s + "\ncallbacks " + callbacks;
}

// An on_node_records that gathers each table in `table` and, once whole, adds its size and hash
// (and how many pieces it came in: not compared, as they differ by design) to `callbacks`.
inline auto record_node_tables(std::string& table, std::string& callbacks) {
  return [&table, &callbacks](std::string_view records, std::uint64_t first_node, std::uint64_t nodes) {
    if (first_node == 0) table.clear();
    if (first_node != table.size() / 25 || records.size() % 25 != 0) callbacks += "misaligned piece;";
    table.append(records);
    if (first_node + records.size() / 25 == nodes) {
      callbacks += std::to_string(nodes) + ":" + std::to_string(fnv1a(table)) + ";";
    }
  };
}

inline std::string decode_whole(std::string_view raw, format::SegmentsDecodeOptions options) {
  model::Findings findings;
  std::string callbacks;
  std::string table;
  if (!options.keep_allocator_blobs) options.on_node_records = record_node_tables(table, callbacks);
  auto r = format::decode_segments(raw, options, findings);
  return describe_outcome(r, findings, callbacks);
}

// What snapshot_reader's load_segments does with a streamed payload: the stream's own error
// first, then the decoder's verdict.
inline std::string decode_streamed(std::string_view raw, format::SegmentsDecodeOptions options, std::size_t step,
                                   std::size_t keep) {
  StringSource source(util::zstd_compress(raw, 1));
  util::ZstdStreamReader stream(source);
  if (util::Status s = stream.open(std::size_t{1} << 30); !s.ok()) return "open failed: " + s.message();
  model::Findings findings;
  std::string callbacks;
  std::string table;
  if (!options.keep_allocator_blobs) options.on_node_records = record_node_tables(table, callbacks);
  options.stream_step_bytes = step;
  options.stream_blob_bytes = step;  // every node table and free list frame of `step` bytes or more streams
  options.stream_keep_bytes = keep;
  auto r = format::decode_segments(stream, options, findings);
  if (util::Status s = stream.finish(); !s.ok()) return "stream failed: " + s.message();
  return describe_outcome(r, findings, callbacks);
}

}  // namespace moonquota::test
