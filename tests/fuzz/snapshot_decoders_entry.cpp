#include "fuzz/snapshot_decoders_entry.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "format/object_decoder.hpp"
#include "format/segments_decoder.hpp"
#include "format/shard_decoder.hpp"
#include "format/task_manager_decoder.hpp"
#include "inspect/msgpack_shape.hpp"
#include "inspect/snapshot_fingerprint.hpp"
#include "support/segments_stream_support.hpp"

namespace moonquota::fuzz {

namespace {

[[noreturn]] void broken(const char* what) {
  std::fprintf(stderr, "fuzz invariant broken: %s\n", what);
  std::abort();
}

void check(bool ok, const char* what) {
  if (!ok) broken(what);
}

class CheckingVisitor final : public format::ShardVisitor {
 public:
  void on_entry(const format::ShardEntry& entry) override {
    check(entry.entry_index == m_entries, "entries are delivered in order");
    check(entry.result != nullptr && entry.object != nullptr, "entry carries its result and object");
    check(entry.result->outcome != format::DecodeOutcome::rejected, "a rejected entry is never delivered");
    check(!entry.object->tenant_id.empty(), "the tenant is normalised");
    if (entry.result->outcome == format::DecodeOutcome::skipped) {
      check(!entry.result->reason.empty(), "a skipped object has a reason");
    } else {
      const model::ObjectRecord record = format::to_record(*entry.object);
      check(record.layout_version >= 1 && record.layout_version <= 5, "layout version 1..5");
      check(record.replicas.size() == entry.object->replicas.size(), "records keep every replica");
    }
    ++m_entries;
  }

 private:
  std::uint64_t m_entries = 0;
};

void fuzz_segments(std::uint8_t selector, std::string_view raw) {
  format::SegmentsDecodeOptions options;
  options.keep_allocator_blobs = (selector & 0x80) != 0;
  options.max_blob_bytes = std::size_t{1} << 20;
  model::Findings findings;
  auto r = format::decode_segments(raw, options, findings);
  // Differential: the streamed decode (from the zstd frame, through a window of 1 to 64 bytes
  // that drops what was decoded) reaches exactly the same outcome.
  const std::size_t step = 1 + ((selector >> 1) & 0x3f);
  if (test::decode_streamed(raw, options, step, 0) != test::decode_whole(raw, options)) {
    broken("the streamed segments decode differs from the whole-payload decode");
  }
  if (!r.ok()) {
    check(!r.status().message().empty(), "segments rejection has a message");
    return;
  }
  for (const auto& seg : r->mounted) {
    check(seg.has_allocator == seg.allocator.has_value(), "allocator presence matches the flag");
    if (seg.allocator && options.keep_allocator_blobs) {
      const auto& core = seg.allocator->offset.core;
      check(core.nodes.size() == std::size_t{core.current_capacity} * 25, "node table size");
      check(core.free_nodes.size() == std::size_t{core.current_capacity} * 4, "free-node list size");
    }
  }
}

void fuzz_shard(std::uint8_t selector, std::string_view raw) {
  format::SegmentTable table;
  table.add({3, 4}, {model::segment_status::ok, true});
  table.add({5, 6}, {model::segment_status::draining, true});
  table.add({7, 8}, {model::segment_status::ok, false});
  format::ObjectView scratch;
  CheckingVisitor visitor;
  model::Findings findings;
  util::Status s = format::decode_shard(raw, selector >> 2, table, scratch, visitor, findings);
  if (!s.ok()) check(s.message().rfind("shard ", 0) == 0, "shard rejection names the shard");
}

void fuzz_task_manager(std::string_view raw) {
  model::Findings findings;
  auto r = format::decode_task_manager(raw, findings);
  if (!r.ok()) {
    check(!r.status().message().empty(), "task_manager rejection has a message");
    return;
  }
  check(r->skipped <= findings.size(), "every skipped task is reported");
}

// The fingerprint's walkers over the same bytes (what a master accepts is a subset): never a crash,
// every feature short, counted, and placed.
void fuzz_shape(std::uint8_t selector, std::string_view raw) {
  inspect::SnapshotShape shape;
  switch (selector % 3) {
    case 0: (void)inspect::add_segments_shape(raw, shape); break;
    case 1: inspect::add_shard_shape(raw, selector >> 2, shape); break;
    default: (void)inspect::add_tasks_shape(raw, shape); break;
  }
  for (const auto& [section, features] : shape.sections) {
    for (const auto& [feature, f] : features) {
      check(!feature.empty() && f.count > 0 && !f.first_seen.empty(), "a feature is named, counted and placed");
      // A feature holds a few shapes, each cut at k_max_shape_chars.
      check(feature.size() <= 8 * inspect::k_max_shape_chars, "a feature's text is bounded");
    }
  }
  check(inspect::fingerprint_id_of(shape).size() == 16, "the fingerprint id is 16 hex digits");
}

}  // namespace

int run_snapshot_decoders(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t selector = data[0];
  const std::string_view raw(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (selector % 3) {
    case 0: fuzz_segments(selector, raw); break;
    case 1: fuzz_shard(selector, raw); break;
    default: fuzz_task_manager(raw); break;
  }
  fuzz_shape(selector, raw);
  return 0;
}

}  // namespace moonquota::fuzz
