#include "format/segments_decoder.hpp"

#include <algorithm>
#include <optional>
#include <set>
#include <string>

#include "format/msgpack_convert.hpp"
#include "util/uuid.hpp"
#include "util/zstd_codec.hpp"
#include "util/zstd_file.hpp"
#include "util/zstd_frame_feed.hpp"

namespace moonquota::format {

namespace {

using util::Status;

class SegmentsDecoder {
 public:
  SegmentsDecoder(std::string_view raw, const SegmentsDecodeOptions& options, model::Findings& findings)
      : m_reader(raw), m_values(m_reader), m_options(options), m_findings(findings), m_total(raw.size()) {}
  // Streaming: the payload is pulled from `stream` into a window that holds the value being
  // decoded (one "ms" entry, or one other top-level value) and little more.
  SegmentsDecoder(util::ZstdStreamReader& stream, const SegmentsDecodeOptions& options, model::Findings& findings)
      : m_reader(std::string_view()),
        m_values(m_reader),
        m_options(options),
        m_findings(findings),
        m_stream(&stream),
        m_total(stream.content_bytes()) {}

  util::Result<model::SegmentsPayload> run();

 private:
  bool fail_status(const std::string& context) {
    m_failure = context + ": " + m_values.error();
    return false;
  }
  bool fail_message(const std::string& message) {
    if (m_failure.empty()) m_failure = message;
    return false;
  }
  void finding(model::Severity s, std::string message) { m_findings.push_back({s, "segments", std::move(message)}); }

  bool uuid_string(std::string_view& out, const char* what, bool strict_str);
  bool decode_allocator_names();
  bool decode_mounted();
  bool decode_mounted_segment(std::string_view key, model::MountedSegment& seg);
  bool decode_buffer_allocator(model::BufferAllocatorState& a, const std::string& where);
  bool decode_core(model::AllocatorCore& core, const std::string& where);
  // One allocator BIN (`expected` bytes decompressed): kept in `out`, handed to on_node_records
  // (`node_table`), or only checked. `values_after`: the values that follow it up to the end of
  // the "ms" entry (what the window must hold once a streamed frame has passed).
  bool decode_blob(std::uint64_t expected, std::string& out, const char* what, const std::string& where,
                   bool node_table, unsigned values_after);
  // The part of a frame that passes through the decoder: what follows the BIN header in the
  // window, then the rest pulled from the stream piece by piece; the window then starts after it.
  bool stream_blob(const MpHeader& h, util::ZstdFrameFeed& feed);
  bool decode_client_segments();
  bool decode_local_disk();
  bool decode_local_disk_client(std::string_view key, model::LocalDiskClient& client);

  // The window (streaming only; without a stream they do nothing). Each makes sure that what the
  // decoder reads next is decoded exactly as if the whole payload were in memory: the window
  // grows until the next value(s) are complete in it, or until it reaches the payload's end.
  bool ensure_values(unsigned count);
  // The next header and what its length check needs (a map's elements), without the map's
  // contents: for the large maps read entry by entry. Anything but a map is made complete (a
  // type error skips the whole value).
  bool ensure_map_header();
  // The next "ms" entry (key and value) complete in the window, except that the window may stop
  // at the header of its node table's or free list's frame when that frame is streamed: then
  // m_stream_blob_at is its absolute offset.
  bool ensure_mounted_entry();
  // After a streamed frame: the `count` values that end the entry; the first may be a streamed
  // frame itself (`first_may_stream`).
  bool ensure_after_blob(unsigned count, bool first_may_stream);
  // Probes: whether what the window holds from `probe`'s position reaches the stopping point.
  enum class Probe { complete, stopped, short_window };
  Probe probe_stream_blob(MsgpackReader& probe);
  Probe probe_core(MsgpackReader& probe);
  Probe probe_mounted_value(MsgpackReader& probe);
  bool grow(std::uint64_t bytes);
  void reseat(std::uint64_t absolute);
  void release_consumed();
  [[nodiscard]] bool window_at_end() const { return m_window_start + m_window.size() == m_total; }
  [[nodiscard]] std::size_t window_position() const {
    return static_cast<std::size_t>(m_reader.absolute_position() - m_window_start);
  }
  [[nodiscard]] std::uint64_t bytes_left() const { return m_total - m_reader.absolute_position(); }

  MsgpackReader m_reader;
  ValueReader m_values;
  const SegmentsDecodeOptions& m_options;
  model::Findings& m_findings;
  model::SegmentsPayload m_out;
  std::string m_failure;
  util::StatusCode m_failure_code = util::StatusCode::corruption;
  util::ZstdStreamReader* m_stream = nullptr;
  std::uint64_t m_total = 0;                      // payload bytes
  std::string m_window;                           // payload bytes [m_window_start, m_window_start + size)
  std::uint64_t m_window_start = 0;               // absolute offset of m_window[0]
  std::optional<std::uint64_t> m_stream_blob_at;  // the BIN header of the next streamed frame
  unsigned m_entry_tail = 0;                      // mounted segment elements after the allocator
};

void SegmentsDecoder::reseat(std::uint64_t absolute) {
  m_reader = MsgpackReader(m_window, m_window_start);
  m_reader.rewind_to(static_cast<std::size_t>(absolute - m_window_start));
}

bool SegmentsDecoder::grow(std::uint64_t bytes) {
  const std::uint64_t absolute = m_reader.absolute_position();
  const std::size_t want = static_cast<std::size_t>(
      std::min<std::uint64_t>(std::max<std::uint64_t>(bytes, std::max<std::size_t>(1, m_options.stream_step_bytes)),
                              m_total - m_window_start - m_window.size()));
  if (util::Status s = m_stream->read(want, m_window); !s.ok()) {
    m_failure_code = s.code();
    return fail_message(s.message());  // the caller reports the stream's own error (in.finish())
  }
  reseat(absolute);
  return true;
}

bool SegmentsDecoder::ensure_values(unsigned count) {
  if (m_stream == nullptr) return true;
  while (true) {
    const std::size_t position = window_position();
    MsgpackReader probe(m_window, m_window_start);
    probe.rewind_to(position);
    bool complete = true;
    for (unsigned i = 0; i < count && complete; ++i) complete = probe.skip_value();
    if (complete || window_at_end()) return true;
    if (!grow(m_window.size() - position)) return false;
  }
}

bool SegmentsDecoder::ensure_map_header() {
  if (m_stream == nullptr) return true;
  while (true) {
    const std::size_t position = window_position();
    MsgpackReader probe(m_window, m_window_start);
    probe.rewind_to(position);
    probe.disable_length_checks();
    MpHeader h{};
    std::uint64_t need = 16;
    if (probe.read_header(h)) {
      if (h.type != MpType::map) return ensure_values(1);
      need = probe.position() - position + 2 * std::uint64_t{h.length};
    }
    const std::uint64_t have = m_window.size() - position;
    if (have >= need || window_at_end()) return true;
    if (!grow(need - have)) return false;
  }
}

// A frame the decoder streams: a BIN at least stream_blob_bytes long that lies within the payload,
// with its header and the first bytes of its frame in the window.
SegmentsDecoder::Probe SegmentsDecoder::probe_stream_blob(MsgpackReader& probe) {
  // The header alone: its length may reach past the window (the point of streaming).
  MsgpackReader header_probe(probe.data(), probe.absolute_position() - probe.position());
  header_probe.rewind_to(probe.position());
  header_probe.disable_length_checks();
  MpHeader h{};
  if (!header_probe.read_header(h)) return Probe::short_window;
  const std::uint64_t payload_at = header_probe.absolute_position();
  if (h.type == MpType::bin && h.length >= std::max<std::size_t>(1, m_options.stream_blob_bytes) &&
      h.length <= m_total - payload_at) {
    if (header_probe.remaining() < std::min<std::uint64_t>(h.length, util::ZstdFrameFeed::k_first_piece_bytes)) {
      return Probe::short_window;
    }
    m_stream_blob_at = h.offset;
    return Probe::stopped;
  }
  return probe.skip_value() ? Probe::complete : Probe::short_window;
}

// [size, cur_cap, max_cap, free_storage, used_bins_top, used_bins, bin_indices, nodes, free, free_offset]
SegmentsDecoder::Probe SegmentsDecoder::probe_core(MsgpackReader& probe) {
  const std::size_t start = probe.position();
  MpHeader h{};
  if (!probe.read_header(h)) return Probe::short_window;
  if (h.type != MpType::array || h.length != 10) {
    probe.rewind_to(start);
    return probe.skip_value() ? Probe::complete : Probe::short_window;
  }
  for (unsigned i = 0; i < 7; ++i)
    if (!probe.skip_value()) return Probe::short_window;
  for (unsigned i = 7; i < 9; ++i) {
    const Probe p = probe_stream_blob(probe);
    if (p != Probe::complete) return p;
  }
  return probe.skip_value() ? Probe::complete : Probe::short_window;
}

// The mounted segment value; its allocator (element 7, when has_allocator is true) is
// [.., .., .., .., .., [.., .., .., .., .., core]].
SegmentsDecoder::Probe SegmentsDecoder::probe_mounted_value(MsgpackReader& probe) {
  const std::size_t start = probe.position();
  MpHeader h{};
  if (!probe.read_header(h)) return Probe::short_window;
  if (h.type != MpType::array || h.length < 8) {
    probe.rewind_to(start);
    return probe.skip_value() ? Probe::complete : Probe::short_window;
  }
  bool has_allocator = false;
  for (std::uint32_t i = 0; i < h.length; ++i) {
    if (i == 6) {
      MpHeader b{};
      const std::size_t at = probe.position();
      if (!probe.read_header(b)) return Probe::short_window;
      has_allocator = b.type == MpType::boolean && b.boolean;
      probe.rewind_to(at);
    }
    if (i != 7 || !has_allocator) {
      if (!probe.skip_value()) return Probe::short_window;
      continue;
    }
    bool nested = true;
    for (unsigned level = 0; level < 2 && nested; ++level) {  // buffer allocator, offset allocator
      const std::size_t at = probe.position();
      MpHeader a{};
      if (!probe.read_header(a)) return Probe::short_window;
      if (a.type != MpType::array || a.length != 6) {
        probe.rewind_to(at);
        if (!probe.skip_value()) return Probe::short_window;
        nested = false;
        break;
      }
      for (unsigned k = 0; k < 5; ++k)
        if (!probe.skip_value()) return Probe::short_window;
    }
    if (nested) {
      const Probe p = probe_core(probe);
      if (p != Probe::complete) return p;
    }
  }
  return Probe::complete;
}

bool SegmentsDecoder::ensure_mounted_entry() {
  if (m_stream == nullptr) return true;
  m_stream_blob_at.reset();
  while (true) {
    const std::size_t position = window_position();
    MsgpackReader probe(m_window, m_window_start);
    probe.rewind_to(position);
    Probe p = probe.skip_value() ? probe_mounted_value(probe) : Probe::short_window;
    if (p == Probe::short_window) m_stream_blob_at.reset();
    if (p != Probe::short_window || window_at_end()) return true;
    if (!grow(m_window.size() - position)) return false;
  }
}

bool SegmentsDecoder::ensure_after_blob(unsigned count, bool first_may_stream) {
  m_stream_blob_at.reset();
  while (true) {
    const std::size_t position = window_position();
    MsgpackReader probe(m_window, m_window_start);
    probe.rewind_to(position);
    Probe p = Probe::complete;
    for (unsigned i = 0; i < count && p == Probe::complete; ++i) {
      p = i == 0 && first_may_stream ? probe_stream_blob(probe)
                                     : (probe.skip_value() ? Probe::complete : Probe::short_window);
    }
    if (p == Probe::short_window) m_stream_blob_at.reset();
    if (p != Probe::short_window || window_at_end()) return true;
    if (!grow(std::max<std::size_t>(1, m_window.size() - position))) return false;
  }
}

void SegmentsDecoder::release_consumed() {
  if (m_stream == nullptr) return;
  const std::size_t position = window_position();
  if (position < m_options.stream_keep_bytes) return;
  const std::uint64_t absolute = m_reader.absolute_position();
  m_window.erase(0, position);
  m_window_start = absolute;
  reseat(absolute);
}

bool SegmentsDecoder::uuid_string(std::string_view& out, const char* what, bool strict_str) {
  MpHeader h;
  if (!m_values.header(h)) return false;
  if (h.type != MpType::str && (strict_str || h.type != MpType::bin)) {
    return m_values.type_error(h, what, "a msgpack STR");
  }
  if (!m_reader.read_payload(h.length, out)) return false;
  if (!util::parse_uuid_lenient(out)) {
    return m_values.error_at(h.offset, std::string(what) + ": '" + std::string(out) + "' is not a UUID");
  }
  if (!util::is_canonical_uuid(out)) {
    finding(model::Severity::warning, std::string(what) + " '" + std::string(out) + "' is not a canonical UUID");
  }
  return true;
}

bool SegmentsDecoder::decode_allocator_names() {
  std::uint32_t n = 0;
  if (!m_values.array(n, "\"an\"")) return fail_status("\"an\"");
  m_out.has_allocator_names = true;
  for (std::uint32_t i = 0; i < n; ++i) {
    std::string_view name;
    if (!m_values.str_strict(name, "\"an\" element")) return fail_status("\"an\"[" + std::to_string(i) + "]");
    m_out.allocator_names.emplace_back(name);
  }
  return true;
}

bool SegmentsDecoder::stream_blob(const MpHeader& h, util::ZstdFrameFeed& feed) {
  const std::size_t in_window =
      static_cast<std::size_t>(std::min<std::uint64_t>(h.length, m_window.size() - window_position()));
  std::string_view first;
  if (!m_reader.read_payload(static_cast<std::uint32_t>(in_window), first)) return false;
  Status s = feed.feed(first);
  std::uint64_t left = h.length - in_window;
  if (left == 0) return true;  // the whole frame was in the window: the window goes on after it
  // The window ends inside the frame: the rest is pulled from the stream past the window.
  const std::uint64_t after = m_reader.absolute_position() + left;
  std::string piece;
  while (left > 0 && s.ok()) {
    const std::size_t step = static_cast<std::size_t>(
        std::min<std::uint64_t>(left, std::max<std::size_t>(64 << 10, m_options.stream_step_bytes)));
    piece.resize(step);
    if (Status r = m_stream->read(piece.data(), step); !r.ok()) {
      m_failure_code = r.code();
      return fail_message(r.message());  // the caller reports the stream's own error (in.finish())
    }
    left -= step;
    s = feed.feed(piece);
  }
  m_window.clear();
  m_window_start = after;
  reseat(after);
  return true;
}

bool SegmentsDecoder::decode_blob(std::uint64_t expected, std::string& out, const char* what, const std::string& where,
                                  bool node_table, unsigned values_after) {
  MpHeader h;
  const bool streamed = m_stream != nullptr && m_stream_blob_at == m_reader.absolute_position();
  if (streamed) {  // a BIN header whose payload reaches past the window (ensure_mounted_entry)
    MsgpackReader header_reader(m_window, m_window_start);
    header_reader.rewind_to(window_position());
    header_reader.disable_length_checks();
    if (!header_reader.read_header(h)) return fail_message(where + ": " + header_reader.error());
    m_reader.rewind_to(header_reader.position());
  } else if (!m_values.header(h)) {
    return fail_status(where);
  }
  if (h.type != MpType::bin) {
    (void)m_values.type_error(h, what, "BIN");
    return fail_status(where);
  }
  std::string_view frame;
  if (!streamed && !m_reader.read_payload(h.length, frame)) return fail_status(where);
  if (m_options.keep_allocator_blobs && expected > m_options.max_blob_bytes) {
    m_failure_code = util::StatusCode::limit_exceeded;
    return fail_message(where + ": " + what + " of " + std::to_string(expected) +
                        " bytes exceeds the memory limit of " + std::to_string(m_options.max_blob_bytes));
  }
  // Whole 25-byte records to on_node_records, the last partial record carried to the next piece.
  std::string carry;
  std::uint64_t next_node = 0;
  const std::uint64_t nodes = expected / 25;
  util::ZstdFrameFeed::Sink sink;
  if (m_options.keep_allocator_blobs) {
    out.clear();
    out.reserve(static_cast<std::size_t>(expected));
    sink = [&out](std::string_view piece) { out.append(piece); };
  } else if (node_table && m_options.on_node_records) {
    sink = [&](std::string_view piece) {
      if (!carry.empty()) {
        const std::size_t take = std::min(piece.size(), 25 - carry.size());
        carry.append(piece.substr(0, take));
        piece.remove_prefix(take);
        if (carry.size() < 25) return;
        m_options.on_node_records(carry, next_node++, nodes);
        carry.clear();
      }
      const std::size_t whole = piece.size() - piece.size() % 25;
      if (whole > 0) {
        m_options.on_node_records(piece.substr(0, whole), next_node, nodes);
        next_node += whole / 25;
      }
      carry.assign(piece.substr(whole));
    };
  }
  util::ZstdFrameFeed feed(h.length, expected, std::move(sink));
  Status s;
  if (streamed) {
    if (!stream_blob(h, feed)) return false;
    s = feed.finish();
  } else {
    s = feed.feed(frame);
    if (s.ok()) s = feed.finish();
  }
  if (s.ok() && node_table && !m_options.keep_allocator_blobs && m_options.on_node_records && nodes == 0) {
    m_options.on_node_records({}, 0, 0);
  }
  if (!s.ok()) {
    return fail_message(where + ": " + what + " at byte offset " + std::to_string(h.offset) + ": " + s.message());
  }
  if (streamed && !ensure_after_blob(values_after, node_table)) return false;
  return true;
}

bool SegmentsDecoder::decode_core(model::AllocatorCore& c, const std::string& where) {
  std::uint32_t n = 0;
  if (!m_values.array(n, "allocator core")) return fail_status(where);
  if (n != 10) return fail_message(where + ": allocator core has " + std::to_string(n) + " elements, expected 10");
  if (!m_values.u32(c.size, "allocator size") || !m_values.u32(c.current_capacity, "current_capacity") ||
      !m_values.u32(c.max_capacity, "max_capacity") || !m_values.u32(c.free_storage, "free_storage") ||
      !m_values.u32(c.used_bins_top, "used_bins_top")) {
    return fail_status(where);
  }
  if (!m_values.array(n, "used_bins")) return fail_status(where);
  if (n != 32) return fail_message(where + ": used_bins has " + std::to_string(n) + " elements, expected 32");
  for (auto& b : c.used_bins)
    if (!m_values.u8(b, "used_bins element")) return fail_status(where);
  if (!m_values.array(n, "bin_indices")) return fail_status(where);
  if (n != 256) return fail_message(where + ": bin_indices has " + std::to_string(n) + " elements, expected 256");
  for (auto& b : c.bin_indices)
    if (!m_values.u32(b, "bin_indices element")) return fail_status(where);
  if (!decode_blob(std::uint64_t{c.current_capacity} * 25, c.nodes, "node table", where, true, 2 + m_entry_tail)) {
    return false;
  }
  if (!decode_blob(std::uint64_t{c.current_capacity} * 4, c.free_nodes, "free-node list", where, false,
                   1 + m_entry_tail)) {
    return false;
  }
  if (!m_values.u32(c.free_offset, "free_offset")) return fail_status(where);
  if (c.max_capacity < c.current_capacity) c.max_capacity = c.current_capacity;  // max(current, max)
  return true;
}

bool SegmentsDecoder::decode_buffer_allocator(model::BufferAllocatorState& a, const std::string& where) {
  std::uint32_t n = 0;
  std::string_view s;
  if (!m_values.array(n, "buffer allocator")) return fail_status(where);
  if (n != 6) return fail_message(where + ": buffer allocator has " + std::to_string(n) + " elements, expected 6");
  if (!m_values.string(s, "allocator segment_name")) return fail_status(where);
  a.segment_name = s;
  if (!m_values.u64(a.base, "allocator base") || !m_values.u64(a.total_size, "allocator total_size") ||
      !m_values.u64(a.cur_size, "allocator cur_size") || !m_values.string(s, "allocator transport_endpoint")) {
    return fail_status(where);
  }
  a.transport_endpoint = s;
  auto& o = a.offset;
  if (!m_values.array(n, "offset allocator")) return fail_status(where);
  if (n != 6) return fail_message(where + ": offset allocator has " + std::to_string(n) + " elements, expected 6");
  if (!m_values.u64(o.base, "offset allocator base") || !m_values.u64(o.multiplier_bits, "multiplier_bits") ||
      !m_values.u64(o.capacity, "capacity") || !m_values.u64(o.allocated_size, "allocated_size") ||
      !m_values.u64(o.allocated_num, "allocated_num")) {
    return fail_status(where);
  }
  return decode_core(o.core, where);
}

bool SegmentsDecoder::decode_mounted_segment(std::string_view key, model::MountedSegment& seg) {
  const std::string where = "\"ms\"[" + std::string(key) + "]";
  std::uint32_t n = 0;
  std::string_view s;
  if (!m_values.array(n, "mounted segment")) return fail_status(where);
  if (n < 8) return fail_message(where + ": mounted segment has " + std::to_string(n) + " elements, needs at least 8");
  m_entry_tail = n - 8;
  seg.map_key = key;
  if (!uuid_string(s, "segment id", false)) return fail_status(where);
  seg.id = s;
  if (!m_values.string(s, "segment name")) return fail_status(where);
  seg.name = s;
  if (!m_values.u64(seg.base, "segment base") || !m_values.u64(seg.size, "segment size") ||
      !m_values.string(s, "segment te_endpoint")) {
    return fail_status(where);
  }
  seg.te_endpoint = s;
  if (!m_values.i16(seg.status, "segment status") || !m_values.boolean(seg.has_allocator, "has_allocator")) {
    return fail_status(where);
  }
  if (seg.has_allocator) {
    seg.allocator.emplace();
    if (!decode_buffer_allocator(*seg.allocator, where)) return false;
  } else if (!m_values.skip()) {
    return fail_status(where);
  }
  if (n >= 9) {
    if (!m_values.string(s, "segment host_id")) return fail_status(where);
    seg.host_id = std::string(s);
  }
  for (std::uint32_t i = 9; i < n; ++i)
    if (!m_values.skip()) return fail_status(where);
  if (seg.map_key != seg.id) {
    finding(model::Severity::error, where + ": map key differs from the segment id '" + seg.id + "'");
  }
  if (seg.status != model::segment_status::ok) {
    finding(model::Severity::warning, where + ": segment '" + seg.name + "' has status " +
                                          model::segment_status::name(seg.status) + " (" + std::to_string(seg.status) +
                                          ")");
  }
  return true;
}

bool SegmentsDecoder::decode_mounted() {
  std::uint32_t n = 0;
  if (!ensure_map_header()) return false;
  if (!m_values.map(n, "\"ms\"")) return fail_status("\"ms\"");
  for (std::uint32_t i = 0; i < n; ++i) {
    if (!ensure_mounted_entry()) return false;
    std::string_view key;
    if (!uuid_string(key, "\"ms\" key", true)) return fail_status("\"ms\"");
    model::MountedSegment seg;
    if (!decode_mounted_segment(key, seg)) return false;
    m_out.mounted.push_back(std::move(seg));
    release_consumed();
  }
  return true;
}

bool SegmentsDecoder::decode_client_segments() {
  std::uint32_t n = 0;
  if (!m_values.map(n, "\"cs\"")) return fail_status("\"cs\"");
  m_out.has_client_segments = true;
  for (std::uint32_t i = 0; i < n; ++i) {
    std::string_view client;
    if (!uuid_string(client, "\"cs\" key", true)) return fail_status("\"cs\"");
    std::uint32_t count = 0;
    const std::string where = "\"cs\"[" + std::string(client) + "]";
    if (!m_values.array(count, "client segment list")) return fail_status(where);
    std::vector<std::string> ids;
    for (std::uint32_t k = 0; k < count; ++k) {
      std::string_view id;
      if (!uuid_string(id, "client segment id", true)) return fail_status(where);
      ids.emplace_back(id);
    }
    m_out.client_segments.emplace_back(std::string(client), std::move(ids));
  }
  return true;
}

bool SegmentsDecoder::decode_local_disk_client(std::string_view key, model::LocalDiskClient& client) {
  const std::string where = "\"ld\"[" + std::string(key) + "]";
  client.client_id = key;
  std::uint32_t n = 0;
  if (!m_values.array(n, "local-disk client")) return fail_status(where);
  if (n < 2) return fail_message(where + ": local-disk entry has " + std::to_string(n) + " elements, needs 2");
  std::uint64_t count = 0;
  if (!m_values.boolean(client.enable_offloading, "enable_offloading") ||
      !m_values.u64(count, "local-disk task count")) {
    return fail_status(where);
  }
  if (count > (n - 2) / 2) {
    return fail_message(where + ": task count " + std::to_string(count) + " runs beyond the array of " +
                        std::to_string(n) + " elements");
  }
  for (std::uint64_t t = 0; t < count; ++t) {
    model::LocalDiskTask task;
    std::string_view encoded;
    if (!m_values.str_strict(encoded, "local-disk encoded key")) return fail_status(where);
    task.encoded_key = encoded;
    MpHeader h;
    if (!m_values.header(h)) return fail_status(where);
    if (h.type == MpType::pos_int || h.type == MpType::neg_int) {
      task.legacy_integer_form = true;
      if (h.type == MpType::pos_int && h.u > static_cast<std::uint64_t>(INT64_MAX)) {
        (void)m_values.type_error(h, "local-disk task size", "a signed 64-bit integer");
        return fail_status(where);
      }
      task.size = h.type == MpType::pos_int ? static_cast<std::int64_t>(h.u) : h.i;
      size_t nul = encoded.find('\0');
      task.tenant_id = nul == std::string_view::npos ? "default" : std::string(encoded.substr(0, nul));
      task.key = nul == std::string_view::npos ? std::string(encoded) : std::string(encoded.substr(nul + 1));
    } else if (h.type == MpType::array && h.length == 3) {
      std::string_view tenant;
      std::string_view k;
      if (!m_values.str_strict(tenant, "local-disk task tenant") || !m_values.str_strict(k, "local-disk task key") ||
          !m_values.i64(task.size, "local-disk task size")) {
        return fail_status(where);
      }
      task.tenant_id = tenant;
      task.key = k;
    } else {
      (void)m_values.type_error(h, "local-disk task", "a [tenant, key, size] array or an integer");
      return fail_status(where);
    }
    client.tasks.push_back(std::move(task));
  }
  std::uint64_t consumed = 2 + 2 * count;
  if (consumed < n) {
    MpHeader h;
    if (!m_values.header(h)) return fail_status(where);
    if (h.type == MpType::pos_int && h.u <= static_cast<std::uint64_t>(INT64_MAX)) {
      client.total_capacity_bytes = static_cast<std::int64_t>(h.u);
    } else if (h.type == MpType::neg_int) {
      client.total_capacity_bytes = h.i;
    } else if (!m_reader.skip_after_header(h)) {
      return fail_status(where);
    }
    for (std::uint64_t i = consumed + 1; i < n; ++i)
      if (!m_values.skip()) return fail_status(where);
  }
  return true;
}

bool SegmentsDecoder::decode_local_disk() {
  std::uint32_t n = 0;
  if (!m_values.map(n, "\"ld\"")) return fail_status("\"ld\"");
  m_out.has_local_disk = true;
  for (std::uint32_t i = 0; i < n; ++i) {
    std::string_view key;
    if (!m_values.str_strict(key, "\"ld\" key")) return fail_status("\"ld\"");
    model::LocalDiskClient client;
    if (!decode_local_disk_client(key, client)) return false;
    m_out.local_disk.push_back(std::move(client));
  }
  return true;
}

util::Result<model::SegmentsPayload> SegmentsDecoder::run() {
  std::uint32_t n = 0;
  if (!ensure_map_header()) return Status(m_failure_code, m_failure);
  if (!m_values.map(n, "segments payload")) return Status::corruption(m_values.error());
  std::set<std::string, std::less<>> seen;
  for (std::uint32_t i = 0; i < n && m_failure.empty(); ++i) {
    MpHeader h;
    std::string_view key;
    if (!ensure_values(1)) break;
    if (!m_values.header(h)) break;
    if (h.type != MpType::str) {  // non-STR keys are ignored, with their values
      finding(model::Severity::warning, "non-string key at byte offset " + std::to_string(h.offset) + " ignored");
      if (!m_reader.skip_after_header(h) || !ensure_values(1) || !m_values.skip()) break;
      continue;
    }
    if (!m_reader.read_payload(h.length, key)) break;
    std::string key_text(key);  // the window may move under `key`
    key = key_text;
    if (!seen.insert(key_text).second) {
      finding(model::Severity::error, "duplicate key \"" + key_text + "\" ignored (the first one wins)");
      if (!ensure_values(1) || !m_values.skip()) break;
      continue;
    }
    if (key != "ms" && !ensure_values(1)) break;
    bool ok = true;
    if (key == "ma") {
      MpHeader v;
      if (!m_values.header(v)) break;
      if (v.type != MpType::pos_int || v.u != static_cast<std::uint64_t>(model::k_allocator_type_offset)) {
        return Status::corruption("\"ma\" at byte offset " + std::to_string(v.offset) +
                                  " is not the OFFSET allocator type (1)");
      }
      m_out.allocator_type = model::k_allocator_type_offset;
    } else if (key == "an") {
      ok = decode_allocator_names();
    } else if (key == "ms") {
      ok = decode_mounted();
    } else if (key == "cs") {
      ok = decode_client_segments();
    } else if (key == "ld") {
      ok = decode_local_disk();
    } else {
      finding(model::Severity::info, "unknown key \"" + std::string(key) + "\" ignored");
      ok = m_values.skip();
    }
    if (!ok) break;
  }
  if (!m_failure.empty()) return Status(m_failure_code, m_failure);
  if (m_values.failed()) return Status::corruption(m_values.error());
  if (bytes_left() > 0) {
    finding(model::Severity::warning, std::to_string(bytes_left()) + " trailing bytes after the payload");
  }
  if (!m_out.has_allocator_names) finding(model::Severity::warning, "no \"an\": no restored segment is allocatable");
  if (!m_out.has_client_segments) finding(model::Severity::warning, "no \"cs\": client lookups will fail");
  if (!m_out.has_local_disk) finding(model::Severity::info, "no \"ld\": local-disk state is empty");
  return std::move(m_out);
}

}  // namespace

util::Result<model::SegmentsPayload> decode_segments(std::string_view raw, const SegmentsDecodeOptions& options,
                                                     model::Findings& findings) {
  SegmentsDecoder decoder(raw, options, findings);
  return decoder.run();
}

util::Result<model::SegmentsPayload> decode_segments(util::ZstdStreamReader& stream,
                                                     const SegmentsDecodeOptions& options, model::Findings& findings) {
  SegmentsDecoder decoder(stream, options, findings);
  return decoder.run();
}

}  // namespace moonquota::format
